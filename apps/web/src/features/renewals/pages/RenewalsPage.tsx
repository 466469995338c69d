import {
  COUNTRIES,
  type Country,
  CURRENCIES,
  type CurrencyCode,
  countryOfLanguage,
  isCurrencyCode,
  RENEWAL_TYPES_BY_COUNTRY,
  type Renewal,
  type RenewalType,
  ROVINIETA_PERIODS,
  type RovinietaPeriod,
  renewalLabel,
  rovinietaValidUntil,
  suggestNextItp,
  suggestNextItv,
} from '@evdra/domain';
import { Bell, BellOff, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { PageLoading } from '../../../components/PageLoading';
import { ApiError, errorText } from '../../../lib/api';
import { parseNumber, todayIso, useFormat } from '../../../lib/format';
import { isLanguage } from '../../../lib/i18n';
import { currencyOf } from '../../../lib/units';
import { useDeleteRenewal, useMeForRenewals, useRenewals, useRenewalVehicle, useSaveRenewal } from '../api';

type Draft = {
  type: RenewalType;
  validFrom: string;
  validUntil: string;
  price: string;
  /** The currency the price was paid in (default: the reader's). */
  currency: CurrencyCode;
  note: string;
  reminderEnabled: boolean;
};

const daysUntil = (iso: string) =>
  Math.round((Date.parse(`${iso}T00:00:00Z`) - Date.parse(`${todayIso()}T00:00:00Z`)) / 86_400_000);

function RenewalForm({
  vehicleId,
  vehicleYear,
  country,
  editing,
  onClose,
}: {
  vehicleId: number;
  vehicleYear?: number;
  country: Country;
  editing: Renewal | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const save = useSaveRenewal(vehicleId);
  const types = RENEWAL_TYPES_BY_COUNTRY[country];
  const [d, setD] = useState<Draft>({
    type: editing?.type ?? types[0] ?? 'OTHER',
    validFrom: editing?.validFrom ?? '',
    validUntil: editing?.validUntil ?? '',
    price: editing?.price == null ? '' : String(editing.price),
    currency: currencyOf(editing, fmt.currency),
    note: editing?.note ?? '',
    reminderEnabled: editing?.reminderEnabled ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [period, setPeriod] = useState<RovinietaPeriod | ''>('');
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((prev) => ({ ...prev, [k]: v }));
  // An existing renewal keeps its type even if the country changed since.
  const options = editing && !types.includes(editing.type) ? [editing.type, ...types] : types;

  // ITP (RO) and ITV (ES): the next date the rule gives after an inspection on validFrom.
  const suggestion =
    vehicleYear && d.validFrom && (d.type === 'ITP' || d.type === 'ITV')
      ? d.type === 'ITP'
        ? suggestNextItp(vehicleYear, d.validFrom)
        : suggestNextItv(vehicleYear, d.validFrom)
      : null;

  // Rovinietă: bought for 1 day to 12 months; the period gives the last valid day.
  const onPeriod = (value: string) => {
    const p = ROVINIETA_PERIODS.find((x) => x === value);
    setPeriod(p ?? '');
    if (!p) return;
    setD((prev) => {
      const from = prev.validFrom || todayIso();
      return { ...prev, validFrom: from, validUntil: rovinietaValidUntil(from, p) };
    });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!d.validUntil) next.validUntil = t('renewals.required');
    const price = parseNumber(d.price);
    if (d.price.trim() && (price === null || Number.isNaN(price) || price < 0))
      next.price = t('renewals.badPrice');
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      await save.mutateAsync({
        id: editing?.id,
        body: {
          type: d.type,
          validFrom: d.validFrom || null,
          validUntil: d.validUntil,
          price,
          currency: d.currency,
          note: d.note,
          reminderEnabled: d.reminderEnabled,
          ...(editing ? { version: editing.version } : {}),
        },
      });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.details.length) {
        setErrors(Object.fromEntries(err.details.map((x) => [x.field, x.message])));
      } else {
        window.alert(t('records.error', { message: errorText(err) }));
      }
    }
  };

  return (
    <Modal title={editing ? t('renewals.edit') : t('renewals.add')} onClose={onClose}>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <SelectField
          label={t('renewals.type')}
          name="type"
          value={d.type}
          onValueChange={(v) => set('type', v as RenewalType)}
          data-autofocus
        >
          {options.map((type) => (
            <option key={type} value={type}>
              {renewalLabel(type, lang)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('renewals.validFrom')}
          name="validFrom"
          type="date"
          value={d.validFrom}
          onValueChange={(v) => {
            set('validFrom', v);
            if (period && v) set('validUntil', rovinietaValidUntil(v, period));
          }}
          error={errors.validFrom}
        />
        {d.type === 'ROVINIETA' ? (
          <SelectField
            label={t('renewals.period')}
            name="period"
            value={period}
            onValueChange={onPeriod}
            hint={t('renewals.periodHint')}
          >
            <option value="">{t('renewals.periodPick')}</option>
            {ROVINIETA_PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`renewals.periods.${p}`)}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField
          label={t('renewals.validUntil')}
          name="validUntil"
          type="date"
          value={d.validUntil}
          onValueChange={(v) => set('validUntil', v)}
          error={errors.validUntil}
          hint={suggestion ? t('renewals.suggested', { date: fmt.date(suggestion) }) : undefined}
        />
        {suggestion && suggestion !== d.validUntil ? (
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => set('validUntil', suggestion)}
          >
            {t('renewals.useSuggested')}
          </button>
        ) : null}
        <div className="form__row">
          <TextField
            label={t('units.withSign', { label: t('units.price'), sign: fmt.currencySign(d.currency) })}
            name="price"
            inputMode="decimal"
            value={d.price}
            onValueChange={(v) => set('price', v)}
            error={errors.price}
          />
          {/* Another currency converts at the record day's reference rate (the server's); none known: said here. */}
          <SelectField
            label={t('units.currency')}
            name="currency"
            value={d.currency}
            onValueChange={(v) => set('currency', isCurrencyCode(v) ? v : fmt.currency)}
            error={errors.currency ?? errors.exchangeRate}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {t(`currencies.${c}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextAreaField
          label={t('renewals.note')}
          name="note"
          value={d.note}
          onChange={(e) => set('note', e.target.value)}
          error={errors.note}
        />
        <CheckboxField
          label={t('renewals.reminder')}
          name="reminderEnabled"
          checked={d.reminderEnabled}
          onCheckedChange={(c) => set('reminderEnabled', c)}
        />
        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? t('common.saving') : t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A vehicle's renewals (RCA, ITP, rovinietă, ITV, IVTM, road tax…): soonest expiry first. */
export default function RenewalsPage() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const vehicleId = Number(useParams().vehicleId);
  const list = useRenewals(vehicleId);
  const vehicle = useRenewalVehicle(vehicleId);
  const me = useMeForRenewals();
  const remove = useDeleteRenewal(vehicleId);
  const [editing, setEditing] = useState<Renewal | null | undefined>(undefined);
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const country: Country =
    me.data?.country && COUNTRIES.includes(me.data.country) ? me.data.country : countryOfLanguage(lang);
  const rows = [...(list.data ?? [])].sort((a, b) => a.validUntil.localeCompare(b.validUntil));
  const name = vehicle.data ? `${vehicle.data.make} ${vehicle.data.model}` : '';
  // A viewer of a shared car reads its renewals; the server refuses their writes (issue 22).
  const canWrite = !!vehicle.data && vehicle.data.access !== 'VIEWER';

  const onDelete = async (r: Renewal) => {
    if (!window.confirm(t('renewals.confirmDelete', { type: renewalLabel(r.type, lang) }))) return;
    await remove
      .mutateAsync(r.id)
      .catch((err) => window.alert(t('records.error', { message: errorText(err) })));
  };

  return (
    <PageCard
      title={name ? t('renewals.titleOf', { name }) : t('renewals.title')}
      actions={
        canWrite ? (
          <button type="button" className="btn btn--primary" onClick={() => setEditing(null)}>
            <Plus size={16} aria-hidden="true" />
            {t('renewals.add')}
          </button>
        ) : null
      }
    >
      <p className="field__hint">
        {t('renewals.intro')} <Link to="/settings">{t('renewals.countryLink')}</Link>
      </p>
      {list.isPending ? <PageLoading /> : null}
      {list.isError ? (
        <Alert tone="error">{t('records.error', { message: errorText(list.error) })}</Alert>
      ) : null}
      {list.data && rows.length === 0 ? <p className="muted">{t('renewals.empty')}</p> : null}
      {rows.length > 0 ? (
        <ul className="renewals" aria-label={t('renewals.title')}>
          {rows.map((r) => {
            const days = daysUntil(r.validUntil);
            const label = renewalLabel(r.type, lang);
            return (
              <li key={r.id} className="renewals__item card">
                <h2 className="renewals__title">
                  {r.reminderEnabled ? (
                    <Bell size={16} aria-label={t('renewals.reminderOn')} />
                  ) : (
                    <BellOff size={16} aria-label={t('renewals.reminderOff')} />
                  )}{' '}
                  {label}
                </h2>
                <p>
                  {r.validFrom ? `${fmt.date(r.validFrom)} – ` : ''}
                  {fmt.date(r.validUntil)}{' '}
                  <strong className={days < 0 ? 'text-danger' : undefined}>
                    {days < 0
                      ? t('renewals.expired')
                      : days === 0
                        ? t('renewals.today')
                        : t('renewals.daysLeft', { count: days })}
                  </strong>
                </p>
                {r.price != null ? <p>{fmt.money(r.price, currencyOf(r, fmt.currency))}</p> : null}
                {r.note ? <p className="muted">{r.note}</p> : null}
                {canWrite ? (
                  <div className="form__actions">
                    <EditDeleteButtons
                      editLabel={`${t('common.edit')} ${label}`}
                      deleteLabel={`${t('common.delete')} ${label}`}
                      onEdit={() => setEditing(r)}
                      onDelete={() => void onDelete(r)}
                    />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {editing !== undefined ? (
        <RenewalForm
          vehicleId={vehicleId}
          vehicleYear={vehicle.data?.year}
          country={country}
          editing={editing}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </PageCard>
  );
}
