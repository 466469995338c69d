import type { Vehicle } from '@evdra/domain';
import { LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { errorText } from '../../../lib/api';
import { useLeaveShare } from '../shares';

interface LeaveShareDialogProps {
  vehicle: Vehicle;
  /** The logged-in grantee: leaving is deleting their own share. */
  userId: number;
  onClose: () => void;
  /** A failed leave, shown on the page (the dialog closes either way). */
  onError: (message: string) => void;
}

/** Asks before a grantee leaves a shared car: only its owner can share it with them again. */
export function LeaveShareDialog({ vehicle, userId, onClose, onError }: LeaveShareDialogProps) {
  const { t } = useTranslation();
  const leave = useLeaveShare();
  const name = `${vehicle.make} ${vehicle.model}`;
  const confirm = async () => {
    try {
      await leave.mutateAsync({ vehicleId: vehicle.id, userId });
    } catch (err) {
      onError(t('sharing.leaveError', { message: errorText(err) }));
    }
    onClose();
  };
  return (
    <Modal title={t('sharing.leaveTitle')} onClose={onClose}>
      <p>{t('sharing.leaveMessage', { name, owner: vehicle.ownerUsername })}</p>
      <div className="form__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose} data-autofocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="btn btn--danger"
          onClick={() => void confirm()}
          disabled={leave.isPending}
          aria-busy={leave.isPending}
        >
          <LogOut size={16} aria-hidden="true" />
          {t('sharing.leaveConfirm')}
        </button>
      </div>
    </Modal>
  );
}
