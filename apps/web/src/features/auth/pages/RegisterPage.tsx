import { PASSWORD_MIN, RegisterBody } from '@evdra/domain';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { Alert, PageCard } from '../../../components/Card';
import { CheckboxField, TextField } from '../../../components/Field';
import { GdprLink } from '../../../components/GdprLink';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { isLanguage } from '../../../lib/i18n';
import { storeSession } from '../../../lib/session';
import { useRegister } from '../api';

/** The register body plus the confirmation ('Passwords do not match.', spec §5). */
const RegisterForm = RegisterBody.omit({ language: true })
  .extend({ confirmPassword: z.string().min(1) })
  .refine((v) => v.confirmPassword === v.password, { path: ['confirmPassword'], when: () => true });

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const registerMutation = useRegister();
  const form = useZodForm(RegisterForm, {
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async ({ confirmPassword: _, ...body }: z.output<typeof RegisterForm>) => {
    setFailure(null);
    try {
      const { user, csrfToken } = await registerMutation.mutateAsync({
        ...body,
        // The new account keeps the language the visitor is using.
        language: isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : undefined,
      });
      // Alert first: storing the session makes this guest-only page redirect.
      window.alert(t('register.success'));
      storeSession(user, csrfToken);
      navigate('/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError) {
        // 409 details only name the field: the translated conflict shows there.
        form.showServerErrors(err, { USERNAME_TAKEN: 'username', EMAIL_TAKEN: 'email' });
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
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <TextField label={t('register.username')} autoComplete="username" {...form.field('username')} />
        <TextField label={t('register.email')} type="email" autoComplete="email" {...form.field('email')} />
        <PasswordField
          label={t('register.password')}
          autoComplete="new-password"
          hint={t('forms.passwordHint', { min: PASSWORD_MIN })}
          {...form.field('password')}
        />
        <PasswordField
          label={t('register.confirmPassword')}
          autoComplete="new-password"
          {...form.field('confirmPassword')}
        />
        <CheckboxField
          label={<Trans i18nKey="register.consentLabel" components={{ gdpr: <GdprLink /> }} />}
          {...form.field('gdprConsent')}
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
