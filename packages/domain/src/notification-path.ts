import type { NotificationType } from './notification.js';

/**
 * The screen a notification opens (the bell and the pushed notification's click): the vehicle's
 * insurance, service or renewals page for reminders, the marketplace for its messages, the vehicles
 * for a transfer; null when a reminder's vehicle is gone.
 */
export function notificationPath(n: { type: NotificationType; vehicleId: number | null }): string | null {
  if (n.type.startsWith('MARKET_')) return n.type === 'MARKET_TRANSFER' ? '/vehicles' : '/marketplace';
  // A car shared with the user is on their Vehicles page; an ended share leads nowhere.
  if (n.type === 'VEHICLE_SHARED') return '/vehicles';
  if (n.type === 'VEHICLE_ACCESS_ENDED') return null;
  if (n.type === 'WEBHOOK_PAUSED') return '/settings';
  if (n.vehicleId === null) return null;
  if (n.type === 'RENEWAL_REMINDER') return `/renewals/${n.vehicleId}`;
  return n.type === 'INSURANCE_REMINDER' ? `/insurance/${n.vehicleId}` : `/revision/${n.vehicleId}`;
}

/** Which Settings switch a notification type is pushed under. */
export const pushKindOf = (type: NotificationType): 'reminders' | 'marketplace' =>
  type.startsWith('MARKET_') ? 'marketplace' : 'reminders';
