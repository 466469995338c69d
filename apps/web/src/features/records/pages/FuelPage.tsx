import { FUEL_TYPES, FuelBody, type FuelEntry } from '@evdra/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { AiSummaryPanel } from '../../../components/AiSummaryPanel';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { useRecordScope } from '../api';
import { RecordCardActions } from '../components/RecordCardActions';
import { type FieldDef, vehicleChoice } from '../components/RecordFormModal';
import { ownedVehicles, RecordsLayout, VehicleTag } from '../components/RecordsLayout';
import { useRecordActions } from '../useRecordActions';

/** Spec §5: an empty price per litre or odometer is sent as null. */
const FuelForm = FuelBody.transform((b) => ({
  ...b,
  pricePerLiter: b.pricePerLiter ?? null,
  odometer: b.odometer ?? null,
}));

function DateFilter({ onApply }: { onApply: (range: { from: string; to: string }) => void }) {
  const { t } = useTranslation();
  const fromId = useId();
  const toId = useId();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ from, to });
  };
  return (
    <form className="date-filter" onSubmit={submit} aria-label={t('fuel.dateFilter')}>
      <div className="field">
        <label className="field__label" htmlFor={fromId}>
          {t('fuel.from')}
        </label>
        <input
          id={fromId}
          className="input"
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={toId}>
          {t('fuel.to')}
        </label>
        <input id={toId} className="input" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <div className="date-filter__actions">
        <button type="submit" className="btn btn--secondary">
          {t('fuel.applyFilter')}
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            setFrom('');
            setTo('');
            onApply({ from: '', to: '' });
          }}
        >
          {t('fuel.clearFilter')}
        </button>
      </div>
    </form>
  );
}

export default function FuelPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const [range, setRange] = useState({ from: '', to: '' });
  const scope = useRecordScope<FuelEntry>('fuel', vehicleId, (r) => r.date, range);
  const failure = (err: unknown) => t('fuel.error', { message: errorText(err) });
  const actions = useRecordActions<FuelEntry>('fuel', { confirmDelete: t('fuel.confirmDelete'), failure });
  const owned = ownedVehicles(scope);

  const fields: FieldDef[] = [
    ...vehicleChoice(!scope.single && actions.adding, t('records.vehicle'), owned),
    { name: 'date', label: t('records.date'), type: 'date', pairWithNext: true },
    {
      name: 'fuelType',
      label: t('fuel.fuelType'),
      type: 'select',
      options: FUEL_TYPES.map((f) => ({ value: f, label: t(`fuelTypes.${f}`) })),
    },
    { name: 'liters', label: t('fuel.litres'), type: 'number', step: '0.01', pairWithNext: true },
    { name: 'fuelPrice', label: t('fuel.totalPaidEur'), type: 'number', step: '0.01' },
    {
      name: 'pricePerLiter',
      label: t('fuel.pricePerLitreEur'),
      type: 'number',
      step: '0.001',
      hint: t('fuel.optional'),
      pairWithNext: true,
    },
    { name: 'odometer', label: t('fuel.odometerKm'), type: 'number', step: '1', hint: t('fuel.optional') },
    { name: 'fullTank', label: t('fuel.fullTank'), type: 'checkbox' },
    { name: 'missedPrevious', label: t('fuel.missedPrevious'), type: 'checkbox' },
  ];

  const initial = (r: FuelEntry | null) => {
    const v = scope.vehicle ?? owned[0];
    return {
      vehicleId: r?.vehicleId ?? v?.id,
      date: r?.date ?? todayIso(),
      fuelType: r?.fuelType ?? v?.fuelType ?? 'PETROL',
      liters: r?.liters,
      fuelPrice: r?.fuelPrice,
      pricePerLiter: r?.pricePerLiter,
      odometer: r?.odometer,
      fullTank: r?.fullTank ?? true,
      missedPrevious: r?.missedPrevious ?? false,
    };
  };

  return (
    <RecordsLayout
      scope={scope}
      section="fuel"
      addLabel={t('fuel.add')}
      actions={actions}
      errorText={failure}
      toolbar={
        <>
          {scope.vehicle?.aiEvaluationConsent ? (
            <AiSummaryPanel
              path={`/ai-feedback/vehicle/${scope.vehicle.id}/fuel`}
              failureText={t('ai.summary.fuelFailed')}
            />
          ) : null}
          <DateFilter onApply={setRange} />
        </>
      }
      form={{
        addTitle: t('fuel.addTitle'),
        editTitle: t('fuel.editTitle'),
        fields,
        schema: FuelForm,
        initial,
      }}
    >
      {scope.rows.map(({ record: r, vehicle }) => {
        const name = fmt.date(r.date);
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{fmt.date(r.date)}</h2>
              <span className="amount amount--big">{fmt.money(r.fuelPrice)}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={vehicle} /> : null}
            <dl className="facts">
              <div>
                <dt>{t('fuel.fuelType')}</dt>
                <dd>{t(`fuelTypes.${r.fuelType}`)}</dd>
              </div>
              <div>
                <dt>{t('fuel.litresShort')}</dt>
                <dd>{t('fuel.litresValue', { value: fmt.number(r.liters) })}</dd>
              </div>
              <div>
                <dt>{t('fuel.totalPaid')}</dt>
                <dd className="amount">{fmt.money(r.fuelPrice)}</dd>
              </div>
              <div>
                <dt>{t('fuel.pricePerLitre')}</dt>
                <dd className="amount">
                  {r.pricePerLiter !== null ? `${fmt.money(r.pricePerLiter)}/L` : '—'}
                </dd>
              </div>
              <div>
                <dt>{t('fuel.odometer')}</dt>
                <dd>{r.odometer !== null ? t('vehicles.km', { value: fmt.int(r.odometer) }) : '—'}</dd>
              </div>
              <div>
                <dt>{t('fuel.fill')}</dt>
                <dd>{r.fullTank ? t('fuel.fullTankShort') : t('fuel.partial')}</dd>
              </div>
              <div>
                <dt>{t('fuel.consumption')}</dt>
                <dd>
                  {r.consumptionPer100km !== null
                    ? t('fuel.per100', { value: fmt.number(r.consumptionPer100km) })
                    : '—'}
                </dd>
              </div>
            </dl>
            {scope.isOwner(vehicle) ? (
              <RecordCardActions
                actions={actions}
                record={r}
                editLabel={t('fuel.editNamed', { name })}
                deleteLabel={t('fuel.deleteNamed', { name })}
              />
            ) : null}
          </li>
        );
      })}
    </RecordsLayout>
  );
}
