import type { insurances } from '../../db/schema.js';
import type { Principal } from '../../lib/session.js';
import { RecordsService, type RowOf } from '../records/records.service.js';

/** Insurance: the shared record calls, plus the end-of-policy reminder's switch. */
export class InsuranceService extends RecordsService<typeof insurances> {
  toggleReminder(p: Principal, id: number): Promise<RowOf<typeof insurances>> {
    return this.change(p, id, (row) => ({ reminderEnabled: !row.reminderEnabled }));
  }
}
