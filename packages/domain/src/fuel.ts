/** The fields the consumption rule reads. */
export type FillUp = {
  id: number;
  date: string;
  odometer: number | null;
  liters: number;
  fullTank: boolean;
  missedPrevious: boolean;
};

/** Chronological order: by date, then odometer, then id. */
export function chronological<T extends FillUp>(a: T, b: T): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.odometer !== null && b.odometer !== null && a.odometer !== b.odometer) return a.odometer - b.odometer;
  return a.id - b.id;
}

/**
 * Full-tank-to-full-tank consumption (as LubeLogger and Fuelio): on a full fill, the litres of every
 * fill since the previous full fill (this one included) over the distance since it, in L/100km.
 * Null on partial fills, the first fill, a fill marked missedPrevious, and when odometers are missing.
 */
export function consumptionByEntry(fills: FillUp[]): Map<number, number | null> {
  const result = new Map<number, number | null>();
  let lastFullOdometer: number | null = null;
  let litersSince = 0;
  for (const f of [...fills].sort(chronological)) {
    if (f.missedPrevious) {
      result.set(f.id, null);
      lastFullOdometer = f.fullTank ? f.odometer : null;
      litersSince = 0;
      continue;
    }
    litersSince += f.liters;
    if (!f.fullTank) {
      result.set(f.id, null);
      continue;
    }
    const distance = lastFullOdometer !== null && f.odometer !== null ? f.odometer - lastFullOdometer : 0;
    result.set(f.id, distance > 0 ? Math.round((litersSince / distance) * 10_000) / 100 : null);
    lastFullOdometer = f.odometer;
    litersSince = 0;
  }
  return result;
}

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
