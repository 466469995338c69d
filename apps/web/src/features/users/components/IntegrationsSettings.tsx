import {
  API_TOKEN_SCOPES,
  type ApiTokenScope,
  RECORD_KINDS,
  type RecordKind,
  WEBHOOK_EVENTS,
  type Webhook,
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

type HookErrors = { url?: string; events?: string; kinds?: string };

/** The server's field problems (400 VALIDATION_FAILED: url, events, kinds), worded in the UI language. */
function useHookErrors() {
  const { t } = useTranslation();
  return (err: unknown): HookErrors => {
    if (!(err instanceof ApiError)) return {};
    const url = err.fieldMessage('url');
    return {
      url:
        url &&
        (/public internet/.test(url)
          ? t('webhooks.errors.urlPublic')
          : /https:\/\//.test(url)
            ? t('webhooks.errors.urlHttps')
            : url),
      events: err.fieldMessage('events') && t('webhooks.errors.events'),
      kinds: err.fieldMessage('kinds') && t('webhooks.errors.kinds'),
    };
  };
}

/** What a webhook wants: its URL, its events and, for record events, the record kinds. */
function WebhookFields({
  form,
  onChange,
  errors,
  prefix,
}: {
  form: HookForm;
  onChange: (f: HookForm) => void;
  errors: HookErrors;
  prefix: string;
}) {
  const { t } = useTranslation();
  const toggle = <T,>(list: T[], item: T, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item);
  return (
    <>
      <TextField
        label={t('webhooks.url')}
        name={`${prefix}Url`}
        type="url"
        placeholder="https://"
        value={form.url}
        onValueChange={(url) => onChange({ ...form, url })}
        error={errors.url}
        required
      />
      <fieldset
        className="settings__events"
        aria-describedby={errors.events ? `${prefix}-events-error` : undefined}
      >
        <legend>{t('webhooks.events')}</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <CheckboxField
            key={ev}
            name={`${prefix}-event-${ev}`}
            label={t(`webhooks.eventNames.${ev.replace('.', '_')}`)}
            checked={form.events.includes(ev)}
            onCheckedChange={(c) => onChange({ ...form, events: toggle(form.events, ev, c) })}
          />
        ))}
        {errors.events ? (
          <p className="field__error" id={`${prefix}-events-error`} role="alert">
            {errors.events}
          </p>
        ) : null}
      </fieldset>
      {form.events.some(isRecordEvent) ? (
        <fieldset
          className="settings__events"
          aria-describedby={errors.kinds ? `${prefix}-kinds-error` : undefined}
        >
          <legend>{t('webhooks.kinds')}</legend>
          {RECORD_KINDS.map((k) => (
            <CheckboxField
              key={k}
              name={`${prefix}-kind-${k}`}
              label={t(`webhooks.kindNames.${k}`)}
              checked={form.kinds.includes(k)}
              onCheckedChange={(c) => onChange({ ...form, kinds: toggle(form.kinds, k, c) })}
            />
          ))}
          {errors.kinds ? (
            <p className="field__error" id={`${prefix}-kinds-error`} role="alert">
              {errors.kinds}
            </p>
          ) : null}
        </fieldset>
      ) : null}
    </>
  );
}

type HookForm = { url: string; events: WebhookEvent[]; kinds: RecordKind[] };

/** Something to send: a URL, an event, and a kind when a record event is picked. */
const incomplete = (f: HookForm) =>
  !f.url.trim() || f.events.length === 0 || (f.events.some(isRecordEvent) && !f.kinds.length);
/** The kinds to send: null (every kind) when all are ticked or no record event is picked. */
const kindsOf = (f: HookForm) =>
  f.kinds.length === RECORD_KINDS.length || !f.events.some(isRecordEvent) ? null : f.kinds;

/**
 * Editing one webhook in place: its URL, events, kinds and whether it is active (unticked: paused).
 * A failed save keeps everything typed, with the server's field errors next to their fields.
 */
function WebhookEditor({ hook, onDone }: { hook: Webhook; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateWebhook();
  const hookErrors = useHookErrors();
  const [form, setForm] = useState<HookForm>({
    url: hook.url,
    events: hook.events,
    kinds: hook.kinds ?? [...RECORD_KINDS],
  });
  const [active, setActive] = useState(hook.pausedAt === null);
  const [errors, setErrors] = useState<HookErrors>({});
  const [error, setError] = useState<string | null>(null);

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setError(null);
    try {
      await update.mutateAsync({
        id: hook.id,
        body: {
          url: form.url.trim(),
          events: form.events,
          kinds: kindsOf(form),
          // Only a change: resuming also forgets past failures, pausing again restarts the pause.
          ...(active === (hook.pausedAt === null) ? {} : { paused: !active }),
        },
      });
      onDone();
    } catch (err) {
      const fields = hookErrors(err);
      setErrors(fields);
      if (!fields.url && !fields.events && !fields.kinds)
        setError(`${t('webhooks.saveFailed')} ${errorText(err)}`.trim());
    }
  };

  return (
    <form
      onSubmit={(e) => void onSave(e)}
      className="form"
      aria-label={t('webhooks.editOf', { url: hook.url })}
    >
      <WebhookFields form={form} onChange={setForm} errors={errors} prefix={`hook${hook.id}`} />
      <CheckboxField
        name={`hook${hook.id}-active`}
        label={t('webhooks.active')}
        checked={active}
        onCheckedChange={setActive}
      />
      <p className="field__hint">{t('webhooks.activeHint')}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={update.isPending || incomplete(form)}>
          {update.isPending ? t('common.saving') : t('common.save')}
        </button>
        <button type="button" className="btn btn--secondary" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** Settings → "Webhooks": add an https URL and its events (the secret shown once), edit, deliveries, re-send. */
export function WebhooksSettings() {
  const { t } = useTranslation();
  const titleId = useId();
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const hookErrors = useHookErrors();
  // Record kinds the record.* events are limited to; all of them means "every kind" (null).
  const [form, setForm] = useState<HookForm>({
    url: '',
    events: ['record.created'],
    kinds: [...RECORD_KINDS],
  });
  const [errors, setErrors] = useState<HookErrors>({});
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setErrors({});
    setSecret(null);
    try {
      const kinds = kindsOf(form);
      const created = await create.mutateAsync({
        url: form.url.trim(),
        events: form.events,
        ...(kinds ? { kinds } : {}),
      });
      setSecret(created.secret);
      setForm((f) => ({ ...f, url: '' }));
    } catch (err) {
      const fields = hookErrors(err);
      setErrors(fields);
      if (!fields.url && !fields.events && !fields.kinds)
        setError(`${t('webhooks.createFailed')} ${errorText(err)}`.trim());
    }
  };
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
        <WebhookFields form={form} onChange={setForm} errors={errors} prefix="webhook" />
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={create.isPending || incomplete(form)}>
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
              {editing === h.id ? (
                <WebhookEditor hook={h} onDone={() => setEditing(null)} />
              ) : (
                <div className="form__actions">
                  <button
                    type="button"
                    className="btn btn--secondary"
                    onClick={() => setOpen(open === h.id ? null : h.id)}
                    aria-expanded={open === h.id}
                  >
                    {t('webhooks.deliveries')}
                  </button>
                  <button type="button" className="btn btn--secondary" onClick={() => setEditing(h.id)}>
                    {t('common.edit')}
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
              )}
              {open === h.id ? <Deliveries webhookId={h.id} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
