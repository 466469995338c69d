import type { SessionResponse } from '@evdra/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError, api } from '../../../lib/api';
import { applyLanguage } from '../../../lib/i18n';
import { storeSession } from '../../../lib/session';
import { OIDC_START_URL, useOidcLink, useOidcLinkInfo } from '../api';

/** The reasons the server's callback may give (apps/server/src/modules/auth/oidc.service.ts). */
const REASONS = new Set([
  'not-registered',
  'email-unverified',
  'no-email',
  'suspended',
  'pending',
  'denied',
  'failed',
  'unavailable',
]);

/** Keeps the session the server's callback set in its cookies, as a login does, then goes home. */
async function keepSession({ user, csrfToken }: SessionResponse) {
  storeSession(user, csrfToken);
  await applyLanguage(user.language);
}

/**
 * /oidc/complete: the provider's sign-in succeeded and the server set the session cookies; a
 * refresh hands this page the user and the CSRF token the browser keeps.
 */
export function OidcCompletePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api<SessionResponse>('/api/auth/refresh', { method: 'POST', noRefresh: true })
      .then(keepSession)
      .then(() => navigate('/', { replace: true }))
      .catch(() => setFailed(true));
  }, [navigate]);
  return (
    <PageCard title={t('oidc.completeTitle')} narrow>
      {failed ? (
        <>
          <Alert tone="error">{t('oidc.reasons.failed')}</Alert>
          <p>
            <Link to="/login">{t('oidc.backToLogin')}</Link>
          </p>
        </>
      ) : (
        <p>{t('oidc.completing')}</p>
      )}
    </PageCard>
  );
}

/**
 * /oidc/link: the provider's account has a verified e-mail an Evdra account already uses. Its
 * password, entered once here, links the two; afterwards the provider alone signs in.
 */
export function OidcLinkPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useOidcLinkInfo();
  const link = useOidcLink();
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (!password) {
      setFailure(t('errors.INVALID_CREDENTIALS'));
      return;
    }
    try {
      await keepSession(await link.mutateAsync(password));
      navigate('/', { replace: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      setFailure(
        [
          'INVALID_CREDENTIALS',
          'OIDC_LINK_EXPIRED',
          'RATE_LIMITED',
          'ACCOUNT_SUSPENDED',
          'ACCOUNT_PENDING',
        ].includes(code)
          ? t(`errors.${code}`)
          : t('oidc.reasons.failed'),
      );
    }
  };

  if (info.isError) {
    return (
      <PageCard title={t('oidc.linkTitle')} narrow>
        <Alert tone="error">{t('errors.OIDC_LINK_EXPIRED')}</Alert>
        <p>
          <Link to="/login">{t('oidc.backToLogin')}</Link>
        </p>
      </PageCard>
    );
  }
  return (
    <PageCard title={t('oidc.linkTitle')} narrow>
      {info.data ? (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p>{t('oidc.linkIntro', { email: info.data.email, username: info.data.username })}</p>
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
          />
          {failure ? <Alert tone="error">{failure}</Alert> : null}
          <button type="submit" className="btn btn--primary btn--block" disabled={link.isPending}>
            {link.isPending ? t('oidc.linkSubmitting') : t('oidc.linkSubmit')}
          </button>
          <div className="form__links">
            <Link to="/forgot-password">{t('login.forgotPassword')}</Link>
            <Link to="/login">{t('oidc.backToLogin')}</Link>
          </div>
        </form>
      ) : (
        <p>{t('oidc.completing')}</p>
      )}
    </PageCard>
  );
}

/** /oidc/refused?reason=…: why signing in through the provider made no session. */
export function OidcRefusedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const given = params.get('reason') ?? '';
  const reason = REASONS.has(given) ? given : 'failed';
  return (
    <PageCard title={t('oidc.refusedTitle')} narrow>
      <Alert tone="error">{t(`oidc.reasons.${reason}`)}</Alert>
      <div className="form__links">
        <a href={OIDC_START_URL}>{t('oidc.tryAgain')}</a>
        <Link to="/login">{t('oidc.backToLogin')}</Link>
      </div>
    </PageCard>
  );
}
