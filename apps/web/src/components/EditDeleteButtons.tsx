import { Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

interface EditDeleteButtonsProps {
  /** Accessible name of Edit, naming the item (e.g. `Edit Dacia Logan`). */
  editLabel: string;
  /** Accessible name of Delete, naming the item. */
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  deleteDisabled?: boolean;
}

/** The small Edit and Delete buttons of a card or table row. */
export function EditDeleteButtons({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
  deleteDisabled,
}: EditDeleteButtonsProps) {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="btn btn--secondary btn--small" onClick={onEdit} aria-label={editLabel}>
        <Pencil size={16} aria-hidden="true" />
        {t('common.edit')}
      </button>
      <button
        type="button"
        className="btn btn--danger btn--small"
        onClick={onDelete}
        disabled={deleteDisabled}
        aria-label={deleteLabel}
      >
        <Trash2 size={16} aria-hidden="true" />
        {t('common.delete')}
      </button>
    </>
  );
}
