import type { Revision } from '@evdra/domain';
import { Bell, BellOff, Pencil, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert } from '../../../components/Card';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { useRecordMutations, useRecordScope } from '../api';
import { type FieldDef, type FormValues, RecordFormModal } from '../components/RecordFormModal';
import { ownedVehicles, RecordsLayout, VehicleTag } from '../components/RecordsLayout';
import { makeChecks, num } from '../validation';

type Editing = { mode: 'add' } | { mode: 'edit'; record: Revision } | null;

/**
 * Next-revision date of one revision: saved on blur or Enter, only when it changed and is not
 * empty (spec §5).
 */
export function ReminderDateInput({
  revision,
  label,
  onSave,
}: {
  revision: Revision;
  label: string;
  onSave: (date: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const saved = revision.manualReminderDate ?? '';
  const [value, setValue] = useState(saved);
  const [lastSaved, setLastSaved] = useState(saved);

  const commit = async () => {
    if (!value || value === lastSaved) return;
    setLastSaved(value);
    try {
      await onSave(value);
    } catch {
      setLastSaved(saved);
      window.alert(t('revisions.reminderFailed'));
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void commit();
    }
  };

  return (
    <div className="field reminder-date">
      <label className="field__label" htmlFor={id}>
        {t('revisions.nextRevision')}
      </label>
      <input
        id={id}
        className="input"
        type="date"
        value={value}
        aria-label={label}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

export default function RevisionPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const scope = useRecordScope<Revision>('revision', vehicleId, (r) => r.date);
  const { create, update, remove, put } = useRecordMutations<Revision>('revision');
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
    { name: 'date', label: t('records.date'), type: 'date', pairWithNext: true },
    { name: 'km', label: t('revisions.kmLabel'), type: 'number', step: '1' },
    { name: 'price', label: t('revisions.priceEur'), type: 'number', step: '0.01' },
    { name: 'description', label: t('records.description'), type: 'textarea' },
    { name: 'reminderEnabled', label: t('revisions.enableReminder'), type: 'checkbox' },
  ];

  const initial = (r: Revision | null): FormValues => {
    const v = scope.vehicle ?? owned[0];
    return {
      vehicleId: String(v?.id ?? ''),
      date: r?.date ?? todayIso(),
      km: r ? String(r.km) : v ? String(v.odometer) : '',
      price: r ? String(r.price) : '',
      description: r?.description ?? '',
      reminderEnabled: r?.reminderEnabled ?? true,
    };
  };

  const validate = (v: FormValues) => ({
    date: check.date(v.date),
    km: check.wholeKm(v.km, true),
    price: check.money(v.price),
    description: check.maxLength(v.description, 500),
  });

  const onSubmit = async (v: FormValues, key: (body: unknown) => string) => {
    const body = {
      vehicleId: Number(v.vehicleId),
      date: String(v.date),
      km: num(v.km) ?? 0,
      price: num(v.price) ?? 0,
      description: String(v.description).trim(),
      reminderEnabled: v.reminderEnabled === true,
    };
    if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.record.id, body });
    else await create.mutateAsync({ body, idempotencyKey: key(body) });
    setEditing(null);
  };

  const onDelete = async (r: Revision) => {
    if (!window.confirm(t('revisions.confirmDelete'))) return;
    setActionError(null);
    try {
      await remove.mutateAsync(r.id);
    } catch (err) {
      setActionError(failure(err));
    }
  };

  const onToggle = async (r: Revision) => {
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
      section="revisions"
      addLabel={t('revisions.add')}
      onAdd={() => setEditing({ mode: 'add' })}
      errorText={failure}
      toolbar={actionError ? <Alert tone="error">{actionError}</Alert> : null}
      dialogs={
        editing ? (
          <RecordFormModal
            title={editing.mode === 'add' ? t('revisions.addTitle') : t('revisions.editTitle')}
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
        const name = fmt.date(r.date);
        const owner = scope.isOwner(vehicle);
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{fmt.date(r.date)}</h2>
              <span className="amount amount--big">{fmt.money(r.price)}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={vehicle} /> : null}
            <dl className="facts">
              <div>
                <dt>{t('revisions.km')}</dt>
                <dd>{t('vehicles.km', { value: fmt.int(r.km) })}</dd>
              </div>
              <div>
                <dt>{t('revisions.reminder')}</dt>
                <dd>
                  {r.reminderEnabled ? (
                    <span className="status status--on">
                      <Bell size={16} aria-hidden="true" />
                      {t('revisions.on')}
                    </span>
                  ) : (
                    <span className="status">
                      <BellOff size={16} aria-hidden="true" />
                      {t('revisions.off')}
                    </span>
                  )}
                </dd>
              </div>
              {!owner ? (
                <div>
                  <dt>{t('revisions.nextRevision')}</dt>
                  <dd>{r.manualReminderDate ? fmt.date(r.manualReminderDate) : '—'}</dd>
                </div>
              ) : null}
            </dl>
            {r.description ? <p className="record-card__text">{r.description}</p> : null}
            {owner ? (
              <>
                <ReminderDateInput
                  key={`${r.id}-${r.manualReminderDate ?? ''}`}
                  revision={r}
                  label={t('revisions.nextRevisionFor', { name })}
                  onSave={async (date) => {
                    await put.mutateAsync({ path: `${r.id}/manual-reminder`, body: { reminderDate: date } });
                  }}
                />
                <div className="record-card__actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    role="switch"
                    aria-checked={r.reminderEnabled}
                    onClick={() => void onToggle(r)}
                    aria-label={t('revisions.reminderFor', { name })}
                  >
                    {r.reminderEnabled ? (
                      <BellOff size={16} aria-hidden="true" />
                    ) : (
                      <Bell size={16} aria-hidden="true" />
                    )}
                    {r.reminderEnabled ? t('revisions.turnOff') : t('revisions.turnOn')}
                  </button>
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    onClick={() => setEditing({ mode: 'edit', record: r })}
                    aria-label={t('revisions.editNamed', { name })}
                  >
                    <Pencil size={16} aria-hidden="true" />
                    {t('common.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn btn--danger btn--small"
                    onClick={() => void onDelete(r)}
                    aria-label={t('revisions.deleteNamed', { name })}
                  >
                    <Trash2 size={16} aria-hidden="true" />
                    {t('common.delete')}
                  </button>
                </div>
              </>
            ) : null}
          </li>
        );
      })}
    </RecordsLayout>
  );
}
