import { type CurrencyCode, convertMoney, type RateSourceCode } from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { fieldError } from '../../lib/errors.js';

/**
 * The rate from one currency to another on a day (the fx module's, given by the app), read on `db`:
 * the write's own transaction (the embedded database has one connection, which it holds).
 */
export type RateLookup = (
  db: Executor,
  from: CurrencyCode,
  to: CurrencyCode,
  date: string,
) => Promise<{ rate: number; date: string; source: RateSourceCode } | undefined>;

/** The largest amount a money column holds (numeric(12,2)), as the domain's Money allows. */
const MONEY_MAX = 9_999_999_999.99;

/** A record's money fields as a client may send them (each optional). */
export type SentMoney = {
  currency?: CurrencyCode | null;
  exchangeRate?: number | null;
  rateDate?: string | null;
  rateSource?: RateSourceCode | null;
};

/** A record's money fields as stored (see recordMoney in the schema). */
export type StoredMoney = {
  currency: CurrencyCode;
  exchangeRate: number | null;
  rateDate: string | null;
  rateSource: RateSourceCode;
  rateCurrency: CurrencyCode;
};

export type PricingContext = {
  /** The vehicle owner's currency now: a record's rate converts into it. */
  ownerCurrency: CurrencyCode;
  /** The record's day: the rate is that day's (or the previous business day's). */
  date: string;
  /** The record's amount; null for a record without one (a renewal without a price): no rate is then required. */
  amount: number | null;
  /** The record as it was (an update), with its day: its rate is kept while nothing it depends on changed. */
  current?: StoredMoney & { date: string };
  /** Where a record's money came from when the client sends a rate without a source. */
  sentRateSource?: RateSourceCode;
};

/**
 * A record's currency and exchange rate to its owner's currency (issue 50). The currency is the one
 * sent, else the record's own (an update from a client that knows no currencies, such as an offline
 * edit queued before them, keeps it), else the owner's. In the owner's currency the rate is 1. Else a
 * rate the client sent is kept (MANUAL unless it names its source); else an update keeps the record's
 * rate while its currency, day and owner currency are unchanged (a MANUAL rate is not replaced by a
 * reference one); else the reference rate of the record's day. With none known, an amount is refused
 * 400 on `exchangeRate`, so the form asks the user for the rate they paid at.
 */
export async function priceRecord(
  sent: SentMoney,
  ctx: PricingContext,
  lookup: (from: CurrencyCode, to: CurrencyCode, date: string) => ReturnType<RateLookup>,
): Promise<StoredMoney> {
  const { ownerCurrency, date, current, amount } = ctx;
  const currency = sent.currency ?? current?.currency ?? ownerCurrency;
  const priced = (exchangeRate: number | null, rateDate: string | null, rateSource: RateSourceCode) => {
    // The amount in the owner's currency is summed into columns sized for money (numeric(12,2)).
    if (amount !== null && exchangeRate !== null && convertMoney(amount, exchangeRate) > MONEY_MAX) {
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'exchangeRate',
        `At this rate the amount would be more than ${MONEY_MAX} ${ownerCurrency}.`,
      );
    }
    return { currency, exchangeRate, rateDate, rateSource, rateCurrency: ownerCurrency };
  };
  // A currency in itself is 1 on every day (as the fx rules say: source ECB).
  if (currency === ownerCurrency) return priced(1, date, 'ECB');
  // A client that edits a record sends back the reference rate it read (source ECB): that is not a
  // rate the user chose, so it follows the record's day and currency like an unsent one.
  const echoed =
    current !== undefined &&
    current.rateSource === 'ECB' &&
    sent.exchangeRate === current.exchangeRate &&
    (sent.rateSource ?? 'ECB') === 'ECB';
  if (sent.exchangeRate != null && !echoed) {
    return priced(
      sent.exchangeRate,
      sent.rateDate ?? date,
      sent.rateSource ?? ctx.sentRateSource ?? 'MANUAL',
    );
  }
  if (
    current &&
    current.exchangeRate !== null &&
    current.currency === currency &&
    current.rateCurrency === ownerCurrency &&
    current.date === date
  ) {
    return priced(current.exchangeRate, current.rateDate, current.rateSource);
  }
  const rate = await lookup(currency, ownerCurrency, date);
  if (rate) return priced(rate.rate, rate.date, rate.source);
  if (amount === null) return priced(null, null, 'ECB');
  throw fieldError(
    'VALIDATION_FAILED',
    400,
    'exchangeRate',
    `No exchange rate from ${currency} to ${ownerCurrency} is known for ${date}. Enter the rate you paid at (${ownerCurrency} for 1 ${currency}).`,
  );
}
