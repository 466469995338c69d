import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { timeIdAfter, timeIdCursor, timeIdValues } from '../../db/keyset.js';
import { isoTimestamp } from '../../db/rows.js';
import { notifications } from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';

export type NotificationRow = typeof notifications.$inferSelect;

export type { NewNotification } from '../../db/notify.js';

/** A user's notifications; every call is scoped to its owner. */
export class NotificationsRepo {
  constructor(private readonly db: Executor) {}

  /**
   * A page of the user's notifications, newest first: at most `limit` after `cursor` (a TimeIdCursor,
   * keyset on (created_at, id), issue 54), as the API's Notification array written by the database
   * (the server passes the text on), and the next page's cursor when more follow. `timestamp` is
   * ISO 8601 in UTC with milliseconds, as Date#toISOString writes it.
   */
  async pageJson(userId: number, limit: number, cursor?: string): Promise<{ json: string; next?: string }> {
    const [row] = await this.statements().page({ userId, limit, ...timeIdValues(cursor) });
    return { json: row?.json ?? '[]', ...(row?.next ? { next: row.next } : {}) };
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
    const limit = sql.placeholder('limit');
    const n = notifications;
    return {
      // One row more than asked says whether more follow; the page is the first `limit`, in the
      // index's order (a backward range of (user_id, created_at, id), migration 0039).
      page: namedStatement<{ json: string; next: string | null }>(
        this.db,
        'notifications_page_of_user',
        sql`
          select coalesce(json_agg((select x from (select r.id, r.type, r.title, r.content, r.timestamp,
                                                          r.read, r."vehicleId") x))
                            filter (where r.k <= ${limit}), '[]')::text as json,
                 case when bool_or(r.k > ${limit}) then max(r.cursor) filter (where r.k = ${limit}) end as next
            from (
              select ${n.id} as id, ${n.type} as type, ${n.title} as title, ${n.content} as content,
                     ${isoTimestamp(n.createdAt)} as timestamp, ${n.read} as read, ${n.vehicleId} as "vehicleId",
                     ${timeIdCursor(n.createdAt, n.id)} as cursor,
                     row_number() over (order by ${n.createdAt} desc, ${n.id} desc) as k
                from ${n}
               where ${n.userId} = ${userId} and (${n.createdAt}, ${n.id}) < ${timeIdAfter()}
               order by ${n.createdAt} desc, ${n.id} desc
               limit ${limit}::int + 1) r`,
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
