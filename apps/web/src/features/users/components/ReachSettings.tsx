import { MAX_PUSH_DEVICES } from '@evdra/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { CheckboxField, TextField } from '../../../components/Field';
import { errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import {
  currentSubscription,
  disablePush,
  enablePush,
  pushSupported,
  reachKeys,
  useCalendarLink,
  usePushDevices,
  usePushPreferences,
  useResetCalendarLink,
  useSavePushPreferences,
  useSendTestPush,
} from '../reach';

/** "Push notifications": the "Notifications on this device" toggle, the kinds, and a test push. */
export function PushSettings() {
  const { t } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const devices = usePushDevices();
  const prefs = usePushPreferences();
  const savePrefs = useSavePushPreferences();
  const test = useSendTestPush();
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const supported = pushSupported();
  const format = useFormat();

  useEffect(() => {
    if (!supported) return;
    void currentSubscription()
      .then((s) => setEndpoint(s?.endpoint ?? null))
      .catch(() => setEndpoint(null));
  }, [supported]);

  // On only when this browser is subscribed and the server still has it (a logout removes it there).
  const on = !!endpoint && !!devices.data?.some((d) => d.endpoint === endpoint);

  const onToggle = async (checked: boolean) => {
    setBusy(true);
    setMessage(null);
    try {
      if (checked) {
        const added = await enablePush();
        if (!added) setMessage({ tone: 'error', text: t('push.denied') });
        else if (added.replaced) {
          // Past the cap the server dropped the oldest device: say so, or it would just go quiet.
          setMessage({
            tone: 'info',
            text: t('push.replaced', { max: MAX_PUSH_DEVICES, date: format.date(added.replaced.createdAt) }),
          });
        }
      } else {
        await disablePush();
      }
      setEndpoint((await currentSubscription())?.endpoint ?? null);
      await queryClient.invalidateQueries({ queryKey: reachKeys.devices });
    } catch (err) {
      setMessage({ tone: 'error', text: `${t('push.failed')} ${errorText(err)}`.trim() });
    } finally {
      setBusy(false);
    }
  };

  const onTest = async () => {
    setMessage(null);
    try {
      const { devices: n } = await test.mutateAsync();
      setMessage({
        tone: n ? 'success' : 'info',
        text: n ? t('push.testSent', { count: n }) : t('push.noDevices'),
      });
    } catch (err) {
      setMessage({ tone: 'error', text: `${t('push.testFailed')} ${errorText(err)}`.trim() });
    }
  };

  const kinds = prefs.data;
  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('push.title')}
      </h2>
      {!supported ? <p className="muted">{t('push.unsupported')}</p> : null}
      {supported ? (
        <CheckboxField
          name="pushThisDevice"
          label={t('push.thisDevice')}
          checked={on}
          disabled={busy || endpoint === undefined}
          onCheckedChange={(c) => void onToggle(c)}
        />
      ) : null}
      {kinds ? (
        <>
          <CheckboxField
            name="pushReminders"
            label={t('push.reminders')}
            checked={kinds.reminders}
            disabled={savePrefs.isPending}
            onCheckedChange={(c) => savePrefs.mutate({ ...kinds, reminders: c })}
          />
          <CheckboxField
            name="pushMarketplace"
            label={t('push.marketplace')}
            checked={kinds.marketplace}
            disabled={savePrefs.isPending}
            onCheckedChange={(c) => savePrefs.mutate({ ...kinds, marketplace: c })}
          />
        </>
      ) : null}
      <p className="field__hint">{t('push.devices', { count: devices.data?.length ?? 0 })}</p>
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => void onTest()}
        disabled={test.isPending}
      >
        {test.isPending ? t('push.testSending') : t('push.test')}
      </button>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </section>
  );
}

/** The calendar feed's URL, to copy into Google Calendar or Apple Calendar, and its reset. */
export function CalendarSettings() {
  const { t } = useTranslation();
  const titleId = useId();
  const link = useCalendarLink();
  const reset = useResetCalendarLink();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onCopy = async () => {
    if (!link.data) return;
    setError(null);
    try {
      await navigator.clipboard.writeText(link.data.url);
      setCopied(true);
    } catch {
      setCopied(false);
      setError(t('calendar.copyFailed'));
    }
  };
  const onReset = async () => {
    if (!window.confirm(t('calendar.resetConfirm'))) return;
    setCopied(false);
    setError(null);
    // A failed reset leaves the old link working: say so rather than look done.
    await reset
      .mutateAsync()
      .catch((err) => setError(`${t('calendar.resetFailed')} ${errorText(err)}`.trim()));
  };

  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('calendar.title')}
      </h2>
      <p className="field__hint">{t('calendar.hint')}</p>
      {link.data ? (
        <TextField label={t('calendar.url')} name="calendarUrl" value={link.data.url} readOnly />
      ) : null}
      {link.isError ? <p className="muted">{t('calendar.loadError')}</p> : null}
      <div className="form__actions">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void onCopy()}
          disabled={!link.data}
        >
          {copied ? t('calendar.copied') : t('calendar.copy')}
        </button>
        <button
          type="button"
          className="btn btn--danger"
          onClick={() => void onReset()}
          disabled={reset.isPending}
        >
          {t('calendar.reset')}
        </button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
