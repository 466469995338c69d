import type { Revision } from '@evdra/domain';
import { Bell, BellOff } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { currencyOf } from '../../../lib/units';
import { useRecordScope } from '../api';
import { RecordCardActions } from '../components/RecordCardActions';
import { CreatedBy, ownedVehicles, RecordsLayout, VehicleTag } from '../components/RecordsLayout';
import { type FieldDef, recordMoney, vehicleChoice } from '../components/recordFields';
import { useRecordActions } from '../useRecordActions';

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
  const failure = (err: unknown) => t('records.error', { message: errorText(err) });
  const actions = useRecordActions<Revision>('revision', {
    confirmDelete: t('revisions.confirmDelete'),
    failure,
  });
  const owned = ownedVehicles(scope);

  const fields: FieldDef[] = [
    ...vehicleChoice(!scope.single && actions.adding, t('records.vehicle'), owned),
    { name: 'date', label: t('records.date'), type: 'date', pairWithNext: true },
    { name: 'km', label: t('revisions.km'), type: 'number', step: '1', measure: 'distance' },
    { name: 'price', label: t('units.price'), type: 'number', step: '0.01', measure: 'money' },
    { name: 'currency', label: t('units.currency'), type: 'currency' },
    { name: 'description', label: t('records.description'), type: 'textarea' },
    { name: 'reminderEnabled', label: t('revisions.enableReminder'), type: 'checkbox' },
  ];

  const initial = (r: Revision | null) => {
    const v = scope.vehicle ?? owned[0];
    return {
      vehicleId: r?.vehicleId ?? v?.id,
      date: r?.date ?? todayIso(),
      km: r?.km ?? v?.odometer,
      price: r?.price,
      description: r?.description ?? '',
      reminderEnabled: r?.reminderEnabled ?? true,
      ...recordMoney(r),
    };
  };

  return (
    <RecordsLayout
      scope={scope}
      section="revisions"
      addLabel={t('revisions.add')}
      actions={actions}
      errorText={failure}
      form={{
        addTitle: t('revisions.addTitle'),
        editTitle: t('revisions.editTitle'),
        fields,
        schema: 'revision',
        initial,
      }}
      card={({ record: r, vehicle }) => {
        const name = fmt.date(r.date);
        const owner = scope.isOwner(vehicle);
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{fmt.date(r.date)}</h2>
              <span className="amount amount--big">{fmt.money(r.price, currencyOf(r, fmt.currency))}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={vehicle} /> : null}
            <CreatedBy row={{ record: r, vehicle }} />
            <dl className="facts">
              <div>
                <dt>{t('revisions.km')}</dt>
                <dd>{fmt.distance(r.km)}</dd>
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
                    await actions.put.mutateAsync({
                      path: `${r.id}/manual-reminder`,
                      body: { reminderDate: date },
                    });
                  }}
                />
                <RecordCardActions
                  actions={actions}
                  record={r}
                  editLabel={t('revisions.editNamed', { name })}
                  deleteLabel={t('revisions.deleteNamed', { name })}
                >
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    role="switch"
                    aria-checked={r.reminderEnabled}
                    onClick={() => void actions.toggleReminder(r)}
                    aria-label={t('revisions.reminderFor', { name })}
                  >
                    {r.reminderEnabled ? (
                      <BellOff size={16} aria-hidden="true" />
                    ) : (
                      <Bell size={16} aria-hidden="true" />
                    )}
                    {r.reminderEnabled ? t('revisions.turnOff') : t('revisions.turnOn')}
                  </button>
                </RecordCardActions>
              </>
            ) : null}
          </li>
        );
      }}
    />
  );
}
