import { z } from 'zod';
import { IsoDate } from './common.js';
import { RATE_SOURCES, REFERENCE_RATE_SOURCES } from './fx.js';
import { CURRENCIES } from './money.js';
import { CONSUMPTION_UNITS, DISTANCE_UNITS, VOLUME_UNITS } from './units.js';

// The API's names for money and units (a contract: issue 50). The rules are in the zod-free money.ts,
// units.ts, fx.ts and preferences.ts; import.ts's own DistanceUnit/VolumeUnit name a file's columns.

/** ISO 4217 code of a user's, a record's or a listing's currency. */
export const Currency = z.enum(CURRENCIES);
export type Currency = z.infer<typeof Currency>;
/** `distanceUnit` of a user: `km` | `mi`. */
export const UnitOfDistance = z.enum(DISTANCE_UNITS);
/** `volumeUnit` of a user: `L` | `USGAL` | `UKGAL`. */
export const UnitOfVolume = z.enum(VOLUME_UNITS);
/** `consumptionUnit` of a user: `L_100KM` | `KM_L` | `MPG_US` | `MPG_UK`. */
export const UnitOfConsumption = z.enum(CONSUMPTION_UNITS);
/** `rateSource` of a record's exchange rate. */
export const RateSource = z.enum(RATE_SOURCES);
export type RateSource = z.infer<typeof RateSource>;

/** GET /api/fx/rate: the day defaults to today (UTC). */
export const FxRateQuery = z.object({ from: Currency, to: Currency, date: IsoDate.optional() });
export type FxRateQuery = z.infer<typeof FxRateQuery>;

export const FxRate = z.object({
  from: Currency,
  to: Currency,
  /** Units of `to` for one unit of `from`. */
  rate: z.number().positive(),
  /** The day the rate is from (an earlier business day when the day asked had none). */
  date: z.string(),
  source: z.enum(REFERENCE_RATE_SOURCES),
  /** True when `date` is an earlier business day's than the day asked (weekend or holiday). */
  carried: z.boolean(),
});
export type FxRate = z.infer<typeof FxRate>;

/**
 * The fields a record with an amount may send (issue 50): its currency (default: the vehicle owner's)
 * and, for a currency other than the owner's, the rate it was paid at: `exchangeRate` units of the
 * WRITER's currency for one of the record's (what their form shows; for a record in the writer's own
 * currency, or a rate sent back unchanged, units of the owner's), from `rateDate`, by `rateSource`
 * (MANUAL when a rate is sent without one). The server stores and answers it to the owner's currency
 * (a shared car's editor paying in another currency: converted at the day's reference rate). Without
 * a rate the server takes the reference rate of the record's day.
 */
export const RecordMoneyFields = {
  currency: Currency.optional(),
  exchangeRate: z
    .number()
    .positive('The exchange rate must be more than 0.')
    .max(1_000_000, 'Too large.')
    .optional(),
  rateDate: IsoDate.optional(),
  rateSource: RateSource.optional(),
};

/**
 * The same fields as a record answers them: always sent by the server (optional in the type only, so
 * code that builds records by hand needs no change). `exchangeRate` is null only on a record without
 * an amount (a renewal without a price) in a currency that had no known rate.
 */
export const RecordMoney = {
  currency: Currency.optional(),
  exchangeRate: z.number().nullable().optional(),
  rateDate: z.string().nullable().optional(),
  rateSource: RateSource.optional(),
};
