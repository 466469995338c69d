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
