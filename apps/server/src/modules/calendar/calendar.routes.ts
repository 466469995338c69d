import { ApiError, CalendarLink, CalendarParams } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import type { CalendarService } from './calendar.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };

/** The calendar feed (no cookie: its token is the key) and the caller's link to it. */
export async function calendarRoutes(app: FastifyInstance, { service }: { service: CalendarService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['calendar'];

  r.get(
    '/api/calendar/:token.ics',
    {
      schema: {
        tags,
        description:
          "An iCalendar (RFC 5545) feed of the token's user's due dates: insurance ends, the next service, " +
          'renewals; one all-day VEVENT each with an alarm a week before. No cookie: a wrong token is 404.',
        params: CalendarParams,
      },
    },
    async (req, reply) => {
      const ics = await service.feed(req.params.token);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="evdra.ics"')
        .header('cache-control', 'private, max-age=900')
        .send(ics);
    },
  );

  r.get(
    '/api/users/me/calendar',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description: "The caller's calendar feed URL (made on first request).",
        response: { 200: CalendarLink, ...errors },
      },
    },
    async (req) => service.link(principalOf(req).userId),
  );

  r.post(
    '/api/users/me/calendar/reset',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description: 'A new feed URL; the old one answers 404 from now on.',
        response: { 200: CalendarLink, ...errors },
      },
    },
    async (req) => service.reset(principalOf(req).userId),
  );
}
