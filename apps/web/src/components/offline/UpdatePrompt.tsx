import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { applyUpdate, dismissUpdate, useNeedRefresh } from '../../lib/offline/pwa';
import './offline.css';

/** "A new version is available — Reload" when a new service worker is waiting. */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const needRefresh = useNeedRefresh();
  if (!needRefresh) return null;
  return (
    <div className="update-toast" role="status">
      <p>{t('offline.updateAvailable')}</p>
      <button type="button" className="btn btn--primary btn--small" onClick={() => void applyUpdate()}>
        <RefreshCw size={16} aria-hidden="true" />
        {t('offline.reload')}
      </button>
      <button type="button" className="btn btn--secondary btn--small" onClick={dismissUpdate}>
        {t('offline.later')}
      </button>
    </div>
  );
}
