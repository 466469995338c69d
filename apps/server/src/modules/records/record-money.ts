import { type CurrencyCode, convertMoney, type RateSourceCode, roundRate } from '@evdra/domain';
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
  /**
   * The currency of the user who writes the record (default: the owner's): a rate they send is in it
   * (an editor of a shared car types the rate to their own currency, the one their form shows).
   */
  writerCurrency?: CurrencyCode;
};

/**
 * A record's currency and exchange rate to its owner's currency (issue 50). The currency is the one
 * sent, else the record's own (an update from a client that knows no currencies, such as an offline
 * edit queued before them, keeps it), else the owner's. In the owner's currency the rate is 1. Else a
 * rate the client sent is kept (MANUAL unless it names its source); else an update keeps the record's
 * rate while its currency, day and owner currency are unchanged (a MANUAL rate is not replaced by a
 * reference one); else the reference rate of the record's day. With none known, an amount is refused
 * 400 on `exchangeRate`, so the form asks the user for the rate they paid at.
 *
 * A sent rate is units of the WRITER's currency for one of the record's (what their form shows), except
 * a rate sent back unchanged from the record (an edit form's own value: in the record's stored rate
 * currency) and a rate for a record in the writer's own currency (1 to it: so to the owner's). The
 * stored rate is always to the owner's currency (rate_currency): a rate to another one (an editor
 * paying in euros on a lei owner's car) is converted at the reference rate between the two on the
 * record's day; with none known it is refused 400 on `exchangeRate`.
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
    const rateDate = sent.rateDate ?? date;
    const rateSource = sent.rateSource ?? ctx.sentRateSource ?? 'MANUAL';
    const unchanged = current?.currency === currency && current.exchangeRate === sent.exchangeRate;
    const sentIn = unchanged ? current.rateCurrency : (ctx.writerCurrency ?? ownerCurrency);
    if (sentIn === ownerCurrency) return priced(sent.exchangeRate, rateDate, rateSource);
    if (currency !== sentIn) {
      // To the writer's currency: times that currency's rate to the owner's on the record's day.
      const bridge = await lookup(sentIn, ownerCurrency, date);
      if (bridge) return priced(roundRate(sent.exchangeRate * bridge.rate), rateDate, rateSource);
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'exchangeRate',
        `No exchange rate from ${sentIn} to ${ownerCurrency}, the car owner's currency, is known for ${date}. Enter the rate in ${ownerCurrency} for 1 ${currency}.`,
      );
    }
    // A record in the writer's own currency is 1 to it: a rate sent for it can only be to the owner's.
    if (!unchanged) return priced(sent.exchangeRate, rateDate, rateSource);
    // Sent back unchanged, a record in the currency its owner had (rate 1) takes its reference rate.
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
  // The rate is asked in the writer's currency (a record in that currency: the owner's).
  const writer = ctx.writerCurrency ?? ownerCurrency;
  const askIn = currency === writer ? ownerCurrency : writer;
  throw fieldError(
    'VALIDATION_FAILED',
    400,
    'exchangeRate',
    `No exchange rate from ${currency} to ${ownerCurrency} is known for ${date}. Enter the rate you paid at (${askIn} for 1 ${currency}).`,
  );
}
