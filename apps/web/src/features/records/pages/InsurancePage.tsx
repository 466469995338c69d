import type { Insurance } from '@evdra/domain';
import { Bell, BellOff } from 'lucide-react';
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

export default function InsurancePage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const scope = useRecordScope<Insurance>('insurance', vehicleId, (r) => r.startDate);
  const failure = (err: unknown) => t('records.error', { message: errorText(err) });
  const actions = useRecordActions<Insurance>('insurance', {
    confirmDelete: t('insurance.confirmDelete'),
    failure,
  });
  const owned = ownedVehicles(scope);

  const fields: FieldDef[] = [
    ...vehicleChoice(!scope.single && actions.adding, t('records.vehicle'), owned),
    { name: 'provider', label: t('insurance.provider'), type: 'text' },
    { name: 'policyNumber', label: t('insurance.policyNumber'), type: 'text', pairWithNext: true },
    { name: 'coverageType', label: t('insurance.coverageType'), type: 'text' },
    { name: 'startDate', label: t('insurance.startDate'), type: 'date', pairWithNext: true },
    { name: 'endDate', label: t('insurance.endDate'), type: 'date' },
    { name: 'price', label: t('insurance.price'), type: 'number', step: '0.01', measure: 'money' },
    { name: 'currency', label: t('units.currency'), type: 'currency' },
    { name: 'reminderEnabled', label: t('insurance.enableReminder'), type: 'checkbox' },
  ];

  const initial = (r: Insurance | null) => ({
    vehicleId: r?.vehicleId ?? scope.vehicle?.id ?? owned[0]?.id,
    provider: r?.provider ?? '',
    policyNumber: r?.policyNumber ?? '',
    coverageType: r?.coverageType ?? '',
    startDate: r?.startDate ?? todayIso(),
    endDate: r?.endDate ?? '',
    price: r?.price,
    reminderEnabled: r?.reminderEnabled ?? true,
    ...recordMoney(r),
  });

  return (
    <RecordsLayout
      scope={scope}
      section="insurance"
      addLabel={t('insurance.add')}
      actions={actions}
      errorText={failure}
      form={{
        addTitle: t('insurance.addTitle'),
        editTitle: t('insurance.editTitle'),
        fields,
        schema: 'insurance',
        initial,
      }}
      card={({ record: r, vehicle }) => {
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
            <CreatedBy row={{ record: r, vehicle }} />
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
                <dd className="amount">{fmt.money(r.price, currencyOf(r, fmt.currency))}</dd>
              </div>
            </dl>
            {owner ? (
              <RecordCardActions
                actions={actions}
                record={r}
                editLabel={t('insurance.editNamed', { name: r.provider })}
                deleteLabel={t('insurance.deleteNamed', { name: r.provider })}
              >
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => void actions.toggleReminder(r)}
                  aria-label={`${r.reminderEnabled ? t('insurance.stopReminder') : t('insurance.enableReminderBtn')}: ${r.provider}`}
                >
                  {r.reminderEnabled ? (
                    <BellOff size={16} aria-hidden="true" />
                  ) : (
                    <Bell size={16} aria-hidden="true" />
                  )}
                  {r.reminderEnabled ? t('insurance.stopReminder') : t('insurance.enableReminderBtn')}
                </button>
              </RecordCardActions>
            ) : null}
          </li>
        );
      }}
    />
  );
}
