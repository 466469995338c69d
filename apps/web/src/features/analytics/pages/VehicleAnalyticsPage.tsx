import {
  type AllTimeTotals,
  type CostTotals,
  DISTANCE_SIGNS,
  distanceToKm,
  type FuelSplit,
  type MonthlyAnalytics,
  monthLabel,
  SHOWN_DECIMALS,
  type YearlyAnalytics,
} from '@evdra/domain';
import { ArrowLeft } from 'lucide-react';
import { createContext, useContext, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { AiSummaryPanel } from '../../../components/AiSummaryPanel';
import { Alert, PageCard } from '../../../components/Card';
import { SearchBox } from '../../../components/SearchBox';
import { ApiError, errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { ownUnit } from '../../../lib/fuels';
import { getStoredUser } from '../../../lib/session';
import { currencyOf } from '../../../lib/units';
import { useAnalyticsVehicle, useMonthlyAnalytics, useTotalAnalytics, useYearlyAnalytics } from '../api';
import { AnalyticsSection } from '../components/AnalyticsSection';
import {
  CategoryBarChart,
  FuelLinesChart,
  LineChart,
  MonthBarChart,
  MonthPieChart,
} from '../components/Charts';
import { type CostColumn, CostTable, costColumns } from '../components/CostTable';
import { FuelTotals } from '../components/FuelTotals';
import { ReportPanel } from '../components/ReportPanel';
import '../analytics.css';

/** An ELECTRIC vehicle's charges keep kWh in the litres fields: its quantities read in kWh. */
const Electric = createContext(false);

function useQuantity() {
  const { t } = useTranslation();
  const f = useFormat();
  const electric = useContext(Electric);
  return {
    label: electric
      ? t('analytics.energyKwh')
      : t('units.fuelVolume', { unit: t(`units.volumePlural.${f.units.volumeUnit}`) }),
    value: (n: number) => f.volume(n, electric),
  };
}

function Totals({ totals }: { totals: AllTimeTotals }) {
  const { t } = useTranslation();
  const f = useFormat();
  const quantity = useQuantity();
  // The answer says its currency (the reader's unless asked for another).
  const currency = currencyOf(totals, f.currency);
  const money = (v: number) => f.money(v, currency);
  // A two-fuel vehicle (issue 51): each fuel's quantity in its own unit, never litres and kWh added.
  const split = totals.byFuel && totals.byFuel.length > 1 ? totals.byFuel : null;
  const quantities = split
    ? split.map((s) => ({
        label: t(`fuelTypes.${s.fuelType}`),
        value: f.volume(s.quantity, ownUnit(s.fuelType)),
      }))
    : [{ label: quantity.label, value: quantity.value(totals.totalFuelLiters) }];
  const items: { label: string; value: string; total?: boolean }[] = [
    ...quantities,
    { label: t('analytics.fuel'), value: money(totals.totalFuelCost) },
    { label: t('analytics.expenses'), value: money(totals.totalExpensesCost) },
    { label: t('analytics.insurance'), value: money(totals.totalInsuranceCost) },
    { label: t('analytics.revisions'), value: money(totals.totalRevisionCost) },
    { label: t('analytics.total'), value: money(totals.totalCost), total: true },
    { label: t('units.distanceDriven'), value: f.distance(totals.totalKm) },
    {
      label: t('units.costPer', { unit: DISTANCE_SIGNS[f.units.distanceUnit] }),
      value:
        totals.costPerKm === null
          ? '—'
          : // A cost per km is a cost per mile times the km in a mile.
            `${money(totals.costPerKm * distanceToKm(1, f.units.distanceUnit))}/${DISTANCE_SIGNS[f.units.distanceUnit]}`,
    },
  ];
  return (
    <ul className="stat-grid">
      {items.map((i) => (
        <li key={i.label} className={`stat${i.total ? ' stat--total' : ''}`}>
          <span className="stat__label">{i.label}</span>
          <span className="stat__value">{i.value}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One consumption line per fuel (issue 51) over `periods`: each named with its own unit ("LPG
 * (L/100 km)", "Electric (kWh/100 km)"), its figures in the reader's unit (null: no span closed).
 */
function useFuelLines(
  fuels: FuelSplit[],
  periods: { byFuel?: FuelSplit[] | undefined }[],
): { name: string; values: (number | null)[]; format: (v: number) => string }[] {
  const { t } = useTranslation();
  const f = useFormat();
  return fuels.map((s) => {
    const own = ownUnit(s.fuelType);
    return {
      name: t('analytics.fuelWithUnit', { fuel: t(`fuelTypes.${s.fuelType}`), unit: f.consumptionSign(own) }),
      values: periods.map((p) =>
        f.consumptionValue(p.byFuel?.find((x) => x.fuelType === s.fuelType)?.per100km ?? null, own),
      ),
      // The value is already in the reader's unit: written with its sign only.
      format: (v: number) => `${f.number(v, SHOWN_DECIMALS.consumption)} ${f.consumptionSign(own)}`,
    };
  });
}

/**
 * A two-fuel vehicle's consumption (issue 51): one cost per km as the headline (exact whatever the
 * fuel), one figure per fuel ("LPG 9.8 L/100 km + petrol 0.6 L/100 km") over the distance driven,
 * which is an estimate unless fills give their trip distance, and one line per fuel by year.
 */
function FuelSplitPanel({ totals, yearly }: { totals: AllTimeTotals; yearly: YearlyAnalytics }) {
  const { t } = useTranslation();
  const f = useFormat();
  const split = totals.byFuel ?? [];
  const currency = currencyOf(totals, f.currency);
  const unit = DISTANCE_SIGNS[f.units.distanceUnit];
  const perDistance =
    totals.costPerKm === null
      ? '—'
      : `${f.money(totals.costPerKm * distanceToKm(1, f.units.distanceUnit), currency)}/${unit}`;
  const figure = (s: FuelSplit) =>
    t('analytics.fuelFigure', {
      fuel: t(`fuelNames.${s.fuelType}`),
      value: f.consumption(s.per100km, ownUnit(s.fuelType)),
    });
  const years = Object.keys(yearly)
    .filter((k) => /^\d{4}$/.test(k))
    .sort();
  const lines = useFuelLines(
    split,
    years.map((y) => (yearly[y] as { byFuel?: FuelSplit[] } | undefined) ?? {}),
  );
  return (
    <div className="fuel-split" data-testid="fuel-split">
      <p className="stat stat--total">
        <span className="stat__label">{t('units.costPer', { unit })}</span>
        <span className="stat__value">{perDistance}</span>
      </p>
      <p className="fuel-split__figures">{split.map(figure).join(' + ')}</p>
      <FuelTotals fuels={split} currency={currency} />
      <p className="muted fuel-split__note">{t('analytics.distanceEstimated')}</p>
      {years.length ? (
        <FuelLinesChart label={t('analytics.byFuelChart')} labels={years} series={lines} />
      ) : null}
    </div>
  );
}

/** A two-fuel vehicle's consumption month by month, one line per fuel (issue 51). */
function MonthlyFuelLines({ fuels, months }: { fuels: FuelSplit[]; months: MonthlyAnalytics[] }) {
  const { t } = useTranslation();
  const lines = useFuelLines(fuels, months);
  const title = t('analytics.byFuelMonthChart');
  return (
    <>
      <h3 className="analytics__chart-title">{title}</h3>
      <FuelLinesChart label={title} labels={months.map((m) => monthLabel(m.monthDate))} series={lines} />
    </>
  );
}

type YearRow = { year: string; totals: CostTotals };

function Yearly({ yearly }: { yearly: YearlyAnalytics }) {
  const { t } = useTranslation();
  const f = useFormat();
  const quantity = useQuantity();
  // Only the years: an answer may also say its currency beside them.
  const years = Object.keys(yearly)
    .filter((k) => /^\d{4}$/.test(k))
    .sort();
  const rows: YearRow[] = years.map((year) => ({
    year,
    totals: yearly[year] as NonNullable<YearlyAnalytics[string]>,
  }));
  if (years.length === 0) return null;
  // A two-fuel vehicle (issue 51): a column per fuel in its own unit, never litres and kWh added.
  const splitOf = (r: YearRow) => (r.totals as { byFuel?: FuelSplit[] }).byFuel ?? [];
  const fuels = [...new Set(rows.flatMap((r) => splitOf(r).map((s) => s.fuelType)))];
  const quantityColumns: CostColumn<YearRow>[] =
    fuels.length > 1
      ? fuels.map((fuel) => ({
          label: t(`fuelTypes.${fuel}`),
          numeric: true,
          cell: (r: YearRow) => {
            const s = splitOf(r).find((x) => x.fuelType === fuel);
            return s ? f.volume(s.quantity, ownUnit(fuel)) : '—';
          },
        }))
      : [{ label: quantity.label, numeric: true, cell: (r) => quantity.value(r.totals.totalFuelLiters) }];
  const columns: CostColumn<YearRow>[] = [
    { label: t('analytics.year'), cell: (r) => <strong>{r.year}</strong> },
    ...quantityColumns,
    ...costColumns<YearRow>(
      t,
      (v) => f.money(v, currencyOf(rows[0]?.totals, f.currency)),
      ({ totals: r }) => ({
        fuel: r.totalFuelCost,
        expenses: r.totalExpensesCost,
        insurance: r.totalInsuranceCost,
        revisions: r.totalRevisionCost,
        total: r.totalCost,
      }),
    ),
  ];
  return (
    <>
      <CategoryBarChart
        labels={years}
        rows={rows.map((r) => r.totals)}
        label={t('analytics.yearlyChart')}
        stacked
      />
      <CostTable
        caption={t('analytics.yearlyHeading')}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.year}
      />
    </>
  );
}

function MonthCard({ month }: { month: MonthlyAnalytics }) {
  const { t } = useTranslation();
  const f = useFormat();
  const quantity = useQuantity();
  const label = monthLabel(month.monthDate);
  const headingId = useId();
  const currency = currencyOf(month, f.currency);
  const money = (v: number) => f.money(v, currency);
  const fuelsFilled = month.byFuel && month.byFuel.length > 1 ? month.byFuel.filter((s) => s.fills > 0) : [];
  return (
    <li className="month-card" aria-labelledby={headingId}>
      <div className="month-card__header">
        <h3 className="month-card__title" id={headingId}>
          {label}
        </h3>
        <span className="month-card__total">{money(month.totalCost)}</span>
      </div>
      <dl className="month-card__values">
        <div>
          <dt>{t('analytics.fuel')}</dt>
          <dd>{money(month.totalFuelCost)}</dd>
        </div>
        {fuelsFilled.length ? (
          // A two-fuel vehicle (issue 51): each fuel filled that month in its own unit, never added.
          fuelsFilled.map((s) => (
            <div key={s.fuelType}>
              <dt>{t(`fuelTypes.${s.fuelType}`)}</dt>
              <dd>{f.volume(s.quantity, ownUnit(s.fuelType))}</dd>
            </div>
          ))
        ) : (
          <div>
            <dt>{quantity.label}</dt>
            <dd>{quantity.value(month.totalFuelLiters)}</dd>
          </div>
        )}
        <div>
          <dt>{t('analytics.expenses')}</dt>
          <dd>{money(month.totalExpensesCost)}</dd>
        </div>
        <div>
          <dt>{t('analytics.insurance')}</dt>
          <dd>{money(month.totalInsuranceCost)}</dd>
        </div>
        <div>
          <dt>{t('analytics.revisions')}</dt>
          <dd>{money(month.totalRevisionCost)}</dd>
        </div>
      </dl>
      <div className="month-card__charts">
        <MonthBarChart row={month} label={t('analytics.monthBarChart', { month: label })} />
        <MonthPieChart row={month} label={t('analytics.monthPieChart', { month: label })} />
      </div>
    </li>
  );
}

function Months({ months }: { months: MonthlyAnalytics[] }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  // Newest first whatever order the server used; the search matches the US-English label.
  const shown = useMemo(
    () =>
      [...months]
        .sort((a, b) => b.monthDate.localeCompare(a.monthDate))
        .filter((m) => !q || monthLabel(m.monthDate).toLowerCase().includes(q)),
    [months, q],
  );
  return (
    <>
      <SearchBox
        label={t('analytics.searchMonth')}
        placeholder={t('analytics.searchMonthPlaceholder')}
        value={query}
        onValueChange={setQuery}
      />
      {shown.length === 0 ? (
        <p className="muted" role="status">
          {t('analytics.noMonthMatch', { query: query.trim() })}
        </p>
      ) : (
        <ul className="month-grid" aria-label={t('analytics.monthsHeading')}>
          {shown.map((m) => (
            <MonthCard key={m.id} month={m} />
          ))}
        </ul>
      )}
    </>
  );
}

/** Share links are the owner's (an admin may manage them too). */
function isOwner(ownerId: number): boolean {
  const user = getStoredUser();
  return !!user && (user.id === ownerId || user.role === 'ADMIN');
}

/**
 * Costs of one vehicle (spec §2 "Analytics for a vehicle"): all-time totals, yearly chart and
 * table, monthly line chart, and searchable month cards, newest first.
 */
export default function VehicleAnalyticsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { vehicleId = '' } = useParams();
  const vehicle = useAnalyticsVehicle(vehicleId);
  const monthly = useMonthlyAnalytics(vehicleId);
  const total = useTotalAnalytics(vehicleId);
  const yearly = useYearlyAnalytics(vehicleId);

  const back = (
    <button
      type="button"
      className="btn btn--secondary btn--small analytics__back"
      onClick={() => navigate('/vehicles')}
    >
      <ArrowLeft size={16} aria-hidden="true" />
      {t('common.back')}
    </button>
  );

  const notFound = [vehicle, monthly, total, yearly].some(
    (q) => q.error instanceof ApiError && q.error.status === 404,
  );
  if (notFound) {
    return (
      <>
        {back}
        <PageCard title={t('analytics.notFound')}>
          <p>{t('analytics.notFoundBody')}</p>
          <Link to="/vehicles">{t('analytics.backToVehicles')}</Link>
        </PageCard>
      </>
    );
  }

  const v = vehicle.data;
  const title = v ? t('analytics.vehicleTitle', { make: v.make, model: v.model }) : t('analytics.title');
  const loading = vehicle.isPending || monthly.isPending || total.isPending || yearly.isPending;
  const failed = [vehicle, monthly, total, yearly].find((q) => q.isError)?.error;
  const months = monthly.data ?? [];
  const chronological = [...months].sort((a, b) => a.monthDate.localeCompare(b.monthDate));

  return (
    <>
      {back}
      <PageCard title={title}>
        {v ? <ReportPanel vehicleId={v.id} owner={isOwner(v.ownerId)} /> : null}
        {v?.aiEvaluationConsent ? (
          <AiSummaryPanel
            path={`/ai-feedback/vehicle/${v.id}/performance`}
            failureText={t('ai.summary.performanceFailed')}
          />
        ) : null}
        {loading && !failed ? (
          <div className="page-loading">
            <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
            <p className="muted">{t('analytics.loading')}</p>
          </div>
        ) : null}
        {failed ? <Alert tone="error">{t('analytics.error', { message: errorText(failed) })}</Alert> : null}
        {!loading && !failed && months.length === 0 ? (
          <div className="empty-state">
            <p>{t('analytics.empty')}</p>
            <p className="muted">{t('analytics.emptyHint')}</p>
          </div>
        ) : null}
        {!loading && !failed && months.length > 0 && total.data && yearly.data ? (
          <Electric.Provider value={v?.fuelType === 'ELECTRIC'}>
            <div className="analytics">
              {(total.data.byFuel?.length ?? 0) > 1 ? (
                <AnalyticsSection id="analytics-fuels" title={t('analytics.byFuelHeading')}>
                  <FuelSplitPanel totals={total.data} yearly={yearly.data} />
                </AnalyticsSection>
              ) : null}
              <AnalyticsSection id="analytics-totals" title={t('analytics.totalsHeading')}>
                <Totals totals={total.data} />
              </AnalyticsSection>
              <AnalyticsSection id="analytics-yearly" title={t('analytics.yearlyHeading')}>
                <Yearly yearly={yearly.data} />
              </AnalyticsSection>
              <AnalyticsSection id="analytics-monthly" title={t('analytics.monthlyHeading')}>
                <LineChart
                  label={t('analytics.monthlyChart')}
                  labels={chronological.map((m) => monthLabel(m.monthDate))}
                  values={chronological.map((m) => m.totalCost)}
                />
                {(total.data.byFuel?.length ?? 0) > 1 ? (
                  <MonthlyFuelLines fuels={total.data.byFuel ?? []} months={chronological} />
                ) : null}
              </AnalyticsSection>
              <AnalyticsSection id="analytics-months" title={t('analytics.monthsHeading')}>
                <Months months={months} />
              </AnalyticsSection>
            </div>
          </Electric.Provider>
        ) : null}
      </PageCard>
    </>
  );
}
