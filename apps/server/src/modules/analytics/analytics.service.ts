import type { AllTimeTotals, CostTotals, MonthlyAnalytics, YearlyAnalytics } from '@evdra/domain';
import type { Principal } from '../auth/auth.service.js';
import type { VehicleAccess } from '../records/records.service.js';
import type { AnalyticsRepo, MonthRow } from './analytics.repo.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

function totals(rows: MonthRow[]): CostTotals {
  const sum = (k: 'liters' | 'fuel' | 'expenses' | 'insurance' | 'revisions') =>
    round2(rows.reduce((s, r) => s + r[k], 0));
  const t = {
    totalFuelLiters: sum('liters'),
    totalFuelCost: sum('fuel'),
    totalExpensesCost: sum('expenses'),
    totalInsuranceCost: sum('insurance'),
    totalRevisionCost: sum('revisions'),
  };
  return {
    ...t,
    totalCost: round2(t.totalFuelCost + t.totalExpensesCost + t.totalInsuranceCost + t.totalRevisionCost),
  };
}

/** Cost analytics: per vehicle (monthly, yearly, all time), per user, and across everyone (admin). */
export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly access: VehicleAccess,
  ) {}

  async vehicleMonthly(p: Principal, vehicleId: number): Promise<MonthlyAnalytics[]> {
    const rows = await this.vehicleMonths(p, vehicleId);
    return rows.map((r) => ({
      id: Number(r.month.slice(0, 7).replace('-', '')),
      monthDate: r.month,
      ...totals([r]),
    }));
  }

  async vehicleYearly(p: Principal, vehicleId: number): Promise<YearlyAnalytics> {
    return yearly(await this.vehicleMonths(p, vehicleId));
  }

  async vehicleTotal(p: Principal, vehicleId: number): Promise<AllTimeTotals> {
    // The span is read beside the months; it is answered only once access is settled.
    const [rows, span] = await Promise.all([
      this.vehicleMonths(p, vehicleId),
      this.repo.odometerSpan(vehicleId),
    ]);
    return allTime(rows, span);
  }

  /**
   * One vehicle's months, yearly totals and all-time totals for a caller whose access to the vehicle
   * is already settled (the history report checks it itself, shared users included).
   */
  async vehicleCosts(
    vehicleId: number,
  ): Promise<{ months: MonthRow[]; yearly: YearlyAnalytics; total: AllTimeTotals }> {
    const [rows, span] = await Promise.all([
      this.repo.vehicleMonths(vehicleId),
      this.repo.odometerSpan(vehicleId),
    ]);
    return { months: rows, yearly: yearly(rows), total: allTime(rows, span) };
  }

  /**
   * One vehicle's months, with the access check in the same statement (its owner or a share, or any
   * for an admin); no rows is checked again, to tell a vehicle without costs from one that is not theirs (404).
   */
  private async vehicleMonths(p: Principal, vehicleId: number): Promise<MonthRow[]> {
    const rows = await this.repo.vehicleMonths(vehicleId, p.role === 'ADMIN' ? undefined : p.userId);
    if (rows.length === 0) await this.access(p, vehicleId);
    return rows;
  }

  /**
   * The caller's vehicles (own and shared with them; `own`: only own), by vehicle and month, newest
   * first (AnalyticsRow[] as JSON text).
   */
  user(p: Principal, own = false): Promise<string> {
    return this.repo.rowsJson({ userId: p.userId, own });
  }

  /** Every vehicle of every owner between two months (YYYY-MM, both inclusive), as JSON text. */
  admin(range: { start?: string; end?: string }): Promise<string> {
    return this.repo.rowsJson({
      from: range.start && `${range.start}-01`,
      until: range.end && nextMonth(range.end),
    });
  }
}

/** Totals by year, oldest first. */
function yearly(rows: MonthRow[]): YearlyAnalytics {
  const byYear = new Map<string, MonthRow[]>();
  for (const r of rows) {
    const year = r.month.slice(0, 4);
    byYear.set(year, [...(byYear.get(year) ?? []), r]);
  }
  return Object.fromEntries(
    [...byYear].sort(([a], [b]) => a.localeCompare(b)).map(([y, rs]) => [y, totals(rs)]),
  );
}

/** All-time totals, km driven between the lowest and highest reading, and cost per km. */
function allTime(rows: MonthRow[], span: { low: number | null; high: number | null }): AllTimeTotals {
  const t = totals(rows);
  const totalKm = span.low !== null && span.high !== null ? Math.max(0, span.high - span.low) : 0;
  return {
    ...t,
    totalKm,
    costPerKm: totalKm > 0 ? Math.round((t.totalCost / totalKm) * 1000) / 1000 : null,
  };
}

/** First day of the month after 'YYYY-MM'. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}
