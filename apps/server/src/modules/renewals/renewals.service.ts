import type { Renewal, RenewalBody, RenewalUpdateBody, VehicleRecordsQuery } from '@evdra/domain';
import type { renewals } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehicleListPage } from '../records/records.repo.js';
import { type RecordRules, RecordsService, type RowOf } from '../records/records.service.js';

type RenewalRow = RowOf<typeof renewals>;

/** Response fields, in the Renewal schema's order (the list is JSON the database writes). */
const FIELDS = [
  'id',
  'vehicleId',
  'type',
  'validFrom',
  'validUntil',
  'price',
  'note',
  'reminderEnabled',
  'currency',
  'exchangeRate',
  'rateDate',
  'rateSource',
  'version',
] as const satisfies readonly (keyof Renewal)[];

/** Every write stamps updated_at (the shared record repo knows no such column). */
export const renewalRules: RecordRules<typeof renewals> = {
  prepare: async (_repo, values) => ({ ...values, updatedAt: new Date() }),
};

/**
 * Renewals of a vehicle (RCA, ITP, ITV, road tax…): the shared record calls, which check access
 * through the same VehicleAccess as every other record, addressed under the vehicle's path. A
 * renewal asked for under another vehicle's path is 404, as a renewal that is not the caller's.
 */
export class RenewalsService extends RecordsService<typeof renewals> {
  /** Soonest expiry first is what the screen shows; the JSON comes newest (latest validUntil) first. */
  list(p: Principal, vehicleId: number, page: VehicleRecordsQuery = {}): Promise<VehicleListPage> {
    // Paged like every record list (issue 54): a car has a handful, so the plain (capped) list is all.
    return this.listJson(p, vehicleId, {}, FIELDS, page);
  }

  /** One renewal of the vehicle; 404 when it is another vehicle's or not the caller's. */
  one(p: Principal, vehicleId: number, id: number): Promise<RenewalRow> {
    return this.ofVehicle(p, vehicleId, id);
  }

  add(p: Principal, vehicleId: number, body: RenewalBody): Promise<RenewalRow> {
    return this.create(p, {
      ...body,
      validFrom: body.validFrom ?? null,
      price: body.price ?? null,
      vehicleId,
    });
  }

  async replace(p: Principal, vehicleId: number, id: number, body: RenewalUpdateBody): Promise<RenewalRow> {
    await this.ofVehicle(p, vehicleId, id);
    return this.update(p, id, {
      ...body,
      validFrom: body.validFrom ?? null,
      price: body.price ?? null,
      vehicleId,
    });
  }

  async remove(p: Principal, vehicleId: number, id: number): Promise<void> {
    await this.ofVehicle(p, vehicleId, id);
    await this.delete(p, id);
  }

  private async ofVehicle(p: Principal, vehicleId: number, id: number): Promise<RenewalRow> {
    const row = await this.get(p, id);
    if (row.vehicleId !== vehicleId) throw notFound('Renewal');
    return row;
  }
}
