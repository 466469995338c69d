import { DISTANCE_SIGNS, type FuelEntry, type FuelType, storedToDistance, type Vehicle } from '@evdra/domain';
import type { QueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { AiSummaryPanel } from '../../../components/AiSummaryPanel';
import type { Column } from '../../../components/DataTable';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { ownUnit, vehicleFuels } from '../../../lib/fuels';
import { currencyOf } from '../../../lib/units';
import { prefetchRecordScope, type Row, useRecordScope } from '../api';
import { RecordCardActions } from '../components/RecordCardActions';
import {
  CreatedBy,
  ownedVehicles,
  RecordsLayout,
  VehicleTag,
  vehicleColumn,
} from '../components/RecordsLayout';
import { type FieldDef, recordMoney, vehicleChoice } from '../components/recordFields';
import { useRecordActions } from '../useRecordActions';

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

/** The first data of a vehicle's page, fetched as soon as this chunk arrives (app/routes.tsx). */
export function prefetch(client: QueryClient, params: { vehicleId?: string }): Promise<unknown> {
  return prefetchRecordScope(client, 'fuel', params.vehicleId);
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
  // The fill's vehicle: the one chosen in the form (all vehicles), else the page's.
  const vehicleOf = (v: Record<string, unknown>): Vehicle | undefined =>
    owned.find((x) => x.id === Number(v.vehicleId)) ?? scope.vehicle ?? owned[0];
  const fuelsOf = (v: Record<string, unknown>): FuelType[] => vehicleFuels(vehicleOf(v));
  const twoFuels = (v: Record<string, unknown>) => fuelsOf(v).length > 1;
  /** "Price per litre", "Price per kWh", "Price per kg": a fill's price in its own unit. */
  const priceLabel = (fuelType: string | undefined) => {
    const own = ownUnit(fuelType);
    return own === 'kWh'
      ? t('fuel.pricePerKwh')
      : own === 'kg'
        ? t('fuel.pricePerKg')
        : t('units.pricePer', { unit: t(`units.volumeName.${fmt.units.volumeUnit}`) });
  };

  const fields: FieldDef[] = [
    ...vehicleChoice(!scope.single && actions.adding, t('records.vehicle'), owned),
    { name: 'date', label: t('records.date'), type: 'date', pairWithNext: true },
    {
      // Issue 51: which of the vehicle's two fuels this fill is (the primary first); a vehicle with
      // one fuel has no picker, its fills are of that fuel.
      name: 'fuelType',
      label: t('fuel.fuelType'),
      type: 'select',
      optionsFor: (v) => fuelsOf(v).map((f) => ({ value: f, label: t(`fuelTypes.${f}`) })),
      shownWhen: twoFuels,
    },
    {
      name: 'liters',
      label: t('fuel.litres'),
      // Litres or gallons, a charge's kWh, CNG's kg: the label names what is typed.
      labelFor: (v) => {
        const own = ownUnit(String(v.fuelType));
        return own === 'kWh'
          ? t('fuel.kwh')
          : own === 'kg'
            ? t('fuel.kg')
            : fmt.units.volumeUnit === 'L'
              ? t('fuel.litres')
              : t(`units.volumeField.${fmt.units.volumeUnit}`);
      },
      type: 'number',
      step: '0.01',
      measure: 'volume',
      pairWithNext: true,
    },
    { name: 'fuelPrice', label: t('fuel.totalPaid'), type: 'number', step: '0.01', measure: 'money' },
    { name: 'currency', label: t('units.currency'), type: 'currency' },
    {
      name: 'pricePerLiter',
      label: t('fuel.pricePerLitre'),
      labelFor: (v) => priceLabel(String(v.fuelType)),
      type: 'number',
      step: '0.001',
      measure: 'pricePerVolume',
      hint: t('fuel.optional'),
      pairWithNext: true,
    },
    {
      name: 'odometer',
      label: t('fuel.odometer'),
      type: 'number',
      step: '1',
      measure: 'distance',
      hint: t('fuel.optional'),
    },
    {
      // Issue 51: the trip counter since the last fill of this fuel replaces the estimate.
      name: 'distanceOnThisFuel',
      label: t('fuel.distanceOnThisFuel'),
      type: 'number',
      step: '1',
      measure: 'distance',
      hint: t('fuel.distanceOnThisFuelHint'),
      shownWhen: twoFuels,
    },
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
      ...(vehicleFuels(v).length > 1 ? { distanceOnThisFuel: r?.distanceOnThisFuel ?? undefined } : {}),
      fullTank: r?.fullTank ?? true,
      missedPrevious: r?.missedPrevious ?? false,
      ...recordMoney(r),
    };
  };

  const ownerActions = ({ record: r, vehicle }: Row<FuelEntry>) =>
    scope.isOwner(vehicle) ? (
      <RecordCardActions
        actions={actions}
        record={r}
        editLabel={t('fuel.editNamed', { name: fmt.date(r.date) })}
        deleteLabel={t('fuel.deleteNamed', { name: fmt.date(r.date) })}
      />
    ) : null;
  // A charge (ELECTRIC) keeps kWh in `liters`, CNG kg: every figure says so, each fill in its own
  // fuel's unit (issue 51). Amounts in the fill's own currency; litres, km and consumption in the
  // reader's units.
  const own = (r: FuelEntry) => ownUnit(r.fuelType);
  const paid = (r: FuelEntry) => fmt.money(r.fuelPrice, currencyOf(r, fmt.currency));
  const litres = (r: FuelEntry) => fmt.volume(r.liters, own(r));
  const perLitre = (r: FuelEntry) =>
    r.pricePerLiter !== null ? fmt.pricePerVolume(r.pricePerLiter, currencyOf(r, fmt.currency), own(r)) : '—';
  const odometer = (r: FuelEntry) => (r.odometer !== null ? fmt.distance(r.odometer) : '—');
  const fill = (r: FuelEntry) => (r.fullTank ? t('fuel.fullTankShort') : t('fuel.partial'));
  const consumption = (r: FuelEntry) => fmt.consumption(r.consumptionPer100km, own(r));
  const columns: Column<Row<FuelEntry>>[] = [
    {
      label: t('records.date'),
      cell: (row) => (
        <>
          {fmt.date(row.record.date)}
          <CreatedBy row={row} />
        </>
      ),
    },
    ...vehicleColumn(scope, t('records.vehicle')),
    { label: t('fuel.fuelType'), cell: ({ record: r }) => t(`fuelTypes.${r.fuelType}`) },
    {
      // A full tank is the rule: the table marks only partial fills (saves a column at 1024 px).
      label: t('fuel.litresShort'),
      numeric: true,
      cell: ({ record: r }) => (
        <>
          {litres(r)}
          {r.fullTank ? null : <span className="table__note">{t('fuel.partial')}</span>}
        </>
      ),
    },
    { label: t('fuel.totalPaid'), numeric: true, cell: ({ record: r }) => paid(r) },
    {
      // One vehicle of one fuel: its price's unit; two fuels or all vehicles: each cell names its own.
      label:
        scope.vehicle && vehicleFuels(scope.vehicle).length === 1
          ? priceLabel(scope.vehicle.fuelType)
          : t('fuel.pricePerUnit'),
      numeric: true,
      cell: ({ record: r }) => perLitre(r),
    },
    {
      label: t('units.withSign', { label: t('fuel.odometer'), sign: DISTANCE_SIGNS[fmt.units.distanceUnit] }),
      numeric: true,
      // The header names the unit: the cells are numbers.
      cell: ({ record: r }) =>
        r.odometer !== null ? fmt.int(storedToDistance(r.odometer, fmt.units.distanceUnit)) : '—',
    },
    {
      label: t('fuel.consumption'),
      numeric: true,
      cell: ({ record: r }) => consumption(r),
    },
    { label: t('records.actions'), cell: ownerActions },
  ];

  return (
    <RecordsLayout
      scope={scope}
      section="fuel"
      addLabel={t('fuel.add')}
      actions={actions}
      errorText={failure}
      columns={columns}
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
        schema: 'fuel',
        initial,
      }}
      card={(row) => {
        const r = row.record;
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{fmt.date(r.date)}</h2>
              <span className="amount amount--big">{paid(r)}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={row.vehicle} /> : null}
            <CreatedBy row={row} />
            <dl className="facts">
              <div>
                <dt>{t('fuel.fuelType')}</dt>
                <dd>{t(`fuelTypes.${r.fuelType}`)}</dd>
              </div>
              <div>
                <dt>{t('fuel.litresShort')}</dt>
                <dd>{litres(r)}</dd>
              </div>
              <div>
                <dt>{t('fuel.totalPaid')}</dt>
                <dd className="amount">{paid(r)}</dd>
              </div>
              <div>
                <dt>{priceLabel(r.fuelType)}</dt>
                <dd className="amount">{perLitre(r)}</dd>
              </div>
              <div>
                <dt>{t('fuel.odometer')}</dt>
                <dd>{odometer(r)}</dd>
              </div>
              <div>
                <dt>{t('fuel.fill')}</dt>
                <dd>{fill(r)}</dd>
              </div>
              <div>
                <dt>{t('fuel.consumption')}</dt>
                <dd>{consumption(r)}</dd>
              </div>
            </dl>
            {ownerActions(row)}
          </li>
        );
      }}
    />
  );
}
