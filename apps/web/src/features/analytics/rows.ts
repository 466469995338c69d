import {
  type AnalyticsRow,
  type CurrencyCode,
  type FuelMonthSplit,
  type FuelType,
  monthLabel,
} from '@evdra/domain';
import { currencyOf } from '../../lib/units';

export interface VehicleOption {
  vehicleId: number;
  label: string;
  ownerUsername: string;
}

/** Distinct vehicles of the rows, labelled make and model (with #id when two share a name). */
export function vehicleOptions(rows: AnalyticsRow[]): VehicleOption[] {
  const byId = new Map<number, VehicleOption>();
  for (const r of rows) {
    if (!byId.has(r.vehicleId)) {
      byId.set(r.vehicleId, {
        vehicleId: r.vehicleId,
        label: `${r.vehicleMake} ${r.vehicleModel}`,
        ownerUsername: r.ownerUsername,
      });
    }
  }
  const options = [...byId.values()];
  const counts = new Map<string, number>();
  for (const o of options) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
  return options
    .map((o) => ((counts.get(o.label) ?? 0) > 1 ? { ...o, label: `${o.label} (#${o.vehicleId})` } : o))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Every month from the oldest to the newest row (gaps included), oldest first, as `YYYY-MM-01`. */
export function monthsOf(rows: AnalyticsRow[]): string[] {
  const present = [...new Set(rows.map((r) => r.monthDate.slice(0, 7)))].sort();
  const first = present[0];
  const last = present[present.length - 1];
  if (!first || !last) return [];
  const months: string[] = [];
  let [y, m] = first.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    months.push(`${key}-01`);
    if (key >= last) break;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

/** One series per vehicle over `months` (null where the vehicle had no cost that month). */
export function costSeries(rows: AnalyticsRow[], vehicles: VehicleOption[], months: string[]) {
  return {
    labels: months.map(monthLabel),
    series: vehicles.map((v) => ({
      label: v.label,
      values: months.map((m) => {
        const hit = rows.filter((r) => r.vehicleId === v.vehicleId && r.monthDate.slice(0, 10) === m);
        return hit.length ? hit.reduce((sum, r) => sum + r.totalCost, 0) : null;
      }),
    })),
  };
}

/** One fuel across the rows (issue 51): its cost and quantity per month (null: no fill), and in all. */
export interface FuelSeries {
  fuelType: FuelType;
  unit: FuelMonthSplit['unit'];
  costs: (number | null)[];
  quantities: (number | null)[];
  cost: number;
  quantity: number;
  fills: number;
}

/**
 * The rows' fuel cost split by fuel over `months` (each row's byFuel, every vehicle added up), the
 * dearest fuel first. Quantities stay in each fuel's unit: litres, kg and kWh are never added.
 */
export function fuelSeries(rows: AnalyticsRow[], months: string[]): FuelSeries[] {
  const index = new Map(months.map((m, i) => [m, i]));
  const byFuel = new Map<FuelType, FuelSeries>();
  for (const r of rows) {
    const i = index.get(r.monthDate.slice(0, 10));
    for (const s of r.byFuel ?? []) {
      const series = byFuel.get(s.fuelType) ?? {
        fuelType: s.fuelType,
        unit: s.unit,
        costs: months.map(() => null),
        quantities: months.map(() => null),
        cost: 0,
        quantity: 0,
        fills: 0,
      };
      if (i !== undefined) {
        series.costs[i] = round2((series.costs[i] ?? 0) + s.cost);
        series.quantities[i] = round2((series.quantities[i] ?? 0) + s.quantity);
      }
      series.cost = round2(series.cost + s.cost);
      series.quantity = round2(series.quantity + s.quantity);
      series.fills += s.fills;
      byFuel.set(s.fuelType, series);
    }
  }
  return [...byFuel.values()].sort((a, b) => b.cost - a.cost || a.fuelType.localeCompare(b.fuelType));
}

export interface VehicleTotals {
  vehicleId: number;
  vehicle: string;
  ownerUsername: string;
  fuel: number;
  expenses: number;
  insurance: number;
  revisions: number;
  total: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Sums the rows per vehicle, biggest total first. */
export function totalsPerVehicle(rows: AnalyticsRow[]): VehicleTotals[] {
  const labels = new Map(vehicleOptions(rows).map((o) => [o.vehicleId, o.label]));
  const byId = new Map<number, VehicleTotals>();
  for (const r of rows) {
    const t = byId.get(r.vehicleId) ?? {
      vehicleId: r.vehicleId,
      vehicle: labels.get(r.vehicleId) ?? `${r.vehicleMake} ${r.vehicleModel}`,
      ownerUsername: r.ownerUsername,
      fuel: 0,
      expenses: 0,
      insurance: 0,
      revisions: 0,
      total: 0,
    };
    t.fuel += r.totalFuelCost;
    t.expenses += r.totalExpensesCost;
    t.insurance += r.totalInsuranceCost;
    t.revisions += r.totalRevisionCost;
    t.total += r.totalCost;
    byId.set(r.vehicleId, t);
  }
  return [...byId.values()]
    .map((t) => ({
      ...t,
      fuel: round2(t.fuel),
      expenses: round2(t.expenses),
      insurance: round2(t.insurance),
      revisions: round2(t.revisions),
      total: round2(t.total),
    }))
    .sort((a, b) => b.total - a.total || a.vehicle.localeCompare(b.vehicle));
}

/** Total spending per owner, biggest first. */
export function totalsPerOwner(rows: AnalyticsRow[]): { owner: string; total: number }[] {
  const byOwner = new Map<string, number>();
  for (const r of rows) byOwner.set(r.ownerUsername, (byOwner.get(r.ownerUsername) ?? 0) + r.totalCost);
  return [...byOwner.entries()]
    .map(([owner, total]) => ({ owner, total: round2(total) }))
    .sort((a, b) => b.total - a.total || a.owner.localeCompare(b.owner));
}

/**
 * The answer's currency (issue 50): `preferred` (the reader's, for their own analytics) when a row is
 * in it, else the one most rows are in (the admin's answer is in the instance's currency, which the
 * page is not told). A row in another currency had no known rate to it and kept its own: it is listed
 * apart (totalsApart), never added to or drawn with the answer's.
 */
export function mainCurrency(rows: readonly object[], fallback: CurrencyCode, preferred?: CurrencyCode) {
  const counts = new Map<CurrencyCode, number>();
  for (const r of rows) {
    const c = currencyOf(r, fallback);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  if (preferred && counts.has(preferred)) return preferred;
  let main = fallback;
  for (const [c, n] of counts) if (n > (counts.get(main) ?? 0)) main = c;
  return main;
}

/** The total cost of the rows in each currency other than `main`, by currency. */
export function totalsApart(
  rows: readonly { totalCost: number }[],
  main: CurrencyCode,
): { currency: CurrencyCode; total: number }[] {
  const totals = new Map<CurrencyCode, number>();
  for (const r of rows) {
    const c = currencyOf(r, main);
    if (c !== main) totals.set(c, (totals.get(c) ?? 0) + r.totalCost);
  }
  return [...totals]
    .map(([currency, total]) => ({ currency, total: round2(total) }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}
