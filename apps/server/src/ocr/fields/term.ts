/** A policy's term: whether a start and an end are a whole number of months apart. */

/**
 * n when the period from `startIso` to `endIso` is n whole months (1 to 12, the longest first),
 * ending the day before the start's date in the last month, give or take `slackDays`; else 0.
 */
export function termMonths(startIso: string, endIso: string, slackDays = 0): number {
  const [y, m, d] = startIso.split('-').map(Number) as [number, number, number];
  const end = Date.parse(`${endIso}T00:00:00Z`);
  for (let months = 12; months >= 1; months--)
    if (Math.abs(Date.UTC(y, m - 1 + months, d - 1) - end) <= slackDays * 86_400_000) return months;
  return 0;
}

/** A policy's period is a whole number of months, give or take a day; anything else is likely a misread date. */
export const isWholeMonths = (startIso: string, endIso: string) => termMonths(startIso, endIso, 1) > 0;
