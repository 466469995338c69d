import { randomUUID } from 'node:crypto';
import type { NotificationType, RecordKind, WebhookEvent } from '@evdra/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import type { notifications } from './schema.js';

export type AppEvent = {
  event: WebhookEvent;
  /** Who is told: one user, or a subquery of user ids (e.g. everyone who reaches a vehicle). */
  to: number | SQL;
  /** record.* only: which kind of record. */
  kind?: RecordKind;
  /** The object as the API shows it. */
  data: unknown;
  at?: Date;
};

/**
 * THE one place an event reaches webhooks (issue 53): one webhook_deliveries row per subscription of
 * the users told that wants it (not paused), written on the caller's transaction, so an event exists
 * exactly when its change was committed. The webhook worker sends them (webhooks.sender.ts).
 * Every subscription gets the same body and id: {id, event, createdAt, kind?, data}.
 */
export async function emitEvent(db: Executor, e: AppEvent): Promise<void> {
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    event: e.event,
    createdAt: (e.at ?? new Date()).toISOString(),
    ...(e.kind ? { kind: e.kind } : {}),
    data: e.data,
  });
  const to = typeof e.to === 'number' ? sql`${e.to}` : e.to;
  const kindMatches = e.kind
    ? sql`(w.kinds is null or w.kinds @> ${JSON.stringify([e.kind])}::jsonb)`
    : sql`true`;
  await db.execute(sql`
    insert into webhook_deliveries (webhook_id, event_id, event, body)
    select w.id, ${id}::uuid, ${e.event}, ${body} from webhooks w
     where w.user_id in (${to}) and w.paused_at is null
       and w.events @> ${JSON.stringify([e.event])}::jsonb and ${kindMatches}
     order by w.id`);
}

/** Everyone who reaches a vehicle (its owner and the users it is shared with): who hears of its records. */
export const vehicleAudience = (vehicleId: number): SQL =>
  sql`select user_id from vehicle_access where vehicle_id = ${vehicleId}`;

const NOTIFICATION_EVENTS: Partial<Record<NotificationType, WebhookEvent>> = {
  REVISION_REMINDER: 'reminder.due',
  INSURANCE_REMINDER: 'reminder.due',
  RENEWAL_REMINDER: 'renewal.due',
  MARKET_INTEREST: 'listing.interest',
  MARKET_MESSAGE: 'message.received',
};

/** The event a new notification is (a reminder, a renewal due, interest in a listing, a message), if any. */
export async function notificationEvent(db: Executor, n: typeof notifications.$inferSelect): Promise<void> {
  const event = NOTIFICATION_EVENTS[n.type];
  if (!event) return;
  const data = {
    id: n.id,
    type: n.type,
    title: n.title,
    content: n.content,
    timestamp: n.createdAt.toISOString(),
    read: n.read,
    vehicleId: n.vehicleId,
  };
  await emitEvent(db, { event, to: n.userId, data, at: n.createdAt });
}
