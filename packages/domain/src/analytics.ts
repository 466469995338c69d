import { z } from 'zod';
import { FuelType } from './enums.js';
import { Currency } from './money-schemas.js';
import { PageLimit } from './paging.js';
import { OwnOnlyQuery } from './sharing.js';

const money = z.number();
/**
 * The currency of an answer's amounts (issue 50): the one asked for (`?currency=`), else the reader's.
 * Always sent by the server (optional in the type only, so code that builds totals by hand needs no
 * change). A user or admin analytics row whose amounts had no known rate to it keeps its owner's
 * currency, and says so.
 */
const currency = Currency.optional();

/** `?currency=`: the currency to answer in (default: the reader's; admin: the instance's). */
export const AnalyticsCurrencyQuery = z.object({ currency: Currency.optional() });

export const CostTotals = z.object({
  totalFuelLiters: z.number(),
  totalFuelCost: money,
  totalExpensesCost: money,
  totalInsuranceCost: money,
  totalRevisionCost: money,
  totalCost: money,
  currency,
});
export type CostTotals = z.infer<typeof CostTotals>;

/**
 * One of a vehicle's fuels over a period (issue 51): the quantity put in (in `unit`: L, kg of CNG,
 * kWh), what it cost (in the answer's currency), how many fills, and `unit` per 100 km over the
 * full-to-full spans of that fuel that closed in the period (null: none). The distance is the
 * odometer's (all driving, whatever the fuel) unless the fills carry distanceOnThisFuel.
 */
export const FuelSplit = z.object({
  fuelType: FuelType,
  unit: z.enum(['L', 'kg', 'kWh']),
  quantity: z.number(),
  cost: money,
  fills: z.number().int(),
  per100km: z.number().nullable(),
});
export type FuelSplit = z.infer<typeof FuelSplit>;
/**
 * Each of the vehicle's fuels, its primary first (a single-fuel vehicle: one entry). Always sent by
 * the server on /total and /yearly; optional in the type only so code that builds totals by hand
 * needs no change.
 */
const byFuel = z.array(FuelSplit).optional();
/** One fuel of one vehicle-month row of the user and admin analytics (FuelSplit without per100km). */
export const FuelMonthSplit = FuelSplit.omit({ per100km: true });
export type FuelMonthSplit = z.infer<typeof FuelMonthSplit>;

/** One month of one vehicle's costs. `id` is the month as yyyymm. */
export const MonthlyAnalytics = CostTotals.extend({
  id: z.number().int(),
  monthDate: z.string(),
  /** The month's split by fuel (issue 51): each of the vehicle's fuels over the fills of that month. */
  byFuel,
});
export type MonthlyAnalytics = z.infer<typeof MonthlyAnalytics>;

/** All-time totals; costPerKm is null while the distance driven is unknown. */
export const AllTimeTotals = CostTotals.extend({
  totalKm: z.number().int(),
  costPerKm: z.number().nullable(),
  byFuel,
});
export type AllTimeTotals = z.infer<typeof AllTimeTotals>;

/** One year of one vehicle's costs, split by fuel. */
export const YearTotals = CostTotals.extend({ byFuel });
export type YearTotals = z.infer<typeof YearTotals>;
export const YearlyAnalytics = z.record(z.string(), YearTotals);
export type YearlyAnalytics = z.infer<typeof YearlyAnalytics>;

/** A vehicle-month row of the user and admin analytics. */
export const AnalyticsRow = z.object({
  vehicleId: z.number().int(),
  vehicleMake: z.string(),
  vehicleModel: z.string(),
  ownerUsername: z.string(),
  monthDate: z.string(),
  totalCost: money,
  totalFuelCost: money,
  totalExpensesCost: money,
  totalInsuranceCost: money,
  totalRevisionCost: money,
  currency,
  /**
   * The row's fuel cost split by fuel (issue 51): one entry per fuel with fills that month (its
   * vehicle's primary first; none: []), cost in the row's currency. No per100km: the full-to-full
   * chains are the vehicle's (its /recompute, /yearly and /total carry them).
   */
  byFuel: z.array(FuelMonthSplit).optional(),
});
export type AnalyticsRow = z.infer<typeof AnalyticsRow>;

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use the month format YYYY-MM.');
/**
 * One month of every vehicle's costs added up (GET /api/analytics/admin/months, issue 54), in
 * `currency`: the admin's global totals, read from a rollup kept across all cars. A month's sums in
 * a currency without a known rate to the answer's stay in their own, in a row of their own.
 */
export const GlobalMonth = CostTotals.extend({ monthDate: z.string() });
export type GlobalMonth = z.infer<typeof GlobalMonth>;

/**
 * /api/analytics/admin/filter and /api/analytics/user answer a car-month per row (issue 54): at most
 * CAR_MONTHS_CAP car-months without `limit` (the whole of today's instances and fleets), `limit`
 * (1-CAR_MONTHS_PAGE_MAX) asks for a page, and X-Next-Cursor / Link rel="next" say where the next one
 * starts. A car-month whose sums are in two currencies without a rate between them is two rows of one page.
 */
export const CAR_MONTHS_CAP = 10_000;
export const CAR_MONTHS_PAGE_MAX = 1_000;

/** The car-months' cursor: `<YYYY-MM>_<vehicle id>` of a page's last car-month (newest month first, then by vehicle). */
export const MonthVehicleCursor = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])_[1-9]\d{0,9}$/, 'Use the cursor of the previous page.')
  .refine((s) => Number(s.split('_')[1]) <= 2_147_483_647, 'Use the cursor of the previous page.');
/** A page of car-months: its size and where it starts. */
const CarMonthsPage = {
  limit: PageLimit(CAR_MONTHS_PAGE_MAX).optional(),
  cursor: MonthVehicleCursor.optional(),
};

/** /api/analytics/user: only own vehicles or all reached, the answer's currency and a page of car-months. */
export const UserAnalyticsQuery = OwnOnlyQuery.extend({ ...AnalyticsCurrencyQuery.shape, ...CarMonthsPage });

const AdminRange = z.object({
  start: Month.optional(),
  end: Month.optional(),
  currency: Currency.optional(),
});
const startNotAfterEnd = (q: { start?: string; end?: string }) => !q.start || !q.end || q.start <= q.end;
const startAfterEnd = { message: 'Start month must not be after end month.', path: ['start'] };

/** /api/analytics/admin/months: a range of months and the answer's currency. */
export const AdminMonthsQuery = AdminRange.refine(startNotAfterEnd, startAfterEnd);

/** /api/analytics/admin/filter: the same, and a page of its car-months. */
export const AdminAnalyticsQuery = AdminRange.extend(CarMonthsPage).refine(startNotAfterEnd, startAfterEnd);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 'YYYY-MM-01' → 'Jan 2025': month labels are US English whatever the language (spec §9). */
export function monthLabel(monthDate: string): string {
  const [y, m] = monthDate.split('-');
  return `${MONTHS[Number(m) - 1] ?? '?'} ${y}`;
}
