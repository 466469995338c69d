import {
  API_TOKEN_SCOPES,
  type ApiTokenScope,
  RECORD_KINDS,
  type RecordKind,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '@evdra/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { CheckboxField, SelectField, TextField } from '../../../components/Field';
import { ApiError, errorText } from '../../../lib/api';
import {
  useApiTokens,
  useCreateApiToken,
  useCreateWebhook,
  useDeleteWebhook,
  useResendDelivery,
  useRevokeApiToken,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../integrations';

const isRecordEvent = (e: WebhookEvent) => e.startsWith('record.');

/** A date and time in the UI language. */
function useDateTime() {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return (iso: string) => new Date(iso).toLocaleString(lng, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A secret shown this once, with a copy button. */
function ShownOnce({ label, value, hint }: { label: string; value: string; hint: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<boolean | null>(null);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="settings__shown-once">
      <TextField label={label} name={label} value={value} readOnly hint={hint} />
      <button type="button" className="btn btn--secondary" onClick={() => void onCopy()}>
        {copied ? t('calendar.copied') : t('integrations.copy')}
      </button>
      {copied === false ? <Alert tone="error">{t('calendar.copyFailed')}</Alert> : null}
    </div>
  );
}

/** Settings → "API tokens": make one (shown once), see when each was last used, revoke. */
export function ApiTokensSettings() {
  const { t } = useTranslation();
  const titleId = useId();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const dateTime = useDateTime();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [expires, setExpires] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (tokens.error instanceof ApiError && tokens.error.status === 404) {
    return (
      <section className="settings__section" aria-labelledby={titleId}>
        <h2 id={titleId} className="settings__heading">
          {t('apiTokens.title')}
        </h2>
        <p className="muted">{t('apiTokens.off')}</p>
      </section>
    );
  }

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setMade(null);
    try {
      // The end of the chosen day, in the user's time zone.
      const expiresAt = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
      const created = await create.mutateAsync({ name: name.trim(), scope, expiresAt });
      setMade(created.token);
      setName('');
      setExpires('');
    } catch (err) {
      setError(`${t('apiTokens.createFailed')} ${errorText(err)}`.trim());
    }
  };
  const onRevoke = async (id: number, tokenName: string) => {
    if (!window.confirm(t('apiTokens.revokeConfirm', { name: tokenName }))) return;
    setError(null);
    await revoke.mutateAsync(id).catch((err) => setError(`${t('apiTokens.revokeFailed')} ${errorText(err)}`));
  };

  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('apiTokens.title')}
      </h2>
      <p className="field__hint">{t('apiTokens.hint')}</p>
      <form onSubmit={(e) => void onCreate(e)} className="form">
        <TextField
          label={t('apiTokens.name')}
          name="tokenName"
          value={name}
          onValueChange={setName}
          required
          maxLength={100}
        />
        <SelectField
          label={t('apiTokens.scope')}
          name="tokenScope"
          value={scope}
          onValueChange={(v) => setScope(v as ApiTokenScope)}
        >
          {API_TOKEN_SCOPES.map((s) => (
            <option key={s} value={s}>
              {t(`apiTokens.scopes.${s}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('apiTokens.expires')}
          name="tokenExpires"
          type="date"
          value={expires}
          onValueChange={setExpires}
          hint={t('apiTokens.expiresHint')}
        />
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={create.isPending || !name.trim()}>
            {t('apiTokens.create')}
          </button>
        </div>
      </form>
      {made ? (
        <ShownOnce label={t('apiTokens.newToken')} value={made} hint={t('apiTokens.shownOnce')} />
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {tokens.data?.length === 0 ? <p className="muted">{t('apiTokens.none')}</p> : null}
      {tokens.data?.length ? (
        <ul className="settings__list" aria-label={t('apiTokens.list')}>
          {tokens.data.map((tok) => (
            <li key={tok.id} className="settings__list-item">
              <div>
                <strong>{tok.name}</strong> <code>{tok.hint}…</code> · {t(`apiTokens.scopes.${tok.scope}`)}
                <div className="field__hint">
                  {tok.lastUsedAt
                    ? t('apiTokens.lastUsed', { when: dateTime(tok.lastUsedAt), ip: tok.lastUsedIp ?? '' })
                    : t('apiTokens.neverUsed')}
                  {' · '}
                  {tok.expiresAt
                    ? t('apiTokens.expiresOn', { when: dateTime(tok.expiresAt) })
                    : t('apiTokens.noExpiry')}
                </div>
              </div>
              <button
                type="button"
                className="btn btn--danger"
                onClick={() => void onRevoke(tok.id, tok.name)}
                disabled={revoke.isPending}
              >
                {t('apiTokens.revoke')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** One webhook's last deliveries, each with its status and a re-send button. */
function Deliveries({ webhookId }: { webhookId: number }) {
  const { t } = useTranslation();
  const list = useWebhookDeliveries(webhookId);
  const resend = useResendDelivery(webhookId);
  const dateTime = useDateTime();
  if (list.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (!list.data?.length) return <p className="muted">{t('webhooks.noDeliveries')}</p>;
  return (
    <ul className="settings__list" aria-label={t('webhooks.deliveries')}>
      {list.data.map((d) => (
        <li key={d.id} className="settings__list-item">
          <div>
            <code>{d.event}</code> · {t(`webhooks.status.${d.status}`)}
            {d.responseStatus ? ` (HTTP ${d.responseStatus})` : ''}
            <div className="field__hint">
              {dateTime(d.createdAt)} · {t('webhooks.attempts', { count: d.attempts })}
              {d.error && d.status !== 'delivered' ? ` · ${d.error}` : ''}
            </div>
          </div>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => resend.mutate(d.id)}
            disabled={resend.isPending}
          >
            {t('webhooks.resend')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Settings → "Webhooks": add an https URL and its events (the secret shown once), deliveries, re-send. */
export function WebhooksSettings() {
  const { t } = useTranslation();
  const titleId = useId();
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['record.created']);
  // Record kinds the record.* events are limited to; all of them means "every kind" (null).
  const [kinds, setKinds] = useState<RecordKind[]>([...RECORD_KINDS]);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSecret(null);
    try {
      const allKinds = kinds.length === RECORD_KINDS.length;
      const created = await create.mutateAsync({
        url: url.trim(),
        events,
        ...(allKinds || !events.some(isRecordEvent) ? {} : { kinds }),
      });
      setSecret(created.secret);
      setUrl('');
    } catch (err) {
      setError(`${t('webhooks.createFailed')} ${errorText(err)}`.trim());
    }
  };
  const toggle = (ev: WebhookEvent, on: boolean) =>
    setEvents((list) => (on ? [...list, ev] : list.filter((x) => x !== ev)));
  const onDelete = async (id: number) => {
    if (!window.confirm(t('webhooks.deleteConfirm'))) return;
    await remove.mutateAsync(id).catch((err) => setError(errorText(err)));
  };

  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('webhooks.title')}
      </h2>
      <p className="field__hint">{t('webhooks.hint')}</p>
      <form onSubmit={(e) => void onCreate(e)} className="form">
        <TextField
          label={t('webhooks.url')}
          name="webhookUrl"
          type="url"
          placeholder="https://"
          value={url}
          onValueChange={setUrl}
          required
        />
        <fieldset className="settings__events">
          <legend>{t('webhooks.events')}</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <CheckboxField
              key={ev}
              name={`event-${ev}`}
              label={t(`webhooks.eventNames.${ev.replace('.', '_')}`)}
              checked={events.includes(ev)}
              onCheckedChange={(c) => toggle(ev, c)}
            />
          ))}
        </fieldset>
        {events.some(isRecordEvent) ? (
          <fieldset className="settings__events">
            <legend>{t('webhooks.kinds')}</legend>
            {RECORD_KINDS.map((k) => (
              <CheckboxField
                key={k}
                name={`kind-${k}`}
                label={t(`webhooks.kindNames.${k}`)}
                checked={kinds.includes(k)}
                onCheckedChange={(c) => setKinds((list) => (c ? [...list, k] : list.filter((x) => x !== k)))}
              />
            ))}
          </fieldset>
        ) : null}
        <div className="form__actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={
              create.isPending ||
              !url.trim() ||
              events.length === 0 ||
              (events.some(isRecordEvent) && !kinds.length)
            }
          >
            {t('webhooks.add')}
          </button>
        </div>
      </form>
      {secret ? (
        <ShownOnce label={t('webhooks.secret')} value={secret} hint={t('webhooks.secretOnce')} />
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {hooks.data?.length === 0 ? <p className="muted">{t('webhooks.none')}</p> : null}
      {hooks.data?.length ? (
        <ul className="settings__list" aria-label={t('webhooks.list')}>
          {hooks.data.map((h) => (
            <li key={h.id} className="settings__list-item settings__list-item--stacked">
              <div>
                <strong>{h.url}</strong>
                {h.pausedAt ? <span className="badge badge--warning"> {t('webhooks.paused')}</span> : null}
                <div className="field__hint">
                  {h.events.join(', ')}
                  {h.kinds ? ` (${h.kinds.map((k) => t(`webhooks.kindNames.${k}`)).join(', ')})` : ''}
                </div>
              </div>
              <div className="form__actions">
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => setOpen(open === h.id ? null : h.id)}
                  aria-expanded={open === h.id}
                >
                  {t('webhooks.deliveries')}
                </button>
                {h.pausedAt ? (
                  <button
                    type="button"
                    className="btn btn--secondary"
                    onClick={() => update.mutate({ id: h.id, body: { paused: false } })}
                  >
                    {t('webhooks.resume')}
                  </button>
                ) : null}
                <button type="button" className="btn btn--danger" onClick={() => void onDelete(h.id)}>
                  {t('webhooks.delete')}
                </button>
              </div>
              {open === h.id ? <Deliveries webhookId={h.id} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
