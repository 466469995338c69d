import { z } from 'zod';
import { IsoDate, Money, Text } from './common.js';
import { EXPENSE_TYPES } from './constants.js';
import { FuelType } from './enums.js';
import { RecordMoney, RecordMoneyFields } from './money-schemas.js';

const vehicleId = z.number().int().positive();
const id = z.number().int();
/**
 * Records carry a `version`, bumped on every change. An update may send the version it was based on
 * (the offline queue always does): a stale one gets 409 VERSION_CONFLICT with the current record in
 * `details`. Without it the update applies as before. Optional in the response type only so code
 * that builds records by hand needs no change; the server always sends it.
 */
const version = z.number().int().min(0);
const baseVersion = { version: version.optional() };
/**
 * The username of who wrote the record (the owner, or an editor of a shared vehicle); null when
 * unknown (written before sharing existed, or the account is gone). Always sent by the server.
 */
const createdBy = z.string().nullable().optional();

// ── Insurance ───────────────────────────────────────────────────────────────
// ── Paging a record list ────────────────────────────────────────────────────
/**
 * Where a page of a record list ends: opaque to clients (pass on what the server sent), written
 * `<date>_<id>` of the page's last record, the key lists are sorted by (newest first). A date that is
 * no day or an id past int4 is refused here (400), never cast by the database (500).
 */
export const RecordCursor = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}_\d{1,10}$/, 'Use the cursor of the previous page.')
  .refine((s) => {
    const [date = '', id = ''] = s.split('_');
    return IsoDate.safeParse(date).success && Number(id) <= 2_147_483_647;
  }, 'Use the cursor of the previous page.');

/**
 * GET /api/{kind}/vehicle/{vehicleId} without `limit` answers at most this many records (newest first):
 * every car of today's sizes whole, as before paging; past it the answer says where to go on.
 */
export const VEHICLE_LIST_CAP = 10_000;
/** The largest page a client may ask of a vehicle's records. */
export const VEHICLE_PAGE_MAX = 500;

/**
 * A vehicle's records a page at a time (issue 54): `limit` records after `cursor`. The answer stays a
 * bare array; when more follow, the `X-Next-Cursor` header holds the cursor of the next page and
 * `Link` its URL (rel="next"). Without either parameter: the first VEHICLE_LIST_CAP records.
 */
export const VehicleRecordsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(VEHICLE_PAGE_MAX).optional(),
  cursor: RecordCursor.optional(),
});
export type VehicleRecordsQuery = z.infer<typeof VehicleRecordsQuery>;

const InsuranceFields = z.object({
  provider: z.string().trim().min(1, 'Provider is required.').max(100, 'At most 100 characters.'),
  policyNumber: Text(50).default(''),
  coverageType: Text(50).default(''),
  startDate: IsoDate,
  endDate: IsoDate,
  price: Money,
  reminderEnabled: z.boolean().default(true),
  ...RecordMoneyFields,
});
const endNotBeforeStart = <T extends { startDate: string; endDate: string }>(v: T) =>
  v.endDate >= v.startDate;
const endMessage = { message: 'End date cannot be before the start date.', path: ['endDate'] };

export const InsuranceBody = InsuranceFields.extend({ vehicleId }).refine(endNotBeforeStart, endMessage);
export type InsuranceBody = z.infer<typeof InsuranceBody>;
export const InsuranceUpdateBody = InsuranceFields.extend({
  vehicleId: vehicleId.optional(),
  ...baseVersion,
}).refine(endNotBeforeStart, endMessage);
export const Insurance = InsuranceFields.extend({
  id,
  vehicleId: id,
  policyNumber: z.string(),
  coverageType: z.string(),
  ...RecordMoney,
  version: version.optional(),
  createdBy,
});
export type Insurance = z.infer<typeof Insurance>;

// ── Expenses ────────────────────────────────────────────────────────────────
export const ExpenseType = z.enum(EXPENSE_TYPES);
export type ExpenseType = z.infer<typeof ExpenseType>;

const ExpenseFields = z.object({
  date: IsoDate,
  expenseType: ExpenseType,
  amount: Money,
  description: Text(500).default(''),
  ...RecordMoneyFields,
});
export const ExpenseBody = ExpenseFields.extend({ vehicleId });
export type ExpenseBody = z.infer<typeof ExpenseBody>;
export const ExpenseUpdateBody = ExpenseFields.extend({ vehicleId: vehicleId.optional(), ...baseVersion });
export const Expense = ExpenseFields.extend({
  id,
  vehicleId: id,
  description: z.string(),
  ...RecordMoney,
  version: version.optional(),
  createdBy,
});
export type Expense = z.infer<typeof Expense>;

