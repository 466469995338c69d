import {
  IdParams,
  Renewal,
  RenewalBody,
  RenewalParams,
  RenewalUpdateBody,
  VEHICLE_LIST_CAP,
  VEHICLE_PAGE_MAX,
  VehicleRecordsQuery,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/next-page.js';
import { principalOf } from '../../plugins/auth.js';
import { recordErrors } from '../records/records.routes.js';
import type { RenewalsService } from './renewals.service.js';

/** A vehicle's renewals: list, add, change, delete. */
export async function renewalsRoutes(app: FastifyInstance, { service }: { service: RenewalsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['renewals'];
  const user = { preHandler: app.requireUser };

  r.get(
    '/api/vehicles/:id/renewals',
    {
      ...user,
      schema: {
        tags,
        description:
          `The latest expiry first. At most ${VEHICLE_LIST_CAP} without \`limit\`; \`limit\` (1-${VEHICLE_PAGE_MAX}) asks for a page. ` +
          'When more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page.',
        params: IdParams,
        querystring: VehicleRecordsQuery,
        response: { 200: z.array(Renewal), ...recordErrors },
      },
    },
    async (req, reply) => {
      const page = await service.list(principalOf(req), req.params.id, req.query);
      return sendPage(reply, req.url, page);
    },
  );

  r.post(
    '/api/vehicles/:id/renewals',
    {
      preHandler: [app.requireUser, app.idempotent],
      schema: {
        tags,
        description: 'Accepts an Idempotency-Key header: a retry with the same key replays the first answer.',
        params: IdParams,
        body: RenewalBody,
        response: { 201: Renewal, ...recordErrors },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await service.add(principalOf(req), req.params.id, req.body)),
  );

  r.get(
    '/api/vehicles/:id/renewals/:renewalId',
    { ...user, schema: { tags, params: RenewalParams, response: { 200: Renewal, ...recordErrors } } },
    async (req) => service.one(principalOf(req), req.params.id, req.params.renewalId),
  );

  r.put(
    '/api/vehicles/:id/renewals/:renewalId',
    {
      ...user,
      schema: {
        tags,
        description: 'With `version`, a stale change gets 409 with the current renewal.',
        params: RenewalParams,
        body: RenewalUpdateBody,
        response: { 200: Renewal, ...recordErrors },
      },
    },
    async (req) => service.replace(principalOf(req), req.params.id, req.params.renewalId, req.body),
  );

  r.delete(
    '/api/vehicles/:id/renewals/:renewalId',
    { ...user, schema: { tags, params: RenewalParams, response: { 204: z.null(), ...recordErrors } } },
    async (req, reply) => {
      await service.remove(principalOf(req), req.params.id, req.params.renewalId);
      return reply.status(204).send(null);
    },
  );
}
