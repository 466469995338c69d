import { IdParams, ManualReminderBody, Revision, RevisionBody, RevisionUpdateBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { recordErrors, recordRoutes } from '../records/records.routes.js';
import type { RevisionsService } from './revisions.service.js';

export async function revisionsRoutes(app: FastifyInstance, { service }: { service: RevisionsService }) {
  recordRoutes(app, {
    tag: 'revisions',
    base: '/api/revision',
    listPath: '/api/revision/vehicle/:vehicleId',
    service,
    createBody: RevisionBody,
    updateBody: RevisionUpdateBody,
    record: Revision,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['revisions'];

  r.put(
    '/api/revision/:id/toggle-reminder',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, response: { 200: Revision, ...recordErrors } },
    },
    async (req) => service.toggleReminder(principalOf(req), req.params.id),
  );

  r.put(
    '/api/revision/:id/manual-reminder',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description:
          'Sets the next-revision reminder date; only while the reminder is enabled (409 otherwise).',
        params: IdParams,
        body: ManualReminderBody,
        response: { 200: Revision, ...recordErrors },
      },
    },
    async (req) => service.setManualReminder(principalOf(req), req.params.id, req.body.reminderDate),
  );
}
