import {
  ApiError,
  IdParams,
  NOTIFICATIONS_CAP,
  NOTIFICATIONS_PAGE_MAX,
  Notification,
  NotificationCount,
  NotificationListQuery,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/next-page.js';
import { principalOf } from '../../plugins/auth.js';
import type { NotificationRow, NotificationsService } from './notifications.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const present = (n: NotificationRow): Notification => ({
  id: n.id,
  type: n.type,
  title: n.title,
  content: n.content,
  timestamp: n.createdAt.toISOString(),
  read: n.read,
  vehicleId: n.vehicleId,
});

/** Reminder notifications of the caller only: no call reaches another user's. */
export async function notificationsRoutes(
  app: FastifyInstance,
  { service }: { service: NotificationsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  const tags = ['notifications'];

  r.get(
    '/api/notifications',
    {
      ...user,
      schema: {
        tags,
        description:
          `Newest first. At most ${NOTIFICATIONS_CAP} without \`limit\`; \`limit\` (1-${NOTIFICATIONS_PAGE_MAX}) asks for a page. ` +
          'When more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page.',
        querystring: NotificationListQuery,
        response: { 200: z.array(Notification), ...errors },
      },
    },
    async (req, reply) =>
      sendPage(reply, req.url, await service.pageJson(principalOf(req).userId, req.query)),
  );

  r.get(
    '/api/notifications/count',
    {
      ...user,
      schema: { tags, description: 'Unread notifications.', response: { 200: NotificationCount, ...errors } },
    },
    async (req) => ({ count: await service.unread(principalOf(req).userId) }),
  );

  r.patch(
    '/api/notifications/:id/clear',
    {
      ...user,
      schema: {
        tags,
        description: 'Marks one notification read.',
        params: IdParams,
        response: { 200: Notification, ...errors },
      },
    },
    async (req) => present(await service.markRead(principalOf(req).userId, req.params.id)),
  );

  r.patch(
    '/api/notifications/clear-all',
    {
      ...user,
      schema: { tags, description: 'Marks every notification read.', response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await service.markAllRead(principalOf(req).userId);
      return reply.status(204).send(null);
    },
  );

  r.delete(
    '/api/notifications/clear',
    {
      ...user,
      schema: { tags, description: 'Deletes every notification.', response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await service.deleteAll(principalOf(req).userId);
      return reply.status(204).send(null);
    },
  );
}
