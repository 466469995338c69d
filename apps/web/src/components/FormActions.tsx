import { useTranslation } from 'react-i18next';
import { Alert } from './Card';

interface FormActionsProps {
  /** A failure that is not about one field, shown above the buttons. */
  failure: string | null;
  /** Saving: the submit button reads `Saving…` and is disabled. */
  busy: boolean;
  /** Disables the submit button for another reason too (defaults to `busy`). */
  disabled?: boolean;
  onCancel: () => void;
}

/** The foot of a dialog form: its failure, then Cancel and Save. */
export function FormActions({ failure, busy, disabled = busy, onCancel }: FormActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="form__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn btn--primary" disabled={disabled}>
          {busy ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </>
  );
}
