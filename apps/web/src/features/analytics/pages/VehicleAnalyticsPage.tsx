import { type AllTimeTotals, type MonthlyAnalytics, monthLabel, type YearlyAnalytics } from '@evdra/domain';
import { ArrowLeft, Search, Sparkles } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { ApiError, errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { useAnalyticsVehicle, useMonthlyAnalytics, useTotalAnalytics, useYearlyAnalytics } from '../api';
import { CategoryBarChart, LineChart, MonthBarChart, MonthPieChart } from '../components/Charts';
import '../analytics.css';

function Totals({ totals }: { totals: AllTimeTotals }) {
  const { t } = useTranslation();
  const f = useFormat();
  const items: { label: string; value: string; total?: boolean }[] = [
    {
      label: t('analytics.fuelLiters'),
      value: t('analytics.litersValue', { value: f.number(totals.totalFuelLiters) }),
    },
    { label: t('analytics.fuel'), value: f.money(totals.totalFuelCost) },
    { label: t('analytics.expenses'), value: f.money(totals.totalExpensesCost) },
    { label: t('analytics.insurance'), value: f.money(totals.totalInsuranceCost) },
    { label: t('analytics.revisions'), value: f.money(totals.totalRevisionCost) },
    { label: t('analytics.total'), value: f.money(totals.totalCost), total: true },
    { label: t('analytics.kmDriven'), value: t('analytics.kmValue', { value: f.int(totals.totalKm) }) },
    {
      label: t('analytics.costPerKm'),
      value:
        totals.costPerKm === null ? '—' : t('analytics.perKmValue', { value: f.money(totals.costPerKm) }),
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

function Yearly({ yearly }: { yearly: YearlyAnalytics }) {
  const { t } = useTranslation();
  const f = useFormat();
  const years = Object.keys(yearly).sort();
  const rows = years.map((y) => yearly[y] as NonNullable<YearlyAnalytics[string]>);
  if (years.length === 0) return null;
  return (
    <>
      <CategoryBarChart labels={years} rows={rows} label={t('analytics.yearlyChart')} stacked />
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('analytics.yearlyHeading')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('analytics.year')}</th>
              <th scope="col" className="num">
                {t('analytics.fuelLiters')}
              </th>
              <th scope="col" className="num">
                {t('analytics.fuel')}
              </th>
              <th scope="col" className="num">
                {t('analytics.expenses')}
              </th>
              <th scope="col" className="num">
                {t('analytics.insurance')}
              </th>
              <th scope="col" className="num">
                {t('analytics.revisions')}
              </th>
              <th scope="col" className="num">
                {t('analytics.total')}
              </th>
            </tr>
          </thead>
          <tbody>
            {years.map((y, i) => {
              const r = rows[i] as NonNullable<YearlyAnalytics[string]>;
              return (
                <tr key={y}>
                  <td data-label={t('analytics.year')}>
                    <strong>{y}</strong>
                  </td>
                  <td className="num" data-label={t('analytics.fuelLiters')}>
                    {t('analytics.litersValue', { value: f.number(r.totalFuelLiters) })}
                  </td>
                  <td className="num" data-label={t('analytics.fuel')}>
                    {f.money(r.totalFuelCost)}
                  </td>
                  <td className="num" data-label={t('analytics.expenses')}>
                    {f.money(r.totalExpensesCost)}
                  </td>
                  <td className="num" data-label={t('analytics.insurance')}>
                    {f.money(r.totalInsuranceCost)}
                  </td>
                  <td className="num" data-label={t('analytics.revisions')}>
                    {f.money(r.totalRevisionCost)}
                  </td>
                  <td className="num" data-label={t('analytics.total')}>
                    <strong>{f.money(r.totalCost)}</strong>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function MonthCard({ month }: { month: MonthlyAnalytics }) {
  const { t } = useTranslation();
  const f = useFormat();
  const label = monthLabel(month.monthDate);
  const headingId = useId();
  return (
    <li className="month-card" aria-labelledby={headingId}>
      <div className="month-card__header">
        <h3 className="month-card__title" id={headingId}>
          {label}
        </h3>
        <span className="month-card__total">{f.money(month.totalCost)}</span>
      </div>
      <dl className="month-card__values">
        <div>
          <dt>{t('analytics.fuel')}</dt>
          <dd>{f.money(month.totalFuelCost)}</dd>
        </div>
        <div>
          <dt>{t('analytics.fuelLiters')}</dt>
          <dd>{t('analytics.litersValue', { value: f.number(month.totalFuelLiters) })}</dd>
        </div>
        <div>
          <dt>{t('analytics.expenses')}</dt>
          <dd>{f.money(month.totalExpensesCost)}</dd>
        </div>
        <div>
          <dt>{t('analytics.insurance')}</dt>
          <dd>{f.money(month.totalInsuranceCost)}</dd>
        </div>
        <div>
          <dt>{t('analytics.revisions')}</dt>
          <dd>{f.money(month.totalRevisionCost)}</dd>
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
  const searchId = useId();
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
      <div className="search">
        <label htmlFor={searchId} className="visually-hidden">
          {t('analytics.searchMonth')}
        </label>
        <Search size={18} aria-hidden="true" className="search__icon" />
        <input
          id={searchId}
          className="input search__input"
          type="search"
          placeholder={t('analytics.searchMonthPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
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

/**
 * Costs of one vehicle (spec §2 "Analytics for a vehicle"): all-time totals, yearly chart and
 * table, monthly line chart, and searchable month cards, newest first.
 */
export default function VehicleAnalyticsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { vehicleId = '' } = useParams();
  const aiHintId = useId();
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
      <PageCard
        title={title}
        actions={
          v?.aiEvaluationConsent ? (
            // Wired by the AI issue; until then it is visibly disabled but focusable, so its hint can be read.
            <>
              <button
                type="button"
                className="btn btn--secondary"
                aria-disabled="true"
                aria-describedby={aiHintId}
                title={t('analytics.aiComingSoon')}
                onClick={(e) => e.preventDefault()}
              >
                <Sparkles size={18} aria-hidden="true" />
                {t('analytics.aiSummary')}
              </button>
              <span id={aiHintId} className="visually-hidden">
                {t('analytics.aiComingSoon')}
              </span>
            </>
          ) : null
        }
      >
        {loading && !failed ? (
          <div className="page-loading">
            <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
            <p className="muted">{t('analytics.loading')}</p>
          </div>
        ) : null}
        {failed ? <Alert tone="error">{t('analytics.error', { message: errorText(failed) })}</Alert> : null}
        {!loading && !failed && months.length === 0 ? <p>{t('analytics.empty')}</p> : null}
        {!loading && !failed && months.length > 0 && total.data && yearly.data ? (
          <div className="analytics">
            <section className="analytics__section" aria-labelledby="analytics-totals">
              <h2 id="analytics-totals">{t('analytics.totalsHeading')}</h2>
              <Totals totals={total.data} />
            </section>
            <section className="analytics__section" aria-labelledby="analytics-yearly">
              <h2 id="analytics-yearly">{t('analytics.yearlyHeading')}</h2>
              <Yearly yearly={yearly.data} />
            </section>
            <section className="analytics__section" aria-labelledby="analytics-monthly">
              <h2 id="analytics-monthly">{t('analytics.monthlyHeading')}</h2>
              <LineChart
                label={t('analytics.monthlyChart')}
                labels={chronological.map((m) => monthLabel(m.monthDate))}
                values={chronological.map((m) => m.totalCost)}
              />
            </section>
            <section className="analytics__section" aria-labelledby="analytics-months">
              <h2 id="analytics-months">{t('analytics.monthsHeading')}</h2>
              <Months months={months} />
            </section>
          </div>
        ) : null}
      </PageCard>
    </>
  );
}
