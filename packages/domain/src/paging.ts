import { z } from 'zod';

/**
 * A list's page size asked with `limit` (issue 54): 1 to `max`. Without it a list answers as it
 * always did, up to its documented cap.
 */
export const PageLimit = (max: number) => z.coerce.number().int().min(1).max(max);

/**
 * A cursor that is the id of the page's last item (opaque to clients: they send back the
 * X-Next-Cursor the page before answered).
 */
export const IdCursor = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'Not a cursor this list gave.')
  .refine((v) => Number(v) <= 2_147_483_647, 'Not a cursor this list gave.');

/**
 * A cursor for a list sorted by a time, latest first (issue 54): opaque to clients, written
 * `<microseconds since 1970 of the time>_<id>` of the page's last item, the list's sort key.
 */
export const TimeIdCursor = z
  .string()
  .regex(/^\d{1,17}_[1-9]\d{0,9}$/, 'Use the cursor of the previous page.')
  .refine((s) => Number(s.split('_')[1]) <= 2_147_483_647, 'Use the cursor of the previous page.');
