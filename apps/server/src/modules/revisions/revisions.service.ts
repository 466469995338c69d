import type { revisions } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/session.js';
import { RecordsService, type RowOf } from '../records/records.service.js';

type Revision = RowOf<typeof revisions>;

/** Revisions: the shared record calls, plus the next-revision reminder's switch and date. */
export class RevisionsService extends RecordsService<typeof revisions> {
  toggleReminder(p: Principal, id: number): Promise<Revision> {
    return this.change(p, id, (row) => ({ reminderEnabled: !row.reminderEnabled }));
  }

  /** A manual reminder date needs the reminder on: 409 REMINDER_DISABLED otherwise. */
  setManualReminder(p: Principal, id: number, reminderDate: string): Promise<Revision> {
    return this.change(p, id, (row) => {
      if (!row.reminderEnabled) {
        throw new AppError(409, 'REMINDER_DISABLED', 'Enable the reminder before setting its date.');
      }
      return { manualReminderDate: reminderDate };
    });
  }
}
