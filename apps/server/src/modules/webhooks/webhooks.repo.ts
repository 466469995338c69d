import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { webhookDeliveries, webhooks } from '../../db/schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery the worker took (leased) to send, with where and how to sign it. */
export type ClaimedDelivery = {
  id: number;
  webhookId: number;
  userId: number;
  eventId: string;
  event: string;
  body: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
  failingSince: Date | null;
};

/** NOTIFY channel: a webhook was added or deleted, in any process (WebhookPresence listens). */
export const WEBHOOKS_CHANGED = 'evdra_webhooks_changed';

/** How many finished deliveries of a subscription are kept (and listed). */
export const KEPT_DELIVERIES = 50;

/** Webhook subscriptions and their outbox (webhook_deliveries). */
export class WebhooksRepo {
  constructor(readonly db: Executor) {}

  /** Adding or deleting a webhook tells every process (WebhookPresence), once committed. */
  async insert(values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(webhooks).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      await tx.execute(sql`select pg_notify(${WEBHOOKS_CHANGED}, '')`);
      return row;
    });
  }

  /** Whether any user has a webhook, paused or not. */
  async anyAtAll(): Promise<boolean> {
    const [row] = rowsOf<{ any: boolean }>(
      await this.db.execute(sql`select exists (select 1 from webhooks) as "any"`),
    );
    return row?.any ?? true;
  }

  list(userId: number): Promise<WebhookRow[]> {
    return this.db.select().from(webhooks).where(eq(webhooks.userId, userId)).orderBy(desc(webhooks.id));
  }

  async get(userId: number, id: number): Promise<WebhookRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.userId, userId), eq(webhooks.id, id)));
    return row;
  }

  async update(userId: number, id: number, values: Partial<typeof webhooks.$inferInsert>) {
    const [row] = await this.db
      .update(webhooks)
      .set(values)
      .where(and(eq(webhooks.userId, userId), eq(webhooks.id, id)))
      .returning();
    return row;
  }

  async remove(userId: number, id: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(webhooks)
        .where(and(eq(webhooks.userId, userId), eq(webhooks.id, id)))
        .returning({ id: webhooks.id });
      if (gone.length > 0) await tx.execute(sql`select pg_notify(${WEBHOOKS_CHANGED}, '')`);
      return gone.length > 0;
    });
  }

  /** The subscription's deliveries, newest first: what is pending and the last finished ones. */
  deliveries(webhookId: number): Promise<DeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(KEPT_DELIVERIES);
  }

  /** Queues the delivery again: a new row with the same event id and body, after the ones queued. */
  async resend(webhookId: number, deliveryId: number): Promise<DeliveryRow | undefined> {
    const rows = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        insert into webhook_deliveries (webhook_id, event_id, event, body)
        select webhook_id, event_id, event, body from webhook_deliveries
         where id = ${deliveryId} and webhook_id = ${webhookId}
        returning id`),
    );
    const id = rows[0]?.id;
    if (id === undefined) return undefined;
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, Number(id)));
    return row;
  }

  /**
   * Takes up to `limit` due deliveries, each the oldest pending one of its subscription (so a
   * subscription's events go out in order, one at a time), for `leaseSeconds`. Rows another process is
   * taking are skipped (FOR UPDATE SKIP LOCKED) and a taken row is not due again until its lease ends
   * (its status and time are checked again on the locked row), so each delivery is sent by one process;
   * one that dies mid-send leaves it to be retried. The oldest pending row is found per active
   * subscription through its (webhook_id, id) index, past at most its kept finished rows: an import's
   * thousands of queued deliveries cost each round nothing (looking past every queued row for the
   * ones with nothing pending before them took 250 ms a round at 2,000 queued on PGlite).
   */
  async claim(now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const at = now.toISOString();
    const rows = rowsOf<ClaimedDelivery & { createdAt: Date | string; failingSince: Date | string | null }>(
      await this.db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
         where d.id in (select h.id from webhooks w
                         cross join lateral (select e.id from webhook_deliveries e
                                              where e.webhook_id = w.id and e.status = 'pending'
                                              order by e.id limit 1) h
                         where w.paused_at is null)
           and d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
         order by d.id limit ${limit} for update of d skip locked
      ), taken as (
        update webhook_deliveries o
           set next_attempt_at = ${at}::timestamptz + make_interval(secs => ${leaseSeconds}),
               attempts = o.attempts + 1
          from due where o.id = due.id
        returning o.id, o.webhook_id, o.event_id, o.event, o.body, o.attempts, o.created_at
      )
      select t.id::int as id, t.webhook_id as "webhookId", w.user_id as "userId", t.event_id as "eventId",
             t.event, t.body, t.attempts, t.created_at as "createdAt", w.url, w.secret,
             w.failing_since as "failingSince"
        from taken t join webhooks w on w.id = t.webhook_id
       order by t.id`),
    );
    return rows.map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt),
      failingSince: r.failingSince === null ? null : new Date(r.failingSince),
    }));
  }

  /** Delivered: the subscription is healthy again; only the last finished deliveries are kept. */
  async delivered(d: ClaimedDelivery, status: number, at: Date) {
    await this.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'delivered', responseStatus: status, error: null, deliveredAt: at })
        .where(eq(webhookDeliveries.id, d.id));
      await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, d.webhookId));
      await prune(tx, d.webhookId);
    });
  }

  /**
   * A failed attempt: tried again at `retryAt`, or (undefined) given up. The subscription's first
   * failure since its last success is noted; resolves to the subscription's failingSince.
   */
  async failed(
    d: ClaimedDelivery,
    outcome: { status: number | null; error: string },
    at: Date,
    retryAt?: Date,
  ): Promise<Date | null> {
    return this.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          status: retryAt ? 'pending' : 'failed',
          responseStatus: outcome.status,
          error: outcome.error.slice(0, 500),
          ...(retryAt ? { nextAttemptAt: retryAt } : {}),
        })
        .where(eq(webhookDeliveries.id, d.id));
      const [w] = await tx
        .update(webhooks)
        .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${at.toISOString()}::timestamptz)` })
        .where(eq(webhooks.id, d.webhookId))
        .returning({ failingSince: webhooks.failingSince });
      if (!retryAt) await prune(tx, d.webhookId);
      return w?.failingSince ? new Date(w.failingSince) : null;
    });
  }

  /** Pauses a subscription; false when it already was (another process got there first). */
  async pause(webhookId: number, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(webhooks)
      .set({ pausedAt: at })
      .where(and(eq(webhooks.id, webhookId), sql`${webhooks.pausedAt} is null`))
      .returning({ id: webhooks.id });
    return rows.length > 0;
  }
}

/** Keeps the last KEPT_DELIVERIES finished deliveries of a subscription. */
async function prune(db: Executor, webhookId: number) {
  await db.execute(sql`
    delete from webhook_deliveries where webhook_id = ${webhookId} and status <> 'pending'
       and id not in (select id from webhook_deliveries where webhook_id = ${webhookId}
                       order by id desc limit ${KEPT_DELIVERIES})`);
}
