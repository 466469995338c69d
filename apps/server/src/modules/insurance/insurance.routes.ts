import { IdParams, Insurance, InsuranceBody, InsuranceUpdateBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { insurances } from '../../db/schema.js';
import { principalOf } from '../../plugins/auth.js';
import { recordErrors, recordRoutes } from '../records/records.routes.js';
import type { RecordsService } from '../records/records.service.js';

export async function insuranceRoutes(
  app: FastifyInstance,
  { service }: { service: RecordsService<typeof insurances> },
) {
  recordRoutes(app, {
    tag: 'insurance',
    base: '/api/insurance',
    listPath: '/api/insurance/vehicle/:vehicleId',
    service,
    createBody: InsuranceBody,
    updateBody: InsuranceUpdateBody,
    record: Insurance,
  });

  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/insurance/:id/toggle-reminder',
    {
      preHandler: app.requireUser,
      schema: { tags: ['insurance'], params: IdParams, response: { 200: Insurance, ...recordErrors } },
    },
    async (req) =>
      service.change(principalOf(req), req.params.id, (row) => ({ reminderEnabled: !row.reminderEnabled })),
  );
}
