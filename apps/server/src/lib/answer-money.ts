import type { CurrencyCode } from '@evdra/domain';

/**
 * The currency an answer is in, and the rate to it of each currency the sums may be in (units of
 * `currency` for one unit; `currency` itself 1). Made by the analytics for a reader; the report
 * prints a reader's records at the same rates.
 */
export type AnswerMoney = { currency: CurrencyCode; rates: ReadonlyMap<CurrencyCode, number> };
