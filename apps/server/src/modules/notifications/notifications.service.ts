import { NOTIFICATIONS_CAP, type NotificationListQuery } from '@evdra/domain';
import { notFound } from '../../lib/errors.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

export type { NotificationRow };

/** The caller's reminder notifications: every call is scoped to its user, none reaches another's. */
export class NotificationsService {
  constructor(private readonly repo: NotificationsRepo) {}

  /**
   * A page of the caller's notifications, newest first, as JSON text: `limit` after `cursor`, without
   * `limit` the first NOTIFICATIONS_CAP (the list as it was before paging). `next`: where the next starts.
   */
  pageJson(userId: number, q: NotificationListQuery = {}): Promise<{ json: string; next?: string }> {
    return this.repo.pageJson(userId, q.limit ?? NOTIFICATIONS_CAP, q.cursor);
  }

  unread(userId: number): Promise<number> {
    return this.repo.unread(userId);
  }

  /** 404 when the notification is not the user's (or gone). */
  async markRead(userId: number, id: number): Promise<NotificationRow> {
    const row = await this.repo.markRead(userId, id);
    if (!row) throw notFound('Notification');
    return row;
  }

  markAllRead(userId: number): Promise<void> {
    return this.repo.markAllRead(userId);
  }

  deleteAll(userId: number): Promise<void> {
    return this.repo.deleteAll(userId);
  }
}
