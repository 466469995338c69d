import { randomUUID } from 'node:crypto';
import type { NotificationType, RecordKind, WebhookEvent } from '@evdra/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { rowsOf } from './rows.js';
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
  const { id, body } = eventBody(e, e.data);
  await db.execute(sql`
    insert into webhook_deliveries (webhook_id, event_id, event, body)
    select w.id, ${id}::uuid, ${e.event}, ${body} from webhooks w where ${wants(e)} order by w.id`);
}

/** Events per statement of emitEvents: a few MB of bodies at most. */
const EVENTS_CHUNK = 1000;

/**
 * emitEvent for many objects of one event, kind and audience (an import's record.created, one per
 * record). Who wants them is asked once: when nobody does, nothing is read or written. Otherwise
 * `load` reads the objects a chunk of ids at a time, and one multi-row insert per chunk queues every
 * subscription its deliveries, in the objects' order (each subscription sends its own in id order).
 */
export async function emitEvents(
  db: Executor,
  e: Omit<AppEvent, 'data'> & { ids: number[]; load: (ids: number[]) => Promise<unknown[]> },
): Promise<void> {
  if (e.ids.length === 0) return;
  const [anyone] = rowsOf(await db.execute(sql`select 1 from webhooks w where ${wants(e)} limit 1`));
  if (!anyone) return;
  const at = e.at ?? new Date();
  for (let i = 0; i < e.ids.length; i += EVENTS_CHUNK) {
    const events = (await e.load(e.ids.slice(i, i + EVENTS_CHUNK))).map((data) =>
      eventBody({ ...e, at }, data),
    );
    await db.execute(sql`
      insert into webhook_deliveries (webhook_id, event_id, event, body)
      select w.id, (x.e->>'id')::uuid, ${e.event}, x.e->>'body'
        from json_array_elements(${JSON.stringify(events)}::json) with ordinality as x(e, n)
       cross join (select w.id from webhooks w where ${wants(e)}) w
       order by x.n, w.id`);
  }
}

/** The delivery body every subscription gets for one event: {id, event, createdAt, kind?, data}. */
function eventBody(e: Omit<AppEvent, 'data'>, data: unknown) {
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    event: e.event,
    createdAt: (e.at ?? new Date()).toISOString(),
    ...(e.kind ? { kind: e.kind } : {}),
    data,
  });
  return { id, body };
}

/** The subscriptions (`w`) that want the event: of a user told, not paused, the event (and kind) chosen. */
function wants(e: Omit<AppEvent, 'data'>): SQL {
  const to = typeof e.to === 'number' ? sql`${e.to}` : e.to;
  const kindMatches = e.kind
    ? sql`(w.kinds is null or w.kinds @> ${JSON.stringify([e.kind])}::jsonb)`
    : sql`true`;
  return sql`w.user_id in (${to}) and w.paused_at is null
    and w.events @> ${JSON.stringify([e.event])}::jsonb and ${kindMatches}`;
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

type Delivery = { webhookId: number; id: string; event: WebhookEvent; body: string };

/**
 * The events new notifications are (a reminder, a renewal due, interest in a listing, a message):
 * each notification one event, to every subscription of its user that wants it. Who wants them is
 * asked once per event for all the users at once (usually nobody: then nothing more is written); the
 * deliveries are inserted in the notifications' order, then by subscription, EVENTS_CHUNK at a time.
 */
export async function notificationEvents(
  db: Executor,
  rows: (typeof notifications.$inferSelect)[],
): Promise<void> {
  const wanting = new Map<WebhookEvent, { id: number; userId: number }[]>();
  for (const event of new Set(rows.flatMap((n) => NOTIFICATION_EVENTS[n.type] ?? []))) {
    const userIds = [
      ...new Set(rows.filter((n) => NOTIFICATION_EVENTS[n.type] === event).map((n) => n.userId)),
    ];
    const to = sql`select json_array_elements_text(${JSON.stringify(userIds)}::json)::int`;
    wanting.set(
      event,
      rowsOf<{ id: number; userId: number }>(
        await db.execute(
          sql`select w.id, w.user_id as "userId" from webhooks w where ${wants({ event, to })} order by w.id`,
        ),
      ),
    );
  }
  const deliveries: Delivery[] = [];
  for (const n of rows) {
    const event = NOTIFICATION_EVENTS[n.type];
    const subscriptions = (event && wanting.get(event)?.filter((w) => w.userId === n.userId)) || [];
    if (!event || subscriptions.length === 0) continue;
    const data = {
      id: n.id,
      type: n.type,
      title: n.title,
      content: n.content,
      timestamp: n.createdAt.toISOString(),
      read: n.read,
      vehicleId: n.vehicleId,
    };
    const { id, body } = eventBody({ event, to: n.userId, at: n.createdAt }, data);
    for (const w of subscriptions) deliveries.push({ webhookId: w.id, id, event, body });
  }
  for (let i = 0; i < deliveries.length; i += EVENTS_CHUNK) {
    await db.execute(sql`
      insert into webhook_deliveries (webhook_id, event_id, event, body)
      select (x.d->>'webhookId')::int, (x.d->>'id')::uuid, x.d->>'event', x.d->>'body'
        from json_array_elements(${JSON.stringify(deliveries.slice(i, i + EVENTS_CHUNK))}::json) with ordinality as x(d, n)
       order by x.n`);
  }
}
