import { type NotificationType, notificationPath, pushKindOf } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { notificationEvents } from './events.js';
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

/** createNotification for one. */
export async function createNotification(db: Executor, n: NewNotification): Promise<void> {
  await createNotifications(db, [n]);
}

/**
 * THE one place notifications are created (reminders, marketplace, sharing…): the rows for the bell,
 * and in the same transaction one push_outbox row per device of each user who wants that kind pushed
 * ({title, body, url}) and the webhook deliveries of their events; the push and webhook workers send
 * them after commit. Each is one statement for the whole list (the reminder job passes ~1,000 at a
 * time). Pass the caller's transaction when there is one; otherwise the writes get their own.
 */
export async function createNotifications(db: Executor, list: NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  await db.transaction(async (tx) => {
    const rows = await tx.insert(notifications).values(list).returning();
    await notificationEvents(tx, rows);
    const pushes = list.map((n) => ({
      userId: n.userId,
      marketplace: pushKindOf(n.type) === 'marketplace',
      payload: { title: n.title, body: n.content, url: notificationPath(n) ?? '/' },
    }));
    await tx.execute(sql`
      insert into push_outbox (subscription_id, payload)
      select s.id, (x.p->'payload')::jsonb from json_array_elements(${JSON.stringify(pushes)}::json) with ordinality as x(p, n)
        join push_subscriptions s on s.user_id = (x.p->>'userId')::int join users u on u.id = s.user_id
       where case when (x.p->>'marketplace')::boolean then u.push_marketplace else u.push_reminders end
       order by x.n, s.id`);
  });
}
