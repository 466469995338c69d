import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { notifications } from '../../db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

/** A user's notifications; every call is scoped to its owner. */
export class NotificationsRepo {
  constructor(private readonly db: Executor) {}

  list(userId: number): Promise<NotificationRow[]> {
    return this.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(200);
  }

  async unread(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
    return row?.n ?? 0;
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
