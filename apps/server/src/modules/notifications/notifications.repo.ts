import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { aliased, isoTimestamp, jsonArrayText } from '../../db/rows.js';
import { notifications } from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';

export type NotificationRow = typeof notifications.$inferSelect;

export type { NewNotification } from '../../db/notify.js';

/** A user's notifications; every call is scoped to its owner. */
export class NotificationsRepo {
  constructor(private readonly db: Executor) {}

  /**
   * Newest first, at most 200, as the API's Notification array, written by the database (the server
   * passes the text on). `timestamp` is ISO 8601 in UTC with milliseconds, as Date#toISOString writes it.
   */
  async listJson(userId: number): Promise<string> {
    const [row] = await this.statements().list({ userId });
    return row?.json ?? '[]';
  }

  async unread(userId: number): Promise<number> {
    const [row] = await this.statements().unread({ userId });
    return row?.n ?? 0;
  }

  // The two reads every page polls, built and planned once (no query building per request), run on
  // the driver (db/statement.ts).
  private prepared?: ReturnType<NotificationsRepo['prepare']>;
  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }
  private prepare() {
    const userId = sql.placeholder('userId');
    const n = notifications;
    return {
      list: namedStatement<{ json: string }>(
        this.db,
        'notifications_json_of_user',
        this.db.select({ json: jsonArrayText().as('json') }).from(
          this.db
            .select(
              // Each value under the key the API names it (a bare column would keep its SQL name).
              aliased({
                id: sql`${n.id}`,
                type: sql`${n.type}`,
                title: sql`${n.title}`,
                content: sql`${n.content}`,
                timestamp: isoTimestamp(n.createdAt),
                read: sql`${n.read}`,
                vehicleId: sql`${n.vehicleId}`,
              }),
            )
            .from(notifications)
            .where(eq(notifications.userId, userId))
            .orderBy(desc(notifications.createdAt), desc(notifications.id))
            .limit(200)
            .as('r'),
        ),
      ),
      unread: namedStatement<{ n: number }>(
        this.db,
        'unread_notifications_of_user',
        this.db
          .select({ n: sql<number>`count(*)::int`.as('n') })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.read, false))),
      ),
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
