import { type FuelUnit, fuelUnit } from './constants.js';
import type { FuelType } from './enums.js';

/** The fields the consumption rule reads. */
export type FillUp = {
  id: number;
  date: string;
  odometer: number | null;
  liters: number;
  fullTank: boolean;
  missedPrevious: boolean;
  /** Which fuel (issue 51); absent: the vehicle's primary. */
  fuelType?: FuelType;
  /** km driven on this fuel since the previous fill of the same fuel (a trip counter); null: unknown. */
  distanceOnThisFuel?: number | null;
};

/** Chronological order: by date, then odometer, then id. */
export function chronological<T extends FillUp>(a: T, b: T): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.odometer !== null && b.odometer !== null && a.odometer !== b.odometer) return a.odometer - b.odometer;
  return a.id - b.id;
}

/**
 * The chain a fill belongs to: its own fuel when that is the vehicle's second fuel, else the
 * primary's (a fill of a fuel the vehicle does not have, written before issue 51, counts as primary).
 */
const chainOf = (f: FillUp, secondary: FuelType | null | undefined): 'primary' | 'secondary' =>
  secondary && f.fuelType === secondary ? 'secondary' : 'primary';

/** A closed full-to-full span of one fuel: the quantity put in and the km it lasted. */
export type FuelSpan = {
  chain: 'primary' | 'secondary';
  /** The fill that closed it (a full fill). */
  closedBy: number;
  date: string;
  quantity: number;
  distance: number;
};

/**
 * The full-to-full rule, one chain per fuel (issue 51): every fill's consumption, and the spans
 * each figure comes from. A fill's figure is the fuel of its kind put in since the previous full
 * fill of that kind (this one included) over the distance driven since then: the odometer's (all
 * driving, whatever the fuel: the estimate), or, when every fill of the span carries
 * `distanceOnThisFuel`, their sum. A partial fill, a missed fill (missedPrevious) and a missing
 * odometer break only their own fuel's chain.
 */
export function fuelChains(
  fills: FillUp[],
  secondary?: FuelType | null,
): { consumption: Map<number, number | null>; spans: FuelSpan[] } {
  const consumption = new Map<number, number | null>();
  const spans: FuelSpan[] = [];
  type Chain = { open: boolean; anchor: number | null; quantity: number; trip: number; tripKnown: boolean };
  const fresh = (open: boolean, anchor: number | null): Chain => ({
    open,
    anchor,
    quantity: 0,
    trip: 0,
    tripKnown: true,
  });
  const chains = { primary: fresh(false, null), secondary: fresh(false, null) };
  for (const f of [...fills].sort(chronological)) {
    const key = chainOf(f, secondary);
    const c = chains[key];
    if (f.missedPrevious) {
      // A fill-up of this fuel went unrecorded: this chain starts afresh here.
      consumption.set(f.id, null);
      chains[key] = fresh(f.fullTank, f.fullTank ? f.odometer : null);
      continue;
    }
    c.quantity += f.liters;
    if (f.distanceOnThisFuel !== null && f.distanceOnThisFuel !== undefined && f.distanceOnThisFuel > 0)
      c.trip += f.distanceOnThisFuel;
    else c.tripKnown = false;
    if (!f.fullTank) {
      consumption.set(f.id, null);
      continue;
    }
    const odometerDistance = c.anchor !== null && f.odometer !== null ? f.odometer - c.anchor : 0;
    const distance = c.open ? (c.tripKnown && c.trip > 0 ? c.trip : odometerDistance) : 0;
    if (distance > 0) {
      consumption.set(f.id, Math.round((c.quantity / distance) * 10_000) / 100);
      spans.push({ chain: key, closedBy: f.id, date: f.date, quantity: c.quantity, distance });
    } else consumption.set(f.id, null);
    chains[key] = fresh(true, f.odometer);
  }
  return { consumption, spans };
}

/**
 * Full-tank-to-full-tank consumption (as LubeLogger and Fuelio): on a full fill, the quantity of every
 * fill of its fuel since the previous full fill of that fuel (this one included) over the distance
 * since it, per 100 km (see fuelChains). Null on partial fills, the first fill, a fill marked
 * missedPrevious, and when the distance is unknown. `secondary`: the vehicle's second fuel, whose
 * fills run their own chain (none: one chain, as before issue 51).
 */
export function consumptionByEntry(fills: FillUp[], secondary?: FuelType | null): Map<number, number | null> {
  return fuelChains(fills, secondary).consumption;
}

