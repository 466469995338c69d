import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { CheckboxField, TextField } from '../../../components/Field';
import { GdprLink } from '../../../components/GdprLink';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError } from '../../../lib/api';
import { isLanguage } from '../../../lib/i18n';
import { storeSession } from '../../../lib/session';
import {
  type FieldErrors,
  hasErrors,
  LIMITS,
  looksLikeEmail,
  passwordLengthOk,
  usernameProblem,
} from '../../../lib/validation';
import { useRegister } from '../api';

const FIELDS = ['username', 'email', 'password', 'confirmPassword', 'gdprConsent'] as const;

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const registerMutation = useRegister();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [gdprConsent, setGdprConsent] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const validate = (): FieldErrors => {
    const problem = usernameProblem(username);
    return {
      username: !username.trim()
        ? t('register.usernameRequired')
        : problem === 'length'
          ? t('validation.usernameLength', { min: LIMITS.USERNAME_MIN, max: LIMITS.USERNAME_MAX })
          : problem === 'pattern'
            ? t('validation.usernamePattern')
            : undefined,
      email: !email.trim()
        ? t('register.emailRequired')
        : looksLikeEmail(email)
          ? undefined
          : t('validation.emailInvalid'),
      password: !password
        ? t('register.passwordRequired')
        : passwordLengthOk(password)
          ? undefined
          : t('validation.passwordLength', { min: LIMITS.PASSWORD_MIN, max: LIMITS.PASSWORD_MAX }),
      confirmPassword: !confirmPassword
        ? t('register.confirmRequired')
        : confirmPassword !== password
          ? t('register.passwordsMismatch')
          : undefined,
      gdprConsent: gdprConsent ? undefined : t('register.consentRequired'),
    };
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const next = validate();
    setErrors(next);
    if (hasErrors(next)) return;
    try {
      const { user, csrfToken } = await registerMutation.mutateAsync({
        username: username.trim(),
        email: email.trim(),
        password,
        gdprConsent: true,
        // The new account keeps the language the visitor is using.
        language: isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : undefined,
      });
      // Alert first: storing the session makes this guest-only page redirect.
      window.alert(t('register.success'));
      storeSession(user, csrfToken);
      navigate('/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError) {
        const fieldErrors: FieldErrors = {};
        for (const d of err.details) {
          const field = (FIELDS as readonly string[]).includes(d.field) ? d.field : null;
          if (!field) continue;
          // 409 details only name the field: show the translated conflict there.
          fieldErrors[field] = d.message || t(`errors.${err.code}`);
        }
        if (err.code === 'USERNAME_TAKEN' && !fieldErrors.username)
          fieldErrors.username = t('errors.USERNAME_TAKEN');
        if (err.code === 'EMAIL_TAKEN' && !fieldErrors.email) fieldErrors.email = t('errors.EMAIL_TAKEN');
        setErrors(fieldErrors);
        const translated = i18nCode(err.code, t);
        setFailure(translated ?? (err.message || t('register.failed')));
      } else {
        setFailure(t('register.failed'));
      }
    }
  };

  const busy = registerMutation.isPending;
  return (
    <PageCard title={t('register.title')} narrow>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('register.username')}
          name="username"
          autoComplete="username"
          value={username}
          onValueChange={setUsername}
          error={errors.username}
        />
        <TextField
          label={t('register.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          error={errors.email}
        />
        <PasswordField
          label={t('register.password')}
          name="password"
          autoComplete="new-password"
          value={password}
          onValueChange={setPassword}
          error={errors.password}
          hint={t('validation.passwordHint', { min: LIMITS.PASSWORD_MIN })}
        />
        <PasswordField
          label={t('register.confirmPassword')}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
          error={errors.confirmPassword}
        />
        <CheckboxField
          name="gdprConsent"
          checked={gdprConsent}
          onCheckedChange={setGdprConsent}
          error={errors.gdprConsent}
          label={<Trans i18nKey="register.consentLabel" components={{ gdpr: <GdprLink /> }} />}
        />
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? t('register.submitting') : t('register.submit')}
        </button>
        <div className="form__links">
          <span>
            {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
          </span>
        </div>
      </form>
    </PageCard>
  );
}

/** The translated text for an error code, when we have one. */
function i18nCode(code: string, t: (key: string) => string): string | null {
  const key = `errors.${code}`;
  const text = t(key);
  return text === key ? null : text;
}
