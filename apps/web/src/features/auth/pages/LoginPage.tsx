import { LoginBody } from '@evdra/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { TextField } from '../../../components/Field';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { applyLanguage } from '../../../lib/i18n';
import { getStoredUser, storeSession } from '../../../lib/session';
import { OIDC_START_URL, useAuthProviders, useLogin } from '../api';

/** Codes that deserve a specific line under '❌ Login failed.'. */
const SPECIFIC_CODES = new Set([
  'ACCOUNT_SUSPENDED',
  'ACCOUNT_PENDING',
  'RATE_LIMITED',
  'INVALID_CREDENTIALS',
]);

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginMutation = useLogin();
  // Sign in with OpenID Connect (issue 53); without an answer (offline, an older server) the password form alone.
  const providers = useAuthProviders().data;
  const oidc = providers?.oidc;
  const passwordLogin = providers?.passwordLogin !== false;
  const form = useZodForm(LoginBody, { defaultValues: { username: '', password: '' } });
  const [failure, setFailure] = useState<{ text: string; detail?: string } | null>(null);

  const onSubmit = async (body: LoginBody) => {
    setFailure(null);

    // Offline (spec §4): only the stored user, whose offline flag is 'true', may enter.
    const offlineLogin = () => {
      const stored = getStoredUser();
      const typed = body.username.trim().toLowerCase();
      const same = stored?.username.toLowerCase() === typed || stored?.email.toLowerCase() === typed;
      if (stored && same && stored.offlineLogin === 'true') navigate('/', { replace: true });
      else setFailure({ text: t('login.offlineUnavailable') });
    };
    if (!navigator.onLine) {
      offlineLogin();
      return;
    }

    try {
      const { user, csrfToken } = await loginMutation.mutateAsync(body);
      storeSession(user, csrfToken);
      await applyLanguage(user.language);
      navigate('/', { replace: true });
    } catch (err) {
      // The browser thinks it is online but the server cannot be reached: same rule as offline.
      if (err instanceof ApiError && err.status === 0) {
        offlineLogin();
        return;
      }
      const code = err instanceof ApiError ? err.code : '';
      setFailure({
        text: t('login.failed'),
        detail: SPECIFIC_CODES.has(code) ? t(`errors.${code}`) : undefined,
      });
    }
  };

  const busy = loginMutation.isPending;
  return (
    <PageCard title={t('login.title')} narrow>
      {oidc ? (
        <div className="form">
          {/* A full page load: the server redirects to the provider. */}
          <a
            className={`btn btn--block ${passwordLogin ? 'btn--secondary' : 'btn--primary'}`}
            href={OIDC_START_URL}
          >
            {t('login.oidc', { name: oidc.buttonText })}
          </a>
          {passwordLogin ? <p className="muted">{t('login.or')}</p> : null}
        </div>
      ) : null}
      {passwordLogin ? (
        <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
          <TextField label={t('login.username')} autoComplete="username" {...form.field('username')} />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            {...form.field('password')}
          />
          {failure ? (
            <Alert tone="error">
              <p>{failure.text}</p>
              {failure.detail ? <p>{failure.detail}</p> : null}
            </Alert>
          ) : null}
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
          <div className="form__links">
            <Link to="/forgot-password">{t('login.forgotPassword')}</Link>
            <span>
              {t('login.noAccount')} <Link to="/register">{t('login.registerLink')}</Link>
            </span>
          </div>
        </form>
      ) : null}
    </PageCard>
  );
}
