import { z } from 'zod';
import { isFuelPair } from './constants.js';
import { FuelType } from './enums.js';
import { Currency } from './money-schemas.js';
import { VehicleAccess } from './sharing.js';

export const VEHICLE_MIN_YEAR = 1886;
export const ENGINE_SIZE_MAX_L = 10;
export const PHOTO_MAX_WIDTH = 600;
export const PHOTO_MAX_HEIGHT = 400;
export const PHOTO_JPEG_QUALITY = 0.8;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;

const maxYear = () => new Date().getFullYear() + 1;

/** A VIN (ISO 3779): 17 letters and digits, without I, O and Q (they read as 1 and 0). */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

/**
 * An optional VIN: trimmed and upper-cased; '' or null means none (null); absent leaves it as it is
 * (on an update) or none (on a create), so a client that never sends one changes nothing.
 */
export const Vin = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(
    z.union([
      z.literal('').transform(() => null),
      z.string().regex(VIN_PATTERN, 'VIN must be 17 letters and digits, without I, O or Q.'),
    ]),
  )
  .nullish()
  .describe(
    'Optional VIN: 17 letters and digits without I, O, Q, upper-cased. "" or null: none; absent: none on a create, unchanged on an update.',
  );

/** A tank's or battery's size, in its fuel's unit (L, kg of CNG, kWh); null: not given. */
const Capacity = z
  .number()
  .gt(0, 'Capacity must be more than 0.')
  .max(10_000, 'Too large.')
  .nullish()
  .describe(
    'Litres, kg (CNG) or kWh (ELECTRIC). null: none; absent: none on a create, unchanged on an update.',
  );

/** Why a second fuel may not go with the first (undefined: it may; FUEL_PAIRS). */
export function secondaryFuelProblem(primary: FuelType, secondary: FuelType | null | undefined) {
  if (secondary === null || secondary === undefined) return undefined;
  if (secondary === primary) return 'The second fuel must differ from the first.';
  if (!isFuelPair(primary, secondary))
    return 'A second fuel goes only as Petrol + LPG, Petrol + CNG, Petrol + Electric or Diesel + Electric.';
  return undefined;
}

/** The two-fuel rules on a vehicle body: an allowed pair, and no second tank without a second fuel. */
const checkFuels = (
  v: { fuelType: FuelType; secondaryFuelType?: FuelType | null; secondaryTankCapacity?: number | null },
  ctx: z.RefinementCtx,
) => {
  const problem = secondaryFuelProblem(v.fuelType, v.secondaryFuelType);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['secondaryFuelType'] });
  if (!v.secondaryFuelType && v.secondaryTankCapacity !== null && v.secondaryTankCapacity !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: 'A second tank needs a second fuel.',
      path: ['secondaryTankCapacity'],
    });
};

/** What an owner types about a vehicle (without the two-fuel rules: VehicleInput has them). */
export const VehicleFields = z.object({
  make: z.string().trim().min(1, 'Make is required.').max(50, 'At most 50 characters.'),
  model: z.string().trim().min(1, 'Model is required.').max(50, 'At most 50 characters.'),
  year: z
    .number()
    .int('Year must be a whole number.')
    .min(VEHICLE_MIN_YEAR, `Year must be ${VEHICLE_MIN_YEAR} or later.`)
    .refine((y) => y <= maxYear(), { message: 'Year cannot be later than next year.' }),
  fuelType: FuelType,
  /**
   * The second fuel (issue 51), beside `fuelType`: FUEL_PAIRS. null: none; absent: none on a
   * create, unchanged on an update.
   */
  secondaryFuelType: FuelType.nullish(),
  /** The size of the tank (or battery) of `fuelType`, of `secondaryFuelType`. */
  tankCapacity: Capacity,
  secondaryTankCapacity: Capacity,
  registrationNumber: z
    .string()
    .trim()
    .min(1, 'Registration number is required.')
    .max(20, 'At most 20 characters.')
    .transform((s) => s.toUpperCase()),
  vin: Vin,
  engineSize: z
    .number()
    .min(0, 'Engine size must be 0 or more.')
    .max(ENGINE_SIZE_MAX_L, `At most ${ENGINE_SIZE_MAX_L} L.`),
  odometer: z.number().int('Odometer must be a whole number of km.').min(0, 'Odometer must be 0 or more.'),
  aiEvaluationConsent: z.boolean().default(false),
});
export const VehicleInput = VehicleFields.superRefine(checkFuels);
export type VehicleInput = z.infer<typeof VehicleInput>;

/** POST /api/vehicles. photoUrl is accepted for compatibility but photos only arrive as uploads. */
export const VehicleCreateBody = VehicleFields.extend({ photoUrl: z.string().nullish() }).superRefine(
  checkFuels,
);

/** PUT /api/vehicles/{id} and the PATCH `data` part: the row's version guards against lost updates. */
export const VehicleUpdateBody = VehicleFields.extend({
  version: z.number().int().min(0),
  photoUrl: z.string().nullish(),
}).superRefine(checkFuels);
export type VehicleUpdateBody = z.infer<typeof VehicleUpdateBody>;

export const Vehicle = z.object({
  id: z.number().int(),
  make: z.string(),
  model: z.string(),
  year: z.number().int(),
  fuelType: FuelType,
  /**
   * The second fuel (issue 51; null: a single-fuel vehicle), and the tank or battery sizes in each
   * fuel's unit (fuelUnit). Always sent by the server; optional in the type only so code that builds
   * vehicles by hand needs no change (absent means null).
   */
  secondaryFuelType: FuelType.nullable().optional(),
  tankCapacity: z.number().nullable().optional(),
  secondaryTankCapacity: z.number().nullable().optional(),
  registrationNumber: z.string(),
  /** null: the owner gave none. */
  vin: z.string().nullable(),
  engineSize: z.number(),
  odometer: z.number().int(),
  aiEvaluationConsent: z.boolean(),
  aiScore: z.number().nullable(),
  /**
   * Why the score (issue 50): the built-in evaluation's reason is written for the caller, in their
   * language, currency and units; a language model's reason reads as it wrote it.
   */
  aiScoreReason: z.string().nullable(),
  photoUrl: z.string().nullable(),
  ownerId: z.number().int(),
  ownerUsername: z.string(),
  /**
   * The caller's relation to it (see sharing.ts). The server always sends it; optional in the type
   * only so code that builds vehicles by hand needs no change (absent means 'OWNER').
   */
  access: VehicleAccess.optional(),
  /**
   * The owner's currency (issue 50): every record's stored exchange rate is to it, so a shared car's
   * editor paying in another reads a record's rate against it. The server always sends it; optional
   * in the type only so code that builds vehicles by hand needs no change.
   */
  ownerCurrency: Currency.optional(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vehicle = z.infer<typeof Vehicle>;

/** Size that fits within max width × height keeping proportions; never enlarges. */
export function fitWithin(width: number, height: number, maxW = PHOTO_MAX_WIDTH, maxH = PHOTO_MAX_HEIGHT) {
  const scale = Math.min(1, maxW / width, maxH / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A vehicle's fuels: its primary, then its second one when it has one. */
export const fuelsOf = (v: { fuelType: FuelType; secondaryFuelType?: FuelType | null }): FuelType[] =>
  v.secondaryFuelType ? [v.fuelType, v.secondaryFuelType] : [v.fuelType];
