import { z } from 'zod';
import { FuelType } from './enums.js';
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

/** What an owner types about a vehicle. */
export const VehicleInput = z.object({
  make: z.string().trim().min(1, 'Make is required.').max(50, 'At most 50 characters.'),
  model: z.string().trim().min(1, 'Model is required.').max(50, 'At most 50 characters.'),
  year: z
    .number()
    .int('Year must be a whole number.')
    .min(VEHICLE_MIN_YEAR, `Year must be ${VEHICLE_MIN_YEAR} or later.`)
    .refine((y) => y <= maxYear(), { message: 'Year cannot be later than next year.' }),
  fuelType: FuelType,
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
export type VehicleInput = z.infer<typeof VehicleInput>;

/** POST /api/vehicles. photoUrl is accepted for compatibility but photos only arrive as uploads. */
export const VehicleCreateBody = VehicleInput.extend({ photoUrl: z.string().nullish() });

/** PUT /api/vehicles/{id} and the PATCH `data` part: the row's version guards against lost updates. */
export const VehicleUpdateBody = VehicleInput.extend({
  version: z.number().int().min(0),
  photoUrl: z.string().nullish(),
});
export type VehicleUpdateBody = z.infer<typeof VehicleUpdateBody>;

export const Vehicle = z.object({
  id: z.number().int(),
  make: z.string(),
  model: z.string(),
  year: z.number().int(),
  fuelType: FuelType,
  registrationNumber: z.string(),
  /** null: the owner gave none. */
  vin: z.string().nullable(),
  engineSize: z.number(),
  odometer: z.number().int(),
  aiEvaluationConsent: z.boolean(),
  aiScore: z.number().nullable(),
  aiScoreReason: z.string().nullable(),
  photoUrl: z.string().nullable(),
  ownerId: z.number().int(),
  ownerUsername: z.string(),
  /**
   * The caller's relation to it (see sharing.ts). The server always sends it; optional in the type
   * only so code that builds vehicles by hand needs no change (absent means 'OWNER').
   */
  access: VehicleAccess.optional(),
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
