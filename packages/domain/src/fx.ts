// No zod here: the rules that pick a dated exchange rate (the zod schemas are in money-schemas.ts).

/**
 * Where a record's exchange rate came from: the ECB's reference rates, typed by a person, read from
 * an imported file, or printed on the receipt.
 */
export const RATE_SOURCES = ['ECB', 'MANUAL', 'IMPORT', 'RECEIPT'] as const;
export type RateSourceCode = (typeof RATE_SOURCES)[number];

/** The sources the server's table of daily reference rates holds (the others belong to records). */
export const REFERENCE_RATE_SOURCES = ['ECB', 'MANUAL'] as const;
export type ReferenceRateSource = (typeof REFERENCE_RATE_SOURCES)[number];

/** Reference rates are units of a currency per one euro (the ECB's base); other pairs cross through it. */
export const FX_BASE_CURRENCY = 'EUR';

/**
 * How far back a day without a rate (weekend, TARGET holiday, today before the ECB publishes) looks for
 * the last business day that has one. The ECB's longest closure is Good Friday to Easter Monday (four
 * days); ten leave room for a few days the server could not fetch, and no more: a rate from weeks
 * before is not that day's rate, and the form then asks for one.
 */
export const FX_MAX_CARRY_DAYS = 10;

/** One day's reference rate of a currency: `rate` units of it per euro. */
export type EuroRate = { date: string; rate: number; source: ReferenceRateSource };

/**
 * The rate for a day: `date` is the day the rate is from, `carried` says it is an earlier business
 * day's (the asked day had none: a weekend or holiday).
 */
export type DatedRate = { rate: number; date: string; source: ReferenceRateSource; carried: boolean };

const DAY_MS = 86_400_000;
const dayNumber = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;

/** The ISO date `days` after (negative: before) `isoDate`. */
export function addDays(isoDate: string, days: number): string {
  return new Date((dayNumber(isoDate) + days) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A currency's euro rate on `date`: that day's, else the latest earlier day's within
 * FX_MAX_CARRY_DAYS (the previous business day that has one), marked carried. On a day with both,
 * the ECB's reference rate wins over a MANUAL one: MANUAL rates fill what the ECB does not publish
 * (MDL). `series` may be in any order.
 */
export function euroRateOn(
  series: readonly EuroRate[],
  date: string,
  maxCarryDays: number = FX_MAX_CARRY_DAYS,
): DatedRate | undefined {
  const earliest = addDays(date, -maxCarryDays);
  let best: EuroRate | undefined;
  for (const r of series) {
    if (r.date > date || r.date < earliest || !(r.rate > 0)) continue;
    if (!best || r.date > best.date || (r.date === best.date && r.source === 'ECB')) best = r;
  }
  return best && { rate: best.rate, date: best.date, source: best.source, carried: best.date !== date };
}

/** Ten significant digits: the ECB publishes five or six, so the rest is binary noise (1/3 × 3). */
export const roundRate = (rate: number): number => Number(rate.toPrecision(10));

/** Units of `to` for one unit of `from`, given each one's units per euro. */
export const crossRate = (fromPerEuro: number, toPerEuro: number): number =>
  roundRate(toPerEuro / fromPerEuro);

/**
 * The rate from one currency to another on `date` through the euro: each side's euro rate on that
 * day (or the previous business day that has one), crossed. EUR is 1 on every day. The answer's
 * `date` is the older of the two rates' days, its source MANUAL when either side is, and it is
 * `carried` when that day is not the day asked. Undefined when either side has no rate.
 */
export function exchangeRateOn(
  pair: { from: string; to: string },
  series: { from: readonly EuroRate[]; to: readonly EuroRate[] },
  date: string,
): DatedRate | undefined {
  // A currency in itself is 1 on every day, needing no published rate (MDL to MDL too).
  if (pair.from === pair.to) return { rate: 1, date, source: 'ECB', carried: false };
  const euro: DatedRate = { rate: 1, date, source: 'ECB', carried: false };
  const from = pair.from === FX_BASE_CURRENCY ? euro : euroRateOn(series.from, date);
  const to = pair.to === FX_BASE_CURRENCY ? euro : euroRateOn(series.to, date);
  if (!from || !to) return undefined;
  // ISO dates order as text: the older of the two.
  const [rateDate = date] = [from.date, to.date].sort();
  return {
    rate: crossRate(from.rate, to.rate),
    date: rateDate,
    source: from.source === 'MANUAL' || to.source === 'MANUAL' ? 'MANUAL' : 'ECB',
    carried: rateDate !== date,
  };
}