/** One fuel's figures over a period (the analytics' `byFuel`, without the money). */
export type FuelFigures = {
  fuelType: FuelType;
  unit: FuelUnit;
  /** Quantity put in, in `unit`. */
  quantity: number;
  fills: number;
  /**
   * `unit` per 100 km over the full-to-full spans of this fuel that closed in the period (the
   * quantity of those spans over their distance); null when none closed.
   */
  per100km: number | null;
};

/**
 * Each of the vehicle's fuels (primary first) over the fills dated in [from, to] (ISO dates, both
 * inclusive; absent: open): quantity, number of fills and consumption. A fuel without fills still
 * has its entry (zeros, per100km null).
 */
export function fuelFigures(
  fills: FillUp[],
  fuels: { fuelType: FuelType; secondaryFuelType?: FuelType | null },
  range: { from?: string; to?: string } = {},
): FuelFigures[] {
  const secondary = fuels.secondaryFuelType ?? null;
  const inRange = (date: string) =>
    (range.from === undefined || date >= range.from) && (range.to === undefined || date <= range.to);
  const { spans } = fuelChains(fills, secondary);
  const entries: ['primary' | 'secondary', FuelType][] = [['primary', fuels.fuelType]];
  if (secondary) entries.push(['secondary', secondary]);
  return entries.map(([key, fuelType]) => {
    const own = fills.filter((f) => chainOf(f, secondary) === key && inRange(f.date));
    const closed = spans.filter((s) => s.chain === key && inRange(s.date));
    const quantity = closed.reduce((sum, s) => sum + s.quantity, 0);
    const distance = closed.reduce((sum, s) => sum + s.distance, 0);
    return {
      fuelType,
      unit: fuelUnit(fuelType),
      quantity: Math.round(own.reduce((sum, f) => sum + f.liters, 0) * 100) / 100,
      fills: own.length,
      per100km: distance > 0 ? Math.round((quantity / distance) * 10_000) / 100 : null,
    };
  });
}

/**
 * fuelFigures for every period at once (a month 'YYYY-MM', a year 'YYYY': `periodOf` maps a fill's
 * date to its period), with the chains worked out once: the same figures as fuelFigures over each
 * period's dates, in one pass. Only periods with fills have an entry.
 */
export function fuelFiguresBy(
  fills: FillUp[],
  fuels: { fuelType: FuelType; secondaryFuelType?: FuelType | null },
  periodOf: (date: string) => string,
): Map<string, FuelFigures[]> {
  const secondary = fuels.secondaryFuelType ?? null;
  const { spans } = fuelChains(fills, secondary);
  type Sums = { quantity: number; fills: number; spanQuantity: number; distance: number };
  const zero = (): Sums => ({ quantity: 0, fills: 0, spanQuantity: 0, distance: 0 });
  const periods = new Map<string, { primary: Sums; secondary: Sums }>();
  const sumsOf = (date: string) => {
    const period = periodOf(date);
    let sums = periods.get(period);
    if (!sums) {
      sums = { primary: zero(), secondary: zero() };
      periods.set(period, sums);
    }
    return sums;
  };
  for (const f of fills) {
    const sums = sumsOf(f.date)[chainOf(f, secondary)];
    sums.quantity += f.liters;
    sums.fills += 1;
  }
  for (const s of spans) {
    const sums = sumsOf(s.date)[s.chain];
    sums.spanQuantity += s.quantity;
    sums.distance += s.distance;
  }
  const entries: ['primary' | 'secondary', FuelType][] = [['primary', fuels.fuelType]];
  if (secondary) entries.push(['secondary', secondary]);
  const out = new Map<string, FuelFigures[]>();
  for (const [period, sums] of periods)
    out.set(
      period,
      entries.map(([key, fuelType]) => {
        const s = sums[key];
        return {
          fuelType,
          unit: fuelUnit(fuelType),
          quantity: Math.round(s.quantity * 100) / 100,
          fills: s.fills,
          per100km: s.distance > 0 ? Math.round((s.spanQuantity / s.distance) * 10_000) / 100 : null,
        };
      }),
    );
  return out;
}

/** Which of the vehicle's fuels a fill counts as (a fuel the vehicle does not have: its primary). */
export const fuelOfFill = (
  fill: { fuelType?: FuelType },
  fuels: { fuelType: FuelType; secondaryFuelType?: FuelType | null },
): FuelType =>
  fuels.secondaryFuelType && fill.fuelType === fuels.secondaryFuelType
    ? fuels.secondaryFuelType
    : fuels.fuelType;

/**
 * Where a fill with this date and odometer may not go: below an earlier-dated reading or above a
 * later-dated one. Returns the conflicting entry, if any.
 */
