import type { Insurance } from '@evdra/domain';
import { Bell, BellOff, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert } from '../../../components/Card';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { useRecordMutations, useRecordScope } from '../api';
import { type FieldDef, type FormValues, RecordFormModal } from '../components/RecordFormModal';
import { ownedVehicles, RecordsLayout, VehicleTag } from '../components/RecordsLayout';
import { makeChecks, num } from '../validation';

type Editing = { mode: 'add' } | { mode: 'edit'; record: Insurance } | null;

export default function InsurancePage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const scope = useRecordScope<Insurance>('insurance', vehicleId, (r) => r.startDate);
  const { create, update, remove, put } = useRecordMutations<Insurance>('insurance');
  const [editing, setEditing] = useState<Editing>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const failure = (err: unknown) => t('records.error', { message: errorText(err) });
  const check = makeChecks(t);
  const owned = ownedVehicles(scope);
  const chooseVehicle = !scope.single && editing?.mode === 'add';

  const fields: FieldDef[] = [
    ...(chooseVehicle
      ? [
          {
            name: 'vehicleId',
            label: t('records.vehicle'),
            type: 'select' as const,
            options: owned.map((v) => ({ value: String(v.id), label: `${v.make} ${v.model}` })),
          },
        ]
      : []),
    { name: 'provider', label: t('insurance.provider'), type: 'text' },
    { name: 'policyNumber', label: t('insurance.policyNumber'), type: 'text', pairWithNext: true },
    { name: 'coverageType', label: t('insurance.coverageType'), type: 'text' },
    { name: 'startDate', label: t('insurance.startDate'), type: 'date', pairWithNext: true },
    { name: 'endDate', label: t('insurance.endDate'), type: 'date' },
    { name: 'price', label: t('insurance.priceEur'), type: 'number', step: '0.01' },
    { name: 'reminderEnabled', label: t('insurance.enableReminder'), type: 'checkbox' },
  ];

  const initial = (r: Insurance | null): FormValues => ({
    vehicleId: String(scope.vehicle?.id ?? owned[0]?.id ?? ''),
    provider: r?.provider ?? '',
    policyNumber: r?.policyNumber ?? '',
    coverageType: r?.coverageType ?? '',
    startDate: r?.startDate ?? todayIso(),
    endDate: r?.endDate ?? '',
    price: r ? String(r.price) : '',
    reminderEnabled: r?.reminderEnabled ?? true,
  });

  const validate = (v: FormValues) => ({
    provider: check.required(v.provider) ?? check.maxLength(v.provider, 100),
    policyNumber: check.maxLength(v.policyNumber, 50),
    coverageType: check.maxLength(v.coverageType, 50),
    startDate: check.date(v.startDate),
    endDate:
      check.date(v.endDate) ??
      (String(v.endDate) < String(v.startDate) ? t('insurance.endBeforeStart') : undefined),
    price: check.money(v.price),
  });

  const onSubmit = async (v: FormValues, key: (body: unknown) => string) => {
    const body = {
      vehicleId: Number(v.vehicleId),
      provider: String(v.provider).trim(),
      policyNumber: String(v.policyNumber).trim(),
      coverageType: String(v.coverageType).trim(),
      startDate: String(v.startDate),
      endDate: String(v.endDate),
      price: num(v.price) ?? 0,
      reminderEnabled: v.reminderEnabled === true,
    };
    if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.record.id, body });
    else await create.mutateAsync({ body, idempotencyKey: key(body) });
    setEditing(null);
  };

  const onDelete = async (r: Insurance) => {
    if (!window.confirm(t('insurance.confirmDelete'))) return;
    setActionError(null);
    try {
      await remove.mutateAsync(r.id);
    } catch (err) {
      setActionError(failure(err));
    }
  };

  const onToggle = async (r: Insurance) => {
    setActionError(null);
    try {
      await put.mutateAsync({ path: `${r.id}/toggle-reminder` });
    } catch (err) {
      setActionError(failure(err));
    }
  };

  return (
    <RecordsLayout
      scope={scope}
      section="insurance"
      addLabel={t('insurance.add')}
      onAdd={() => setEditing({ mode: 'add' })}
      errorText={failure}
      toolbar={actionError ? <Alert tone="error">{actionError}</Alert> : null}
      dialogs={
        editing ? (
          <RecordFormModal
            title={editing.mode === 'add' ? t('insurance.addTitle') : t('insurance.editTitle')}
            fields={fields}
            initial={initial(editing.mode === 'edit' ? editing.record : null)}
            validate={validate}
            onSubmit={onSubmit}
            failureText={failure}
            onClose={() => setEditing(null)}
          />
        ) : null
      }
    >
      {scope.rows.map(({ record: r, vehicle }) => {
        const owner = scope.isOwner(vehicle);
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{r.provider}</h2>
              {r.reminderEnabled ? (
                <Bell className="bell bell--on" size={20} role="img" aria-label={t('records.reminderOn')} />
              ) : (
                <BellOff className="bell" size={20} role="img" aria-label={t('records.reminderOff')} />
              )}
            </div>
            {!scope.single ? <VehicleTag vehicle={vehicle} /> : null}
            <dl className="facts">
              <div>
                <dt>{t('insurance.policyNumber')}</dt>
                <dd>{r.policyNumber || '—'}</dd>
              </div>
              <div>
                <dt>{t('insurance.coverage')}</dt>
                <dd>{r.coverageType || '—'}</dd>
              </div>
              <div className="facts__wide">
                <dt>{t('insurance.validity')}</dt>
                <dd>
                  {t('insurance.validFromUntil', { from: fmt.date(r.startDate), until: fmt.date(r.endDate) })}
                </dd>
              </div>
              <div>
                <dt>{t('insurance.price')}</dt>
                <dd className="amount">{fmt.money(r.price)}</dd>
              </div>
            </dl>
            {owner ? (
              <div className="record-card__actions">
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => void onToggle(r)}
                  aria-label={`${r.reminderEnabled ? t('insurance.stopReminder') : t('insurance.enableReminderBtn')}: ${r.provider}`}
                >
                  {r.reminderEnabled ? (
                    <BellOff size={16} aria-hidden="true" />
                  ) : (
                    <Bell size={16} aria-hidden="true" />
                  )}
                  {r.reminderEnabled ? t('insurance.stopReminder') : t('insurance.enableReminderBtn')}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => setEditing({ mode: 'edit', record: r })}
                  aria-label={t('insurance.editNamed', { name: r.provider })}
                >
                  <Pencil size={16} aria-hidden="true" />
                  {t('common.edit')}
                </button>
                <button
                  type="button"
                  className="btn btn--danger btn--small"
                  onClick={() => void onDelete(r)}
                  aria-label={t('insurance.deleteNamed', { name: r.provider })}
                >
                  <Trash2 size={16} aria-hidden="true" />
                  {t('common.delete')}
                </button>
              </div>
            ) : null}
          </li>
        );
      })}
    </RecordsLayout>
  );
}
