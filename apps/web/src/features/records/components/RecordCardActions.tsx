import type { ReactNode } from 'react';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { PendingBadge } from '../../../components/offline/PendingBadge';
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
    <div className="record-card__actions">
      <PendingBadge row={record} />
      {children}
      <EditDeleteButtons
        editLabel={editLabel}
        deleteLabel={deleteLabel}
        onEdit={() => actions.startEdit(record)}
        onDelete={() => void actions.remove(record)}
      />
    </div>
  );
}
