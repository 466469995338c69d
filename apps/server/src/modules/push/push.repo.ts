import { and, desc, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { pushOutbox, pushSubscriptions, users, vapidKeys } from '../../db/schema.js';

export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type PushPayload = { title: string; body: string; url: string };

/** A push the worker took (leased) to send. */
export type ClaimedPush = {
  id: number;
  attempts: number;
  payload: PushPayload;
  subscriptionId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
};

/** VAPID keys, devices' subscriptions and the push outbox. */
export class PushRepo {
  constructor(private readonly db: Executor) {}

  /** The stored key pair; `make` creates it if there is none (two replicas: the first insert wins). */
  async vapidKeys(make: () => { publicKey: string; privateKey: string }) {
    const read = async () => (await this.db.select().from(vapidKeys).where(eq(vapidKeys.id, 1)))[0];
    const found = await read();
    if (found) return found;
    await this.db
      .insert(vapidKeys)
      .values({ id: 1, ...make() })
      .onConflictDoNothing();
    const row = await read();
    if (!row) throw new Error('VAPID keys missing after insert');
    return row;
  }

  /**
   * The same endpoint twice is one subscription: the latest user, keys and session own it. Taken
   * over by another user (a shared browser), it drops the previous user's pushes not yet sent and
   * counts as added now. The user keeps at most `keep` devices: the oldest others are removed and
   * returned. One user's subscribes take turns (their user row is locked), so the cap holds.
   */
  async upsert(
    s: {
      userId: number;
      endpoint: string;
      p256dh: string;
      auth: string;
      userAgent: string;
      familyId: string | null;
    },
    keep: number,
  ): Promise<{ row: SubscriptionRow; dropped: SubscriptionRow[] }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${s.userId} for update`);
      await tx.execute(sql`
        delete from push_outbox where subscription_id in
          (select id from push_subscriptions where endpoint = ${s.endpoint} and user_id <> ${s.userId})`);
      const [row] = await tx
        .insert(pushSubscriptions)
        .values(s)
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: {
            userId: s.userId,
            p256dh: s.p256dh,
            auth: s.auth,
            userAgent: s.userAgent,
            familyId: s.familyId,
            createdAt: sql`case when push_subscriptions.user_id = ${s.userId}
              then push_subscriptions.created_at else now() end`,
          },
        })
        .returning();
      if (!row) throw new Error('upsert returned nothing');
      const kept = tx
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, s.userId), ne(pushSubscriptions.id, row.id)))
        .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
        .limit(Math.max(0, keep - 1));
      const dropped = await tx
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.userId, s.userId),
            ne(pushSubscriptions.id, row.id),
            notInArray(pushSubscriptions.id, kept),
          ),
        )
        .returning();
      dropped.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
      return { row, dropped };
    });
  }

  /** Removes the user's subscription at `endpoint`; false when they had none there. */
  async remove(userId: number, endpoint: string): Promise<boolean> {
    const gone = await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
      .returning({ id: pushSubscriptions.id });
    return gone.length > 0;
  }

  async removeById(id: number) {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  }

  list(userId: number): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  }

  async preferences(userId: number) {
    const [row] = await this.db
      .select({ reminders: users.pushReminders, marketplace: users.pushMarketplace })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  async setPreferences(userId: number, p: { reminders: boolean; marketplace: boolean }) {
    await this.db
      .update(users)
      .set({ pushReminders: p.reminders, pushMarketplace: p.marketplace })
      .where(eq(users.id, userId));
  }

  /** Queues one push to each of the user's devices (not a notification: the test button). */
  async enqueueForUser(userId: number, payload: PushPayload): Promise<number> {
    const rows = await this.db.execute(sql`
      insert into push_outbox (subscription_id, payload)
      select id, ${JSON.stringify(payload)}::jsonb from push_subscriptions where user_id = ${userId}
      returning id`);
    return rowsOf(rows).length;
  }

  /**
   * Takes up to `limit` due pushes for `leaseSeconds`: rows another process is taking are skipped
   * (FOR UPDATE SKIP LOCKED) and a taken row is not due again until its lease ends, so each push is
   * sent by one process; one that dies mid-send leaves it to be retried after the lease.
   */
  async claim(limit: number, leaseSeconds: number): Promise<ClaimedPush[]> {
    return rowsOf<ClaimedPush>(
      await this.db.execute(sql`
      with due as (
        select id from push_outbox where next_attempt_at <= now()
         order by id limit ${limit} for update skip locked
      ), taken as (
        update push_outbox o set next_attempt_at = now() + make_interval(secs => ${leaseSeconds}),
               attempts = o.attempts + 1
          from due where o.id = due.id
        returning o.id, o.attempts, o.payload, o.subscription_id
      )
      select t.id, t.attempts, t.payload, s.id as "subscriptionId", s.endpoint, s.p256dh, s.auth
        from taken t join push_subscriptions s on s.id = t.subscription_id
       order by t.id`),
    );
  }

  async done(id: number) {
    await this.db.delete(pushOutbox).where(eq(pushOutbox.id, id));
  }

  async retryAt(id: number, at: Date) {
    await this.db.update(pushOutbox).set({ nextAttemptAt: at }).where(eq(pushOutbox.id, id));
  }
}
