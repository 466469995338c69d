import { z } from 'zod';
import { IdCursor, PageLimit } from './paging.js';
import { Id } from './user.js';

/**
 * Sharing a vehicle (issue 22). The owner (who registered it or received it by transfer) does
 * everything; an EDITOR reads the vehicle and its records and writes its records (fuel, expenses,
 * services, insurance); a VIEWER only reads. Anyone else gets 404, as for any vehicle not theirs.
 */
export const SHARE_ROLES = ['VIEWER', 'EDITOR'] as const;
export const ShareRole = z.enum(SHARE_ROLES);
export type ShareRole = z.infer<typeof ShareRole>;

/**
 * The caller's relation to a vehicle, on every vehicle the API answers. An administrator who is not
 * its owner has the owner's rights (as before sharing existed) and gets 'OWNER'.
 */
export const VEHICLE_ACCESS = ['OWNER', ...SHARE_ROLES] as const;
export const VehicleAccess = z.enum(VEHICLE_ACCESS);
export type VehicleAccess = z.infer<typeof VehicleAccess>;

/** POST /api/vehicles/{id}/shares: `username` is an existing user's username or email. */
export const ShareCreateBody = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Enter a username or an email address.')
    .max(254, 'At most 254 characters.'),
  role: ShareRole,
});
export type ShareCreateBody = z.infer<typeof ShareCreateBody>;

/** PUT /api/vehicles/{id}/shares/{userId}: the new role. */
export const ShareUpdateBody = z.object({ role: ShareRole });
export type ShareUpdateBody = z.infer<typeof ShareUpdateBody>;

export const ShareParams = z.object({ id: Id, userId: Id });

/** One person a vehicle is shared with. */
export const VehicleShare = z.object({
  vehicleId: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  role: ShareRole,
  createdAt: z.string(),
});
export type VehicleShare = z.infer<typeof VehicleShare>;

/** GET /api/vehicles?own=true: only the caller's own vehicles (not those shared with them). */
export const OwnOnlyQuery = z.object({
  own: z.enum(['true', 'false']).optional().describe('true: only the vehicles the caller owns'),
});

/** GET /api/vehicles without `limit` (issue 54): at most this many vehicles (an admin's are all of them). */
export const VEHICLES_CAP = 10_000;
/** The largest page of vehicles a client may ask for. */
export const VEHICLES_PAGE_MAX = 500;
/**
 * GET /api/vehicles a page at a time: `limit` vehicles after `cursor` (the last id of the page
 * before), newest first. The answer stays a bare array; when more follow, X-Next-Cursor holds the
 * next page's cursor and Link its URL (rel="next").
 */
export const VehicleListQuery = OwnOnlyQuery.extend({
  limit: PageLimit(VEHICLES_PAGE_MAX).optional(),
  cursor: IdCursor.optional(),
});
export type VehicleListQuery = z.infer<typeof VehicleListQuery>;
