import { Expense, ExpenseBody, ExpenseUpdateBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { expenses } from '../../db/schema.js';
import { recordRoutes } from '../records/records.routes.js';
import type { RecordsService } from '../records/records.service.js';

export async function expensesRoutes(
  app: FastifyInstance,
  { service }: { service: RecordsService<typeof expenses> },
) {
  recordRoutes(app, {
    tag: 'expenses',
    base: '/api/expenses',
    listPath: '/api/expenses/vehicle/:vehicleId',
    service,
    createBody: ExpenseBody,
    updateBody: ExpenseUpdateBody,
    record: Expense,
  });
}
