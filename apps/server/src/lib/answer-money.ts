import type { CurrencyCode } from '@evdra/domain';

/**
 * The currency an answer is in, and the rate to it of each currency the sums may be in (units of
 * `currency` for one unit; `currency` itself 1). Made by the analytics for a reader; the report
 * prints a reader's records at the same rates.
 */
export type AnswerMoney = { currency: CurrencyCode; rates: ReadonlyMap<CurrencyCode, number> };

/** A rates map as text, worked out once per map (the same map is handed out while it is kept): a cache key. */
const ratesTexts = new WeakMap<ReadonlyMap<CurrencyCode, number>, string>();
export function ratesKey(rates: ReadonlyMap<CurrencyCode, number>): string {
  let text = ratesTexts.get(rates);
  if (text === undefined) {
    text = JSON.stringify([...rates].sort(([a], [b]) => a.localeCompare(b)));
    ratesTexts.set(rates, text);
  }
  return text;
}
