import {
  CONSUMPTION_UNITS,
  COUNTRIES,
  CURRENCIES,
  countryOfLanguage,
  DISTANCE_UNITS,
  LANGUAGES,
  type MoneyAndUnits,
  moneyAndUnitsForCountry,
  UpdateMeBody,
  type User,
  VOLUME_UNITS,
} from '@evdra/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { CheckboxField, SelectField, TextField } from '../../../components/Field';
import { GdprLink } from '../../../components/GdprLink';
import { PageLoading } from '../../../components/PageLoading';
import { PapersOfflineSetting } from '../../../components/PapersOfflineSetting';
import { useAiStatus } from '../../../lib/ai-status';
import { errorText } from '../../../lib/api';
import { useZodForm, type ZodForm } from '../../../lib/forms';
import { applyLanguage, isLanguage, LANGUAGE_NAMES } from '../../../lib/i18n';
import { storeMoneyAndUnits, updateStoredUser } from '../../../lib/session';
import { isDarkMode, setDarkMode } from '../../../lib/theme';
import { moneyAndUnitsOf } from '../../../lib/units';
import { useGiveConsent, useMe, useUpdateMe } from '../api';
import { AccountDataSection } from '../components/AccountDataSection';
import { ApiTokensSettings, WebhooksSettings } from '../components/IntegrationsSettings';
import { CalendarSettings, PushSettings } from '../components/ReachSettings';

function SettingsForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const updateMe = useUpdateMe();
  const giveConsent = useGiveConsent();
  const form = useZodForm(UpdateMeBody, {
    defaultValues: {
      username: user.username,
      email: user.email,
      language: isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : user.language,
      country: user.country,
      ...moneyAndUnitsOf(user),
    },
  });
  const [dark, setDark] = useState(isDarkMode);
  const [saved, setSaved] = useState(false);

  // A change hides the last 'Settings saved.'; a new language applies at once. The country follows
  // the language while it is the one the previous language implied (a chosen country stays).
  const { watch, setValue } = form;
  const lastLanguage = useRef(form.getValues('language'));
  useEffect(() => {
    const sub = watch((values, { name }) => {
      setSaved(false);
      if (name === 'language' && isLanguage(values.language)) {
        const previous = lastLanguage.current;
        lastLanguage.current = values.language;
        if (isLanguage(previous) && values.country === countryOfLanguage(previous)) {
          setValue('country', countryOfLanguage(values.language), { shouldDirty: true });
        }
        void applyLanguage(values.language);
      }
    });
    return () => sub.unsubscribe();
  }, [watch, setValue]);

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

  const onSubmit = async (body: UpdateMeBody) => {
    setSaved(false);
    try {
      const updated = await updateMe.mutateAsync(body);
      updateStoredUser({
        username: updated.username,
        email: updated.email,
        language: updated.language,
        ...moneyAndUnitsOf(updated),
      });
      setSaved(true);
    } catch (err) {
      form.showServerErrors(err, { USERNAME_TAKEN: 'username', EMAIL_TAKEN: 'email' });
      window.alert(`${t('settings.saveError')} ${err instanceof Error ? err.message : ''}`.trim());
    }
  };

  const consentGiven = user.gdprConsent || giveConsent.isPending;
  return (
    <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <TextField label={t('settings.username')} autoComplete="username" {...form.field('username')} />
      <TextField label={t('settings.email')} type="email" autoComplete="email" {...form.field('email')} />
      <SelectField label={t('settings.language')} {...form.field('language')}>
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('settings.country')} hint={t('settings.countryHint')} {...form.field('country')}>
        {COUNTRIES.map((c) => (
          <option key={c} value={c}>
            {t(`countries.${c}`)}
          </option>
        ))}
      </SelectField>
      <MoneyAndUnitsFields form={form} />
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

const MONEY_AND_UNIT_KEYS = ['currency', 'distanceUnit', 'volumeUnit', 'consumptionUnit'] as const;

/**
 * The currency and units the user reads and types. A country's usual ones are proposed when the
 * country changes (a button), never put in place of what the user chose.
 */
