import { ForgotPasswordQuery } from '@evdra/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { TextField } from '../../../components/Field';
import { ApiError } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { useForgotPassword } from '../api';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const mutation = useForgotPassword();
  // Spec §5: an empty or malformed email both read 'Please enter a valid email address.'
  const form = useZodForm(ForgotPasswordQuery, {
    defaultValues: { email: '' },
    messages: { 'email.required': 'forms.issues.email' },
  });
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const onSubmit = async ({ email }: { email: string }) => {
    setResult(null);
    try {
      await mutation.mutateAsync(email);
      setResult({ ok: true, text: t('forgot.success') });
    } catch (err) {
      const text =
        err instanceof ApiError && err.code === 'RATE_LIMITED'
          ? t('errors.RATE_LIMITED')
          : t('forgot.failure');
      setResult({ ok: false, text });
    }
  };

  return (
    <PageCard title={t('forgot.title')} narrow>
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <p className="muted">{t('forgot.intro')}</p>
        <TextField label={t('forgot.email')} type="email" autoComplete="email" {...form.field('email')} />
        {result ? <Alert tone={result.ok ? 'success' : 'error'}>{result.text}</Alert> : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={mutation.isPending}>
          {mutation.isPending ? t('forgot.submitting') : t('forgot.submit')}
        </button>
        <div className="form__links">
          <Link to="/login">{t('forgot.backToLogin')}</Link>
        </div>
      </form>
    </PageCard>
  );
}
