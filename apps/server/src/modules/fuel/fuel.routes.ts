import { FuelBody, FuelEntry, FuelListQuery, FuelUpdateBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { fuelEntries } from '../../db/schema.js';
import { recordRoutes } from '../records/records.routes.js';
import type { RecordsService } from '../records/records.service.js';

export async function fuelRoutes(
  app: FastifyInstance,
  { service }: { service: RecordsService<typeof fuelEntries> },
) {
  recordRoutes(app, {
    tag: 'fuel',
    base: '/api/fuel-consumptions',
    listPath: '/api/fuel-consumptions/vehicle/:vehicleId',
    service,
    createBody: FuelBody,
    updateBody: FuelUpdateBody,
    record: FuelEntry,
    listQuery: FuelListQuery,
  });
}
