import { z } from 'zod';
import { IsoDate } from './common.js';
import { FuelType } from './enums.js';
import { Currency } from './money-schemas.js';
import { ExpenseType } from './records.js';

/** An import file (CSV, or a ZIP holding CSVs) may be at most this large. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Records of each kind shown in a preview's sample. */
export const IMPORT_SAMPLE_SIZE = 20;

export const IMPORT_FORMATS = ['evdra', 'lubelogger', 'fuelio', 'drivvo', 'fuelly', 'generic'] as const;
export const ImportFormat = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormat>;

/**
 * The fields a generic CSV's columns can be mapped to. A row with litres becomes a fill-up; one
 * without litres but with an amount becomes an expense (of `expenseType` when that column holds one).
 */
export const GENERIC_FIELDS = [
  'date',
  'odometer',
  'liters',
  'fuelPrice',
  'pricePerLiter',
  'fullTank',
  'missedPrevious',
  'amount',
  'expenseType',
  'description',
] as const;
export const GenericField = z.enum(GENERIC_FIELDS);
export type GenericField = z.infer<typeof GenericField>;

export const DistanceUnit = z.enum(['km', 'mi']);
export const VolumeUnit = z.enum(['l', 'usgal', 'impgal']);
export type DistanceUnit = z.infer<typeof DistanceUnit>;
export type VolumeUnit = z.infer<typeof VolumeUnit>;
export const ImportUnits = z.object({ distance: DistanceUnit, volume: VolumeUnit });
export type ImportUnits = z.infer<typeof ImportUnits>;

/**
 * Why an import's units were guessed as they were: `fixed` this app's own export (always km and
 * litres, not a choice), `file` the file says (Fuelio's and Drivvo's headers, a generic CSV's
 * "Miles" column), `format` the app always writes these (Fuelly: miles and US gallons), `currency`
 * the costs show `$` (LubeLogger, whose files never say), `default` nothing tells: km and litres.
 */
export const ImportUnitsReason = z.enum(['fixed', 'file', 'format', 'currency', 'default']);
export type ImportUnitsReason = z.infer<typeof ImportUnitsReason>;
export const ImportUnitsGuess = ImportUnits.extend({ reason: ImportUnitsReason });
export type ImportUnitsGuess = z.infer<typeof ImportUnitsGuess>;

/**
 * Why an import's amounts are in the currency they are read in (issue 50): `file` the file names one
 * currency for every amount (a `€` or `lei` in its cells, a `(RON)` in a header, a currency column,
 * this app's own export); `rows` its rows name their own, in several currencies or with some rows
 * naming none; `dollar` only `$` signs, which a default (en-US) LubeLogger install writes whatever the
 * money was, so they decide nothing: the preview asks (US dollars may be the answer); `none` the file
 * names no currency (Fuelio's and Drivvo's
 * exports have no currency field): the preview asks.
 */
export const ImportCurrencyReason = z.enum(['file', 'rows', 'dollar', 'none']);
export type ImportCurrencyReason = z.infer<typeof ImportCurrencyReason>;
export const ImportCurrencyGuess = z.object({
  reason: ImportCurrencyReason,
  /** The currencies the file names, the most used first. */
  found: z.array(Currency),
  /** The guess for the records whose currency the file does not name (null: nothing tells). */
  currency: Currency.nullable(),
  /** Records whose currency the file does not name: they take the preview's `currency`. */
  unstated: z.number().int(),
});
export type ImportCurrencyGuess = z.infer<typeof ImportCurrencyGuess>;

/**
 * The optional `mapping` part of an import: for a generic CSV, which column (by header name) holds
 * each field; for any format but this app's own, the units of its distances and volumes (what the
 * user chose in the preview; each one left out is guessed); and the currency of the amounts whose
 * currency the file does not name (default: the guess, else the user's; an amount whose currency the
 * file names keeps it). Confirm re-reads the file with them.
 */
export const ImportMapping = z.object({
  columns: z.partialRecord(GenericField, z.string().max(200).nullable()).optional(),
  units: z.object({ distance: DistanceUnit.optional(), volume: VolumeUnit.optional() }).optional(),
  currency: Currency.optional(),
});
export type ImportMapping = z.infer<typeof ImportMapping>;

