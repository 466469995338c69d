import { notFound } from '../../lib/errors.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

export type { NotificationRow };

/** The caller's reminder notifications: every call is scoped to its user, none reaches another's. */
export class NotificationsService {
  constructor(private readonly repo: NotificationsRepo) {}

  /** Newest first, at most 200, as JSON text. */
  listJson(userId: number): Promise<string> {
    return this.repo.listJson(userId);
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
