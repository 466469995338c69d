import { Download, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError, api, errorText } from '../../../lib/api';
import { navigateTo } from '../../../lib/navigation';
import { clearSession } from '../../../lib/session';

/** Settings → your data: download all of it (GDPR art. 20), or delete the account (art. 17). */
export function AccountDataSection() {
  const { t } = useTranslation();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setError(null);
    setBusy(true);
    try {
      await api('/api/account', { method: 'DELETE', body: { password } });
      clearSession();
      navigateTo('/login');
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'INVALID_CREDENTIALS'
          ? t('account.wrongPassword')
          : errorText(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings__section account-data" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('account.title')}
      </h2>
      <p className="field__hint">{t('account.downloadHint')}</p>
      <a className="btn btn--secondary" href="/api/account/export" download>
        <Download size={18} aria-hidden="true" />
        {t('account.download')}
      </a>
      <p className="field__hint">{t('account.deleteHint')}</p>
      <button type="button" className="btn btn--danger" onClick={() => setConfirming(true)}>
        <Trash2 size={18} aria-hidden="true" />
        {t('account.delete')}
      </button>
      {confirming ? (
        <Modal title={t('account.deleteTitle')} onClose={() => setConfirming(false)}>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              void remove();
            }}
          >
            <p>{t('account.deleteWarning')}</p>
            <PasswordField
              label={t('account.password')}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={error ?? undefined}
              data-autofocus
            />
            {error && !password ? <Alert tone="error">{error}</Alert> : null}
            <div className="form__actions">
              <button type="button" className="btn btn--secondary" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn btn--danger" disabled={busy || !password} aria-busy={busy}>
                {busy ? t('account.deleting') : t('account.confirmDelete')}
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
    </section>
  );
}
