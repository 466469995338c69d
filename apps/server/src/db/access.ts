import { type SQL, sql } from 'drizzle-orm';
import { listings, vehicleAccess } from './schema.js';

/**
 * SQL fragments over THE access rule, the `vehicle_access` view (migration 0015_vehicle_shares):
 * a user reaches a vehicle they own or that is shared with them; an administrator (the `userId`
 * placeholder null) reaches every vehicle. Statements that check access embed these, so the check
 * rides in the statement's own round trip and is never re-typed per route.
 */

/** 'OWNER' | 'EDITOR' | 'VIEWER'. */
export type Access = (typeof vehicleAccess.$inferSelect)['access'];

/** The user in the `userId` placeholder reaches the vehicle with this id (anyone, when userId is null). */
export const reachable = (vehicleId: unknown): SQL =>
  sql`(${sql.placeholder('userId')}::int is null or exists (select 1 from ${vehicleAccess} a
        where a.vehicle_id = ${vehicleId} and a.user_id = ${sql.placeholder('userId')}::int))`;

/**
 * The relation of the user in the `userId` placeholder to the vehicle with this id: null when none;
 * 'OWNER' when userId is null (an administrator has the owner's rights on every vehicle).
 */
export const accessTo = (vehicleId: unknown): SQL<Access | null> =>
  sql<Access | null>`case when ${sql.placeholder('userId')}::int is null then 'OWNER'
    else (select a.access from ${vehicleAccess} a where a.vehicle_id = ${vehicleId}
            and a.user_id = ${sql.placeholder('userId')}::int) end`;

/**
 * `vehicleId` is one of the vehicles the user in the `userId` placeholder reaches; with the `own`
 * placeholder true, one they own. The ids are gathered once into an array (an InitPlan), so the
 * records are then found by their vehicle index: as `in (select …)` over the view the planner chose a
 * hash join over every record of the table, ten times slower on the all-vehicles lists.
 */
export const reachedBy = (vehicleId: unknown): SQL => sql`${vehicleId} = any(${reachedIds()})`;

/** The ids of the vehicles reachedBy accepts, as one array (an InitPlan: gathered once). */
export const reachedIds = (): SQL =>
  sql`array(select a.vehicle_id from ${vehicleAccess} a
        where a.user_id = ${sql.placeholder('userId')}::int
        and (${sql.placeholder('own')}::boolean is not true or a.access = 'OWNER'))`;

/**
 * The file with this id is a photo of a listing that is no longer active (sold, or deactivated)
 * and `userId` (the `userId` placeholder unless given) is not its seller: such a photo is its
 * seller's alone, on every route that serves files (issue 49). An administrator (userId null) is
 * never kept out: admins manage every listing, active or not. The vehicle's own photo is not a
 * listing photo, so the buyer of a sold car keeps it. One GIN-index probe (listings.photo_ids).
 */
export const closedListingPhotoOfAnother = (
  fileId: unknown,
  userId: unknown = sql.placeholder('userId'),
): SQL =>
  sql`(${userId}::int is not null and exists (select 1 from ${listings} cl
        where cl.photo_ids @> array[${fileId}]::text[] and not cl.active
          and cl.seller_id <> ${userId}::int))`;
