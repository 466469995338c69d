import { z } from 'zod';

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

export const NotificationCount = z.object({ count: z.number().int() });

/** Days before an insurance ends at which its owner is reminded (0 = the day it ends). */
export const INSURANCE_REMINDER_DAYS = [30, 7, 1, 0] as const;
/** Days before a service is due at which its owner is reminded (0 = when due). */
export const REVISION_REMINDER_DAYS = [30, 7, 0] as const;
/** A service is due 12 months after the last one, or after this many km, whichever comes first. */
export const REVISION_INTERVAL_MONTHS = 12;
export const REVISION_INTERVAL_KM = 15_000;