export const ImportCounts = z.object({
  fuel: z.number().int(),
  expenses: z.number().int(),
  revisions: z.number().int(),
  insurance: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCounts>;

/**
 * An imported record's money (issue 50): its currency (the file's, else the one picked), and the
 * rate to the owner's currency when the file gives one (this app's own export), stored with
 * `rateSource: IMPORT`; without one the server takes the day's reference rate, as for a typed record.
 */
const ImportMoney = {
  currency: Currency.optional(),
  exchangeRate: z.number().positive().optional(),
  rateDate: IsoDate.optional(),
};

/** Records as they would be stored (this app's field names, km, litres), without ids. */
export const ImportFuel = z.object({
  ...ImportMoney,
  date: IsoDate,
  odometer: z.number().int().nullable(),
  liters: z.number(),
  fuelPrice: z.number(),
  pricePerLiter: z.number().nullable(),
  fuelType: FuelType,
  fullTank: z.boolean(),
  missedPrevious: z.boolean(),
});
export type ImportFuel = z.infer<typeof ImportFuel>;
export const ImportExpense = z.object({
  ...ImportMoney,
  date: IsoDate,
  expenseType: ExpenseType,
  amount: z.number(),
  description: z.string(),
});
export type ImportExpense = z.infer<typeof ImportExpense>;
export const ImportRevision = z.object({
  ...ImportMoney,
  date: IsoDate,
  km: z.number().int(),
  price: z.number(),
  description: z.string(),
  reminderEnabled: z.boolean(),
  manualReminderDate: z.string().nullable(),
});
export type ImportRevision = z.infer<typeof ImportRevision>;
export const ImportInsurance = z.object({
  ...ImportMoney,
  provider: z.string(),
  policyNumber: z.string(),
  coverageType: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  price: z.number(),
  reminderEnabled: z.boolean(),
});
export type ImportInsurance = z.infer<typeof ImportInsurance>;

/** What a warning or a row error is about, for clients that word it themselves; `message` is in the user's language. */
export const ImportMessageCode = z.enum([
  'NO_DATE',
  'NO_VOLUME',
  'NO_AMOUNT',
  'NO_VOLUME_OR_AMOUNT',
  'NO_DATE_COLUMN',
  'UNKNOWN_KIND',
  'INVALID_VALUE',
  'ODOMETER_BELOW_EARLIER',
  'ODOMETER_ABOVE_LATER',
  'NO_COST',
  'NO_ODOMETER',
  'SERVICE_AS_EXPENSE',
  'NO_ODOMETER_COLUMN',
  'DOLLAR_UNITS',
  'SEVERAL_VEHICLES',
  'NO_RATE',
]);
export type ImportMessageCode = z.infer<typeof ImportMessageCode>;
export const ImportWarning = z.object({
  row: z.number().int(),
  field: z.string(),
  code: ImportMessageCode,
  message: z.string(),
});
export type ImportWarning = z.infer<typeof ImportWarning>;
export const ImportRowError = z.object({
  row: z.number().int(),
  code: ImportMessageCode,
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

/** What a generic CSV's columns were read as (proposed by header words, or as the user sent). */
export const ImportColumnMapping = z.object({
  headers: z.array(z.string()),
  columns: z.partialRecord(GenericField, z.string().nullable()),
});
export type ImportColumnMapping = z.infer<typeof ImportColumnMapping>;

/**
 * POST /api/import/preview/{vehicleId}: what the file holds and what an import would store; saves
 * nothing. `counts` are the records that would be added (duplicates and rows in error left out);
 * `skipped` counts rows left out for any reason (duplicates included); rows are the file's line
 * numbers (1-based, header included).
 */
export const ImportPreview = z.object({
  format: ImportFormat,
  counts: ImportCounts,
  skipped: z.number().int(),
  duplicates: z.number().int(),
  warnings: z.array(ImportWarning),
  errors: z.array(ImportRowError),
  sample: z.object({
    fuel: z.array(ImportFuel),
    expenses: z.array(ImportExpense),
    revisions: z.array(ImportRevision),
    insurance: z.array(ImportInsurance),
  }),
  /** The units the figures above were read in: the ones sent in `mapping.units`, else the guess. */
  units: ImportUnits,
  /** What the file's units were guessed to be, and why; a client pre-sets its units picker with it. */
  unitsGuess: ImportUnitsGuess,
  /** The currency of the records whose currency the file does not name: `mapping.currency`, else the guess's, else the user's. */
  currency: Currency,
  /** What the file says of its currency; a client shows the one found, or asks when `unstated` > 0. */
  currencyGuess: ImportCurrencyGuess,
  mapping: ImportColumnMapping.nullable(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

/** POST /api/import/confirm/{vehicleId}: what was added. */
export const ImportResult = z.object({
  format: ImportFormat,
  counts: ImportCounts,
  skipped: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(ImportRowError),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** DELETE /api/account */
export const DeleteAccountBody = z.object({
  password: z.string().min(1, 'Enter your password.').max(128, 'At most 128 characters.'),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;
