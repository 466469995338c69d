import type { ReactNode } from 'react';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { PendingBadge } from '../../../components/offline/PendingBadge';
import { isPendingSync } from '../../../lib/offline/types';
import type { RecordActions } from '../useRecordActions';

interface RecordCardActionsProps<T extends { id: number }> {
  actions: RecordActions<T>;
  record: T;
  editLabel: string;
  deleteLabel: string;
  /** Extra buttons shown before Edit (e.g. the reminder toggle). */
  children?: ReactNode;
}

/** The owner's buttons under a record: any extra ones, then Edit (opens the dialog) and Delete (asks first). */
export function RecordCardActions<T extends { id: number }>({
  actions,
  record,
  editLabel,
  deleteLabel,
  children,
}: RecordCardActionsProps<T>) {
  return (
    <>
      {isPendingSync(record) ? (
        <div className="record-card__pending">
          <PendingBadge row={record} />
        </div>
      ) : null}
      <div className="record-card__actions">
        {children}
        <EditDeleteButtons
          editLabel={editLabel}
          deleteLabel={deleteLabel}
          onEdit={() => actions.startEdit(record)}
          onDelete={() => void actions.remove(record)}
        />
      </div>
    </>
  );
}
