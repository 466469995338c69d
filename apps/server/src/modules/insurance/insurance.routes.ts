import { IdParams, Insurance, InsuranceBody, InsuranceUpdateBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { recordErrors, recordRoutes } from '../records/records.routes.js';
import type { InsuranceService } from './insurance.service.js';

export async function insuranceRoutes(app: FastifyInstance, { service }: { service: InsuranceService }) {
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
    async (req) => service.toggleReminder(principalOf(req), req.params.id),
  );
}
