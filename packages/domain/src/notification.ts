import { z } from 'zod';
import { PageLimit, TimeIdCursor } from './paging.js';

export const NOTIFICATION_TYPES = [
  'REVISION_REMINDER',
  'INSURANCE_REMINDER',
  'MARKET_INTEREST',
  'MARKET_MESSAGE',
  'MARKET_TRANSFER',
  /** A vehicle was shared with the user (or their role on it changed; or, to its owner, someone left it). */
  'VEHICLE_SHARED',
  /** The user's access to a shared vehicle ended (revoked, left, transferred or deleted). */
  'VEHICLE_ACCESS_ENDED',
  'RENEWAL_REMINDER',
  /** A webhook of the user's was paused after failing for 3 days (issue 53). */
  'WEBHOOK_PAUSED',
] as const;
export const NotificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationType>;

export const Notification = z.object({
  id: z.number().int(),
  type: NotificationType,
  title: z.string(),
  content: z.string(),
  timestamp: z.string(),
  read: z.boolean(),
  /** The vehicle it is about, so a click can open its insurance or revision page. */
  vehicleId: z.number().int().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/**
 * GET /api/notifications without `limit` answers at most this many, newest first (its cap before
 * paging, issue 54); past it X-Next-Cursor says where the rest starts.
 */
export const NOTIFICATIONS_CAP = 200;
/** The largest page of notifications a client may ask for. */
export const NOTIFICATIONS_PAGE_MAX = 200;
/** The page the web's bell asks for (Load more). */
export const NOTIFICATIONS_PAGE_SIZE = 30;

/**
 * GET /api/notifications a page at a time: `limit` after `cursor` (the X-Next-Cursor of the page
 * before: the (timestamp, id) of its last notification), newest first.
 */
export const NotificationListQuery = z.object({
  limit: PageLimit(NOTIFICATIONS_PAGE_MAX).optional(),
  cursor: TimeIdCursor.optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationCount = z.object({ count: z.number().int() });

/** Days before an insurance ends at which its owner is reminded (0 = the day it ends). */
export const INSURANCE_REMINDER_DAYS = [30, 7, 1, 0] as const;
/** Days before a service is due at which its owner is reminded (0 = when due). */
export const REVISION_REMINDER_DAYS = [30, 7, 0] as const;
/** A service is due 12 months after the last one, or after this many km, whichever comes first. */
export const REVISION_INTERVAL_MONTHS = 12;
export const REVISION_INTERVAL_KM = 15_000;
