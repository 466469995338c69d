import { monthLabel } from '@evdra/domain';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { LoadMore } from '../../../components/LoadMore';
import { errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { useUserAnalytics } from '../api';
import { SeriesBarChart } from '../components/Charts';
import { FuelCostChart } from '../components/FuelCostChart';
import { NotConverted } from '../components/NotConverted';
import { costSeries, mainCurrency, monthsOf, totalsApart, vehicleOptions } from '../rows';
import '../analytics.css';

/** /analytics/user: monthly cost of the user's vehicles, one bar series per vehicle. */
export default function UserAnalyticsPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const selectId = useId();
  const query = useUserAnalytics();
  const [vehicle, setVehicle] = useState('all');

  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.items), [query.data]);
  const rows = loaded ?? [];
  // More car-months than one page: the chart and total are of those loaded, newest first, back to this month.
  const loadedTo = query.hasNextPage ? rows.at(-1)?.monthDate : undefined;
  const options = useMemo(() => vehicleOptions(rows), [rows]);
  // The answer is in the reader's currency; a shared car's row in its owner's currency (no rate
  // known to the reader's) is listed apart, not added in.
  const currency = mainCurrency(rows, f.currency, f.currency);
  const chart = useMemo(() => {
    const shownVehicles =
      vehicle === 'all' ? options : options.filter((o) => String(o.vehicleId) === vehicle);
    const picked = vehicle === 'all' ? rows : rows.filter((r) => String(r.vehicleId) === vehicle);
    const shownRows = picked.filter((r) => (r.currency ?? currency) === currency);
    const total = shownRows.reduce((sum, r) => sum + r.totalCost, 0);
    const months = monthsOf(shownRows);
    const apart = totalsApart(picked, currency);
    return { ...costSeries(shownRows, shownVehicles, months), total, rows: shownRows, months, apart };
  }, [rows, options, vehicle, currency]);

  return (
    <PageCard title={t('analytics.user.title')}>
      {query.isPending ? (
        <div className="page-loading">
          <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
          <p className="muted">{t('analytics.loading')}</p>
        </div>
      ) : null}
      {query.isError ? (
        <Alert tone="error">{t('analytics.error', { message: errorText(query.error) })}</Alert>
      ) : null}
      {query.isSuccess && rows.length === 0 ? (
        <div className="empty-state">
          <p>{t('analytics.empty')}</p>
          <p className="muted">{t('analytics.emptyHint')}</p>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <div className="analytics">
          <div className="filter-bar">
            <div className="field">
              <label className="field__label" htmlFor={selectId}>
                {t('analytics.user.vehicle')}
              </label>
              <select
                id={selectId}
                className="input select"
                value={vehicle}
                onChange={(e) => setVehicle(e.target.value)}
              >
                <option value="all">{t('analytics.user.all')}</option>
                {options.map((o) => (
                  <option key={o.vehicleId} value={String(o.vehicleId)}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <section className="analytics__section" aria-labelledby="user-analytics-chart">
            <h2 id="user-analytics-chart">{t('analytics.user.chart')}</h2>
            <SeriesBarChart
              label={t('analytics.user.chart')}
              labels={chart.labels}
              series={chart.series}
              currency={currency}
            />
            <p className="muted">
              {t('analytics.user.totalShown', { amount: f.money(chart.total, currency) })}
            </p>
            <NotConverted apart={chart.apart} currency={currency} />
            {loadedTo ? (
              <p className="muted">{t('analytics.loadedTo', { month: monthLabel(loadedTo) })}</p>
            ) : null}
            <LoadMore list={query} />
          </section>
          <FuelCostChart id="user-fuel-chart" rows={chart.rows} months={chart.months} currency={currency} />
        </div>
      ) : null}
    </PageCard>
  );
}
