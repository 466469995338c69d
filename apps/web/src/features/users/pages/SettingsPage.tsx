import { LANGUAGES, type Language, type User } from '@evdra/domain';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { PageLoading } from '../../../app/Layout';
import { Alert, PageCard } from '../../../components/Card';
import { CheckboxField, FieldShell, TextField } from '../../../components/Field';
import { GdprLink } from '../../../components/GdprLink';
import { ApiError, errorText } from '../../../lib/api';
import { applyLanguage, isLanguage, LANGUAGE_NAMES } from '../../../lib/i18n';
import { updateStoredUser } from '../../../lib/session';
import { isDarkMode, setDarkMode } from '../../../lib/theme';
import type { FieldErrors } from '../../../lib/validation';
import { useGiveConsent, useMe, useUpdateMe } from '../api';

function SettingsForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const updateMe = useUpdateMe();
  const giveConsent = useGiveConsent();
  const languageId = useId();
  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [language, setLanguage] = useState<Language>(
    isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : user.language,
  );
  const [dark, setDark] = useState(isDarkMode);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);

  const onLanguageChange = (value: string) => {
    if (!isLanguage(value)) return;
    setLanguage(value);
    setSaved(false);
    void applyLanguage(value);
  };

  const onDarkChange = (on: boolean) => {
    setDark(on);
    setDarkMode(on);
  };

  const onConsentChange = async (checked: boolean) => {
    // Consent only goes from false to true (spec §4); once given the box is disabled.
    if (!checked || user.gdprConsent) return;
    try {
      await giveConsent.mutateAsync();
    } catch (err) {
      window.alert(`${t('settings.consentError')} ${errorText(err)}`);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setErrors({});
    try {
      const updated = await updateMe.mutateAsync({
        username: username.trim(),
        email: email.trim(),
        language,
      });
      updateStoredUser({ username: updated.username, email: updated.email, language: updated.language });
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError) {
        const next: FieldErrors = {};
        for (const d of err.details) {
          if (d.field === 'username' || d.field === 'email')
            next[d.field] = d.message || t(`errors.${err.code}`);
        }
        if (err.code === 'USERNAME_TAKEN') next.username ??= t('errors.USERNAME_TAKEN');
        if (err.code === 'EMAIL_TAKEN') next.email ??= t('errors.EMAIL_TAKEN');
        setErrors(next);
      }
      window.alert(`${t('settings.saveError')} ${err instanceof Error ? err.message : ''}`.trim());
    }
  };

  const consentGiven = user.gdprConsent || giveConsent.isPending;
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label={t('settings.username')}
        name="username"
        autoComplete="username"
        value={username}
        onValueChange={(v) => {
          setUsername(v);
          setSaved(false);
        }}
        error={errors.username}
      />
      <TextField
        label={t('settings.email')}
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={(v) => {
          setEmail(v);
          setSaved(false);
        }}
        error={errors.email}
      />
      <FieldShell id={languageId} label={t('settings.language')}>
        <select
          id={languageId}
          className="input"
          value={language}
          onChange={(e) => onLanguageChange(e.target.value)}
        >
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </FieldShell>
      <CheckboxField
        label={t('settings.darkMode')}
        name="darkMode"
        checked={dark}
        onCheckedChange={onDarkChange}
      />
      <CheckboxField
        name="gdprConsent"
        checked={consentGiven}
        disabled={consentGiven}
        onCheckedChange={(c) => void onConsentChange(c)}
        label={<Trans i18nKey="settings.consentLabel" components={{ gdpr: <GdprLink /> }} />}
      />
      {user.gdprConsent ? <p className="field__hint">{t('settings.consentGiven')}</p> : null}
      {saved ? <Alert tone="success">{t('settings.saved')}</Alert> : null}
      <button type="submit" className="btn btn--primary" disabled={updateMe.isPending}>
        {updateMe.isPending ? t('settings.saving') : t('settings.save')}
      </button>
    </form>
  );
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const me = useMe();

  useEffect(() => {
    // Spec §8: a failed load is only logged.
    if (me.error) console.error('Failed to load settings', me.error);
  }, [me.error]);

  return (
    <PageCard title={t('settings.title')} narrow>
      {me.isPending ? <PageLoading /> : null}
      {me.data ? <SettingsForm key={me.data.id} user={me.data} /> : null}
    </PageCard>
  );
}
