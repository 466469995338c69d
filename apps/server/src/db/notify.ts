import { type NotificationType, notificationPath, pushKindOf } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { notificationEvent } from './events.js';
import { notifications } from './schema.js';

export type NewNotification = {
  userId: number;
  vehicleId: number | null;
  type: NotificationType;
  /** In the user's language, as the bell shows it and the push carries it. */
  title: string;
  content: string;
  createdAt?: Date;
};

/**
 * THE one place a notification is created (reminders, marketplace, sharing…): the row for the bell,
 * and in the same transaction one push_outbox row per device of the user who wants that kind pushed
 * ({title, body, url}); the push worker sends them after commit. Pass the caller's transaction when
 * there is one; otherwise the two writes get their own.
 */
export async function createNotification(db: Executor, n: NewNotification): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.insert(notifications).values(n).returning();
    if (row) await notificationEvent(tx, row);
    const payload = JSON.stringify({ title: n.title, body: n.content, url: notificationPath(n) ?? '/' });
    const wanted = pushKindOf(n.type) === 'marketplace' ? sql`u.push_marketplace` : sql`u.push_reminders`;
    await tx.execute(sql`
      insert into push_outbox (subscription_id, payload)
      select s.id, ${payload}::jsonb from push_subscriptions s join users u on u.id = s.user_id
       where s.user_id = ${n.userId} and ${wanted}`);
  });
}
