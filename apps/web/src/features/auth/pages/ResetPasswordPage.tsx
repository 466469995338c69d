import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError } from '../../../lib/api';
import { type FieldErrors, hasErrors, LIMITS, passwordLengthOk } from '../../../lib/validation';
import { useResetPassword } from '../api';

/** Reached from the emailed link `/reset-password?token=…`. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const next: FieldErrors = {
      password: !password
        ? t('reset.passwordRequired')
        : passwordLengthOk(password)
          ? undefined
          : t('validation.passwordLength', { min: LIMITS.PASSWORD_MIN, max: LIMITS.PASSWORD_MAX }),
      confirmPassword: confirmPassword !== password ? t('register.passwordsMismatch') : undefined,
    };
    setErrors(next);
    if (hasErrors(next)) return;
    try {
      await mutation.mutateAsync({ token, password });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_RESET_TOKEN') {
        setFailure(t('errors.INVALID_RESET_TOKEN'));
      } else if (err instanceof ApiError && err.fieldMessage('password')) {
        setErrors({ password: err.fieldMessage('password') });
      } else if (err instanceof ApiError && err.fieldMessage('token')) {
        setFailure(t('errors.INVALID_RESET_TOKEN'));
      } else {
        setFailure(t('forgot.failure'));
      }
    }
  };

  if (!token) {
    return (
      <PageCard title={t('reset.title')} narrow>
        <Alert tone="error">{t('reset.missingToken')}</Alert>
        <p>
          <Link to="/forgot-password">{t('reset.requestNew')}</Link>
        </p>
      </PageCard>
    );
  }

  if (done) {
    return (
      <PageCard title={t('reset.title')} narrow>
        <Alert tone="success">{t('reset.success')}</Alert>
        <p>
          <Link className="btn btn--primary" to="/login">
            {t('reset.goToLogin')}
          </Link>
        </p>
      </PageCard>
    );
  }

  return (
    <PageCard title={t('reset.title')} narrow>
      <form className="form" onSubmit={onSubmit} noValidate>
        <PasswordField
          label={t('reset.newPassword')}
          name="password"
          autoComplete="new-password"
          value={password}
          onValueChange={setPassword}
          error={errors.password}
          hint={t('validation.passwordHint', { min: LIMITS.PASSWORD_MIN })}
        />
        <PasswordField
          label={t('reset.confirmPassword')}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
          error={errors.confirmPassword}
        />
        {failure ? (
          <Alert tone="error">
            <p>{failure}</p>
            <p>
              <Link to="/forgot-password">{t('reset.requestNew')}</Link>
            </p>
          </Alert>
        ) : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={mutation.isPending}>
          {mutation.isPending ? t('reset.submitting') : t('reset.submit')}
        </button>
        <div className="form__links">
          <Link to="/login">{t('forgot.backToLogin')}</Link>
        </div>
      </form>
    </PageCard>
  );
}
