import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isPendingSync } from '../../lib/offline/types';

/** "Waiting to sync" on a row whose change is still in the offline queue; nothing otherwise. */
export function PendingBadge({ row }: { row: unknown }) {
  const { t } = useTranslation();
  if (!isPendingSync(row)) return null;
  return (
    <span className="badge badge--warning pending-badge">
      <CloudOff size={14} aria-hidden="true" />
      {t('offline.waitingToSync')}
    </span>
  );
}
