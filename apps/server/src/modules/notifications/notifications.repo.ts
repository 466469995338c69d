import { type NotificationType, notificationPath, pushKindOf } from '@evdra/domain';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { notifications } from '../../db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

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
    await tx.insert(notifications).values(n);
    const payload = JSON.stringify({ title: n.title, body: n.content, url: notificationPath(n) ?? '/' });
    const wanted = pushKindOf(n.type) === 'marketplace' ? sql`u.push_marketplace` : sql`u.push_reminders`;
    await tx.execute(sql`
      insert into push_outbox (subscription_id, payload)
      select s.id, ${payload}::jsonb from push_subscriptions s join users u on u.id = s.user_id
       where s.user_id = ${n.userId} and ${wanted}`);
  });
}

/** A user's notifications; every call is scoped to its owner. */
export class NotificationsRepo {
  constructor(private readonly db: Executor) {}

  list(userId: number): Promise<NotificationRow[]> {
    return this.statements().list.execute({ userId });
  }

  async unread(userId: number): Promise<number> {
    const [row] = await this.statements().unread.execute({ userId });
    return row?.n ?? 0;
  }

  // The two reads every page polls, built and planned once (no query building per request).
  private prepared?: ReturnType<NotificationsRepo['prepare']>;
  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }
  private prepare() {
    const userId = sql.placeholder('userId');
    return {
      list: this.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(200)
        .prepare('notifications_of_user'),
      unread: this.db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
        .prepare('unread_notifications_of_user'),
    };
  }

  async markRead(userId: number, id: number): Promise<NotificationRow | undefined> {
    const [row] = await this.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning();
    return row;
  }

  async markAllRead(userId: number) {
    await this.db.update(notifications).set({ read: true }).where(eq(notifications.userId, userId));
  }

  async deleteAll(userId: number) {
    await this.db.delete(notifications).where(eq(notifications.userId, userId));
  }
}
