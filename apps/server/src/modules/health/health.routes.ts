import { ApiError, Health, Readiness } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import type { HealthService } from './health.service.js';

const tags = ['health'];

/**
 * GET /api/health (what runs, for a self-hoster and for the pollers that wait for a 200) and GET
 * /api/health/ready (for load balancers: 503 while the database does not answer; while migrations
 * run, the starting responder answers 503 on every path). Public: they show no address or secret.
 */
export async function healthRoutes(app: FastifyInstance, { service }: { service: HealthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health',
    {
      schema: {
        tags,
        description:
          'Always 200 while the process answers. Which database runs and whether it answers (`status` is `degraded` when it does not), and each optional service (redis, smtp, ai, push): configured, and if so whether it answered its last check (checks are reused for 30 s). No address or secret is shown.',
        response: { 200: Health },
      },
    },
    async () => service.health(),
  );

  r.get(
    '/api/health/ready',
    {
      schema: {
        tags,
        description:
          'For load balancers: 200 when the server can serve requests; 503 UNAVAILABLE while the database does not answer or migrations run.',
        response: { 200: Readiness, 503: ApiError },
      },
    },
    async () => {
      const db = await service.ready();
      if (!db.reachable)
        throw new AppError(503, 'UNAVAILABLE', `The database does not answer (${db.error}).`, undefined, {
          'retry-after': '5',
        });
      return { status: 'ready' as const };
    },
  );
}