export function odometerConflict<T extends { id: number; date: string; odometer: number | null }>(
  others: T[],
  candidate: { id?: number; date: string; odometer: number | null | undefined },
): { entry: T; kind: 'below-earlier' | 'above-later' } | undefined {
  if (candidate.odometer === null || candidate.odometer === undefined) return undefined;
  for (const o of others) {
    if (o.id === candidate.id || o.odometer === null) continue;
    if (o.date < candidate.date && o.odometer > candidate.odometer)
      return { entry: o, kind: 'below-earlier' };
    if (o.date > candidate.date && o.odometer < candidate.odometer) return { entry: o, kind: 'above-later' };
  }
  return undefined;
}

type Reading = { date: string; odometer: number | null };

/**
 * odometerConflict for many new fills at once (an import): the new fills are taken in date order
 * (then odometer), each checked against the existing ones and the new ones accepted before it, as
 * if typed one by one in that order. Returns, by index in `candidates`, the reading each refused
 * fill contradicts. O(n log n), for files of tens of thousands of rows.
 */
export function odometerConflictsMany(
  existing: Reading[],
  candidates: Reading[],
): Map<number, { entry: { date: string; odometer: number }; kind: 'below-earlier' | 'above-later' }> {
  const known = existing
    .filter((e): e is { date: string; odometer: number } => e.odometer !== null)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // Lowest reading dated on or after each position, and highest dated before it.
  const suffixMin: { date: string; odometer: number }[] = new Array(known.length);
  for (let i = known.length - 1; i >= 0; i--) {
    const k = known[i] as { date: string; odometer: number };
    const next = suffixMin[i + 1];
    suffixMin[i] = next && next.odometer < k.odometer ? next : k;
  }
  const prefixMax: { date: string; odometer: number }[] = new Array(known.length);
  known.forEach((k, i) => {
    const prev = prefixMax[i - 1];
    prefixMax[i] = prev && prev.odometer > k.odometer ? prev : k;
  });
  const firstAfter = (date: string) => {
    let lo = 0;
    let hi = known.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((known[mid] as Reading).date <= date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const firstAtOrAfter = (date: string) => {
    let lo = 0;
    let hi = known.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((known[mid] as Reading).date < date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const order = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) =>
      a.c.date !== b.c.date ? (a.c.date < b.c.date ? -1 : 1) : (a.c.odometer ?? 0) - (b.c.odometer ?? 0),
    );
  const refused = new Map<
    number,
    { entry: { date: string; odometer: number }; kind: 'below-earlier' | 'above-later' }
  >();
  let acceptedBefore: { date: string; odometer: number } | undefined; // highest accepted, dated before the current date
  let acceptedToday: { date: string; odometer: number } | undefined; // highest accepted on the current date
  let today = '';
  for (const { c, i } of order) {
    if (c.date !== today) {
      if (acceptedToday && (!acceptedBefore || acceptedToday.odometer > acceptedBefore.odometer))
        acceptedBefore = acceptedToday;
      acceptedToday = undefined;
      today = c.date;
    }
    if (c.odometer === null) continue;
    const before = firstAtOrAfter(c.date) - 1;
    const earlierKnown = before >= 0 ? prefixMax[before] : undefined;
    const later = suffixMin[firstAfter(c.date)];
    if (earlierKnown && earlierKnown.odometer > c.odometer) {
      refused.set(i, { entry: earlierKnown, kind: 'below-earlier' });
    } else if (acceptedBefore && acceptedBefore.odometer > c.odometer) {
      refused.set(i, { entry: acceptedBefore, kind: 'below-earlier' });
    } else if (later && later.odometer < c.odometer) {
      refused.set(i, { entry: later, kind: 'above-later' });
    } else if (!acceptedToday || c.odometer > acceptedToday.odometer) {
      acceptedToday = { date: c.date, odometer: c.odometer };
    }
  }
  return refused;
}

const km = (n: number) => `${n.toLocaleString('en-US')} km`;
/** Why a fill-up's odometer was refused (odometerConflict), as the API says it. */
export const odometerConflictMessage = (
  odometer: number,
  entry: { date: string; odometer: number | null },
  kind: 'below-earlier' | 'above-later',
) =>
  kind === 'below-earlier'
    ? `Odometer ${km(odometer)} is lower than ${km(entry.odometer ?? 0)} on the earlier fill-up of ${entry.date}.`
    : `Odometer ${km(odometer)} is higher than ${km(entry.odometer ?? 0)} on the later fill-up of ${entry.date}.`;
