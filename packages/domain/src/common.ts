import { z } from 'zod';

/** ISO calendar date `YYYY-MM-DD` that exists. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD.')
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'Enter a real date.',
  );

/** Euro amount: ≥ 0, two decimals. */
export const Money = z.number().min(0, 'Must be 0 or more.').max(9_999_999_999.99, 'Too large.');

/** Optional free text: trimmed, empty becomes ''. */
export const Text = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

export const VehicleIdParams = z.object({ vehicleId: z.coerce.number().int().positive() });