function MoneyAndUnitsFields({ form }: { form: ZodForm<typeof UpdateMeBody> }) {
  const { t } = useTranslation();
  const headingId = useId();
  const country = form.watch('country');
  const chosen = moneyAndUnitsOf(form.watch());
  const proposal = country ? moneyAndUnitsForCountry(country) : undefined;
  const differs = proposal && MONEY_AND_UNIT_KEYS.some((k) => proposal[k] !== chosen[k]);
  // Only once the user picked another country than the saved one: the saved choice is theirs.
  const countryChanged = form.formState.dirtyFields.country === true;
  const describe = (m: MoneyAndUnits) =>
    [
      t(`currencies.${m.currency}`),
      t(`distanceUnits.${m.distanceUnit}`),
      t(`volumeUnits.${m.volumeUnit}`),
      t(`consumptionUnits.${m.consumptionUnit}`),
    ].join(', ');
  const applyProposal = () => {
    if (!proposal) return;
    for (const k of MONEY_AND_UNIT_KEYS) form.setValue(k, proposal[k], { shouldDirty: true });
  };
  return (
    <fieldset className="settings__group" aria-labelledby={headingId}>
      <legend id={headingId} className="settings__heading">
        {t('settings.moneyAndUnits')}
      </legend>
      {proposal && differs && countryChanged ? (
        <div className="alert alert--info" role="status">
          <p className="settings__proposal">
            {t('settings.countryDefaults', {
              country: t(`countries.${country}`),
              defaults: describe(proposal),
            })}
          </p>
          <button type="button" className="btn btn--secondary" onClick={applyProposal}>
            {t('settings.useCountryDefaults')}
          </button>
        </div>
      ) : null}
      <SelectField label={t('settings.currency')} {...form.field('currency')}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {t(`currencies.${c}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('settings.distanceUnit')} {...form.field('distanceUnit')}>
        {DISTANCE_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`distanceUnits.${u}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('settings.volumeUnit')} {...form.field('volumeUnit')}>
        {VOLUME_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`volumeUnits.${u}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('settings.consumptionUnit')} {...form.field('consumptionUnit')}>
        {CONSUMPTION_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`consumptionUnits.${u}`)}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}

/** Which AI answers this user (spec §7 `GET /api/ai/status`); an administrator also learns how to connect a model. */
function AiStatusSection({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const status = useAiStatus();
  const titleId = useId();
  const provider = status.data?.provider;
  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('settings.aiTitle')}
      </h2>
      {status.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {status.isError ? <p className="muted">{t('settings.aiStatusError')}</p> : null}
      {provider === 'llm' ? <p>{t('ai.chat.providerLlm', { model: status.data?.model ?? '' })}</p> : null}
      {provider === 'builtin' ? <p>{t('ai.chat.providerBuiltin')}</p> : null}
      {provider === 'builtin' && isAdmin ? (
        <p className="field__hint">{t('settings.aiConnectHint')}</p>
      ) : null}
    </section>
  );
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const me = useMe();

  useEffect(() => {
    // Spec §8: a failed load is only logged.
    if (me.error) console.error('Failed to load settings', me.error);
  }, [me.error]);
  // Currency and units changed on another device reach this one's cards.
  useEffect(() => {
    if (me.data) storeMoneyAndUnits(me.data);
  }, [me.data]);

  return (
    <PageCard title={t('settings.title')} narrow>
      {me.isPending ? <PageLoading /> : null}
      {me.data ? <SettingsForm key={me.data.id} user={me.data} /> : null}
      {me.data ? <PushSettings /> : null}
      {me.data ? <CalendarSettings /> : null}
      {me.data ? <PapersOfflineSetting /> : null}
      {me.data ? <AiStatusSection isAdmin={me.data.role === 'ADMIN'} /> : null}
      {me.data ? <ApiTokensSettings /> : null}
      {me.data ? <WebhooksSettings /> : null}
      {me.data ? <AccountDataSection /> : null}
    </PageCard>
  );
}
