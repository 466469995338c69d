import { PASSWORD_MIN, ResetPasswordBody } from '@evdra/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Alert, PageCard } from '../../../components/Card';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { useResetPassword } from '../api';

const ResetForm = ResetPasswordBody.pick({ password: true })
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.password, { path: ['confirmPassword'], when: () => true });

/** Reached from the emailed link `/reset-password?token=…`. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useResetPassword();
  const form = useZodForm(ResetForm, {
    defaultValues: { password: '', confirmPassword: '' },
    // An empty confirmation simply does not match.
    messages: { 'confirmPassword.required': 'forms.fields.confirmPassword.custom' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const onSubmit = async ({ password }: z.output<typeof ResetForm>) => {
    setFailure(null);
    try {
      await mutation.mutateAsync({ token, password });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_RESET_TOKEN') {
        setFailure(t('errors.INVALID_RESET_TOKEN'));
      } else if (err instanceof ApiError && err.fieldMessage('password')) {
        form.showServerErrors(err);
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
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <PasswordField
          label={t('reset.newPassword')}
          autoComplete="new-password"
          hint={t('forms.passwordHint', { min: PASSWORD_MIN })}
          {...form.field('password')}
        />
        <PasswordField
          label={t('reset.confirmPassword')}
          autoComplete="new-password"
          {...form.field('confirmPassword')}
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