// ── Fuel ────────────────────────────────────────────────────────────────────
const FuelFields = z.object({
  /**
   * Which of the vehicle's fuels this fill is (issue 51): its `fuelType` or `secondaryFuelType`;
   * another one is refused (400 on fuelType). Absent: the vehicle's primary fuel on a create,
   * unchanged on an update.
   */
  fuelType: FuelType.optional(),
  /** The quantity, in the fuel's unit (fuelUnit): litres, kg of CNG, kWh of electricity. */
  liters: z.number().gt(0, 'Litres must be more than 0.').max(10_000, 'Too large.'),
  fuelPrice: Money,
  pricePerLiter: z.number().min(0, 'Must be 0 or more.').max(1000, 'Too large.').nullish(),
  odometer: z.number().int('Odometer must be a whole number of km.').min(0, 'Must be 0 or more.').nullish(),
  date: IsoDate,
  fullTank: z.boolean().default(true),
  missedPrevious: z.boolean().default(false),
  /**
   * The km driven on this fuel since the previous fill of the same fuel (a trip counter; issue 51).
   * When every fill of a full-to-full span carries it, their sum replaces the odometer's distance
   * in that span's consumption. null or absent: not known.
   */
  distanceOnThisFuel: z.number().gt(0, 'Distance must be more than 0.').max(100_000, 'Too large.').nullish(),
  ...RecordMoneyFields,
});
export const FuelBody = FuelFields.extend({ vehicleId });
export type FuelBody = z.infer<typeof FuelBody>;
export const FuelUpdateBody = FuelFields.extend({ vehicleId: vehicleId.optional(), ...baseVersion });
export const FuelEntry = FuelFields.extend({
  id,
  vehicleId: id,
  fuelType: FuelType,
  /** Always sent by the server (null: not given); optional in the type for code that builds fills by hand. */
  distanceOnThisFuel: z.number().nullable().optional(),
  pricePerLiter: z.number().nullable(),
  odometer: z.number().int().nullable(),
  consumptionPer100km: z.number().nullable(),
  ...RecordMoney,
  version: version.optional(),
  createdBy,
});
export type FuelEntry = z.infer<typeof FuelEntry>;
export const FuelListQuery = VehicleRecordsQuery.extend({ from: IsoDate.optional(), to: IsoDate.optional() });

// ── Revisions ───────────────────────────────────────────────────────────────
const RevisionFields = z.object({
  date: IsoDate,
  km: z.number().int('Km must be a whole number.').min(0, 'Must be 0 or more.'),
  price: Money,
  description: Text(500).default(''),
  reminderEnabled: z.boolean().default(true),
  ...RecordMoneyFields,
});
export const RevisionBody = RevisionFields.extend({ vehicleId });
export type RevisionBody = z.infer<typeof RevisionBody>;
export const RevisionUpdateBody = RevisionFields.extend({ vehicleId: vehicleId.optional(), ...baseVersion });
export const Revision = RevisionFields.extend({
  id,
  vehicleId: id,
  description: z.string(),
  manualReminderDate: z.string().nullable(),
  ...RecordMoney,
  version: version.optional(),
  createdBy,
});
export type Revision = z.infer<typeof Revision>;
export const ManualReminderBody = z.object({ reminderDate: IsoDate });

// ── All-vehicles lists ──────────────────────────────────────────────────────
export const RECORD_PAGE_MAX = 100;

/**
 * GET /api/{insurance,expenses,fuel-consumptions,revision}: the records of all the caller's vehicles
 * (every vehicle for an admin), newest first, a page at a time. `cursor` is the previous page's
 * `nextCursor`.
 */
export const RecordPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(RECORD_PAGE_MAX).default(30),
  cursor: RecordCursor.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
  /** 'true': only the records of the caller's own vehicles, not of those shared with them. */
  own: z.enum(['true', 'false']).optional(),
});
export type RecordPageQuery = z.infer<typeof RecordPageQuery>;

/** A page of records; `nextCursor` is null on the last page. */
export const recordPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export type RecordPage<T> = { items: T[]; nextCursor: string | null };
