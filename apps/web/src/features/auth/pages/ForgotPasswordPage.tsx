import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { TextField } from '../../../components/Field';
import { ApiError } from '../../../lib/api';
import { looksLikeEmail } from '../../../lib/validation';
import { useForgotPassword } from '../api';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const mutation = useForgotPassword();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    if (!looksLikeEmail(email)) {
      setEmailError(t('forgot.invalidEmail'));
      return;
    }
    setEmailError(undefined);
    try {
      await mutation.mutateAsync(email.trim());
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
      <form className="form" onSubmit={onSubmit} noValidate>
        <p className="muted">{t('forgot.intro')}</p>
        <TextField
          label={t('forgot.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          error={emailError}
        />
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
