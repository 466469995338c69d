import { type AnalyticsRow, type GlobalMonth, monthLabel } from '@evdra/domain';
import { Filter, Search, Table } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { LoadMore } from '../../../components/LoadMore';
import { ApiError, errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { useAdminAnalytics, useAdminMonths } from '../api';
import { AnalyticsSection } from '../components/AnalyticsSection';
import { CategoryBarChart, TotalsBarChart } from '../components/Charts';
import { type CostColumn, CostTable, costColumns } from '../components/CostTable';
import { FuelCostChart } from '../components/FuelCostChart';
import { NotConverted } from '../components/NotConverted';
import {
  mainCurrency,
  monthsOf,
  totalsApart,
  totalsPerOwner,
  totalsPerVehicle,
  type VehicleTotals,
} from '../rows';
import '../analytics.css';

/** A month input of the range; `errorId` (the range error under the inputs) marks it invalid. */
function MonthField({
  label,
  value,
  onValueChange,
  errorId,
}: {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  errorId: string | undefined;
}) {
  const id = useId();
  return (
    <div className={`field${errorId ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="month"
        placeholder="YYYY-MM"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
    </div>
  );
}

/** The month inputs' message of a 400 (bad month, start after end); null for other failures. */
function rangeErrorOf(error: unknown): string | null {
  return error instanceof ApiError && error.status === 400
    ? (error.fieldMessage('start') ?? error.fieldMessage('end') ?? error.message)
    : null;
}

/**
 * /analytics/admin: every owner's costs. The month range is applied on the server (Apply Filters).
 * The page opens with every car's costs added up by month (/admin/months: a dozen rows a month from
 * a rollup, however many cars, issue 54); the per-vehicle rows (one per car and month) are read only
 * when asked for (Show costs per vehicle, or using the search box or owner select), newest month
 * first, 1,000 at a time (Load more), and those two filter them in the browser.
 */
export default function AdminAnalyticsPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const ids = { search: useId(), owner: useId(), rangeError: useId() };
  const [search, setSearch] = useState('');
  const [owner, setOwner] = useState('all');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [applied, setApplied] = useState({ start: '', end: '' });
  const [vehiclesAsked, setVehiclesAsked] = useState(false);
  const askVehicles = () => setVehiclesAsked(true);
  const months = useAdminMonths(applied.start, applied.end);
  const query = useAdminAnalytics(applied.start, applied.end, vehiclesAsked);

  // A 400 (bad month, start after end) belongs to the month inputs; other failures to the page.
  const rangeError = rangeErrorOf(months.error) ?? rangeErrorOf(query.error);
  const failure = [months.error, query.error].find((e) => e && !rangeErrorOf(e));
  // Keep showing the last answers while a rejected range is on screen.
  const lastMonths = useRef<GlobalMonth[]>([]);
  if (months.data) lastMonths.current = months.data;
  const monthRows = months.data ?? (rangeError ? lastMonths.current : []);
  const lastRows = useRef<AnalyticsRow[]>([]);
  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.items), [query.data]);
  if (loaded) lastRows.current = loaded;
  const rows = loaded ?? (rangeError ? lastRows.current : []);
  // More car-months than one page: the totals are of those loaded, newest first, back to this month.
  const loadedTo = query.hasNextPage ? rows.at(-1)?.monthDate : undefined;
  const owners = useMemo(() => [...new Set(rows.map((r) => r.ownerUsername))].sort(), [rows]);
  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    return rows.filter(
      (r) =>
        (owner === 'all' || r.ownerUsername === owner) &&
        (!q ||
          `${r.vehicleMake} ${r.vehicleModel}`.toLowerCase().includes(q) ||
          r.ownerUsername.toLowerCase().includes(q)),
    );
  }, [rows, owner, search]);
  // The answer is in the instance's currency (the one most rows are in); a sum in a currency without
  // a rate to it is a row of its own, listed apart in its currency, never drawn on the answer's axis
  // or added in.
  const currency = mainCurrency(monthRows.length ? monthRows : rows, f.currency);
  const converted = useMemo(
    () => filtered.filter((r) => (r.currency ?? currency) === currency),
    [filtered, currency],
  );
  const perVehicle = useMemo(() => totalsPerVehicle(converted), [converted]);
  const perOwner = useMemo(() => totalsPerOwner(converted), [converted]);
  const grandTotal = perVehicle.reduce((sum, v) => sum + v.total, 0);
  const money = (v: number) => f.money(v, currency);
  // Oldest first for the chart.
  const chartMonths = useMemo(
    () => monthRows.filter((m) => (m.currency ?? currency) === currency).reverse(),
    [monthRows, currency],
  );
  const otherMonths = monthRows.flatMap((m) =>
    m.currency && m.currency !== currency
      ? [{ label: monthLabel(m.monthDate), currency: m.currency, total: m.totalCost }]
      : [],
  );
  const monthsTotal = chartMonths.reduce((sum, m) => sum + m.totalCost, 0);
  const columns: CostColumn<VehicleTotals>[] = [
    { label: t('analytics.admin.vehicle'), cell: (v) => v.vehicle },
    { label: t('analytics.admin.owner'), cell: (v) => v.ownerUsername },
    ...costColumns<VehicleTotals>(t, money, (v) => v),
  ];

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied({ start, end });
  };

  return (
    <PageCard title={t('analytics.admin.title')}>
      <form className="filter-bar filter-bar--admin" onSubmit={apply} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={ids.search}>
            {t('analytics.admin.search')}
          </label>
          <div className="search">
            <Search size={18} aria-hidden="true" className="search__icon" />
            <input
              id={ids.search}
              className="input search__input"
              type="search"
              placeholder={t('analytics.admin.searchPlaceholder')}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                askVehicles();
              }}
            />
          </div>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.owner}>
            {t('analytics.admin.owner')}
          </label>
          <select
            id={ids.owner}
            className="input select"
            value={owner}
            onFocus={askVehicles}
            onChange={(e) => setOwner(e.target.value)}
          >
            <option value="all">{t('analytics.admin.all')}</option>
            {owners.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
        <MonthField
          label={t('analytics.admin.start')}
          value={start}
          onValueChange={setStart}
          errorId={rangeError ? ids.rangeError : undefined}
        />
        <MonthField
          label={t('analytics.admin.end')}
          value={end}
          onValueChange={setEnd}
          errorId={rangeError ? ids.rangeError : undefined}
        />
        <button type="submit" className="btn btn--primary">
          <Filter size={18} aria-hidden="true" />
          {t('analytics.admin.apply')}
        </button>
        {rangeError ? (
          <p className="field__error filter-bar__error" id={ids.rangeError} role="alert">
            {rangeError}
          </p>
        ) : null}
      </form>

      {months.isFetching || query.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {months.isPending || (vehiclesAsked && query.isPending) ? (
        <p className="muted">{t('analytics.loading')}</p>
      ) : null}
      {failure ? <Alert tone="error">{t('analytics.error', { message: errorText(failure) })}</Alert> : null}
      {months.isSuccess && monthRows.length === 0 ? <p>{t('analytics.empty')}</p> : null}

      {monthRows.length > 0 ? (
        <div className="analytics">
          <AnalyticsSection id="admin-months-chart" title={t('analytics.admin.monthsChart')}>
            <CategoryBarChart
              stacked
              currency={currency}
              label={t('analytics.admin.monthsChart')}
              labels={chartMonths.map((m) => monthLabel(m.monthDate))}
              rows={chartMonths}
            />
            <p className="muted">
              {t('analytics.admin.monthsTotal')}: <strong>{money(monthsTotal)}</strong>
            </p>
            <NotConverted currency={currency} apart={otherMonths} />
          </AnalyticsSection>
        </div>
      ) : null}

      {monthRows.length > 0 && !vehiclesAsked ? (
        <div className="load-more">
          <button type="button" className="btn btn--secondary" onClick={askVehicles}>
            <Table size={18} aria-hidden="true" />
            {t('analytics.admin.showVehicles')}
          </button>
        </div>
      ) : null}
      {rows.length > 0 && filtered.length === 0 ? (
        <p className="muted">{t('analytics.admin.noMatch')}</p>
      ) : null}

      {filtered.length > 0 ? (
        <div className="analytics">
          <AnalyticsSection id="admin-owner-chart" title={t('analytics.admin.ownerChart')}>
            <TotalsBarChart
              currency={currency}
              label={t('analytics.admin.ownerChart')}
              labels={perOwner.map((o) => o.owner)}
              values={perOwner.map((o) => o.total)}
            />
          </AnalyticsSection>
          <AnalyticsSection id="admin-vehicle-chart" title={t('analytics.admin.vehicleChart')}>
            <TotalsBarChart
              currency={currency}
              label={t('analytics.admin.vehicleChart')}
              labels={perVehicle.map((v) => `${v.vehicle} · ${v.ownerUsername}`)}
              values={perVehicle.map((v) => v.total)}
              colorIndex={1}
            />
          </AnalyticsSection>
          <FuelCostChart
            id="admin-fuel-chart"
            rows={converted}
            months={monthsOf(converted)}
            currency={currency}
          />
          <section className="analytics__section">
            <CostTable
              caption={t('analytics.admin.tableCaption')}
              columns={columns}
              rows={perVehicle}
              rowKey={(v) => v.vehicleId}
            />
            <p className="muted">
              {t('analytics.admin.grandTotal')}: <strong>{money(grandTotal)}</strong>
            </p>
            <NotConverted currency={currency} apart={totalsApart(filtered, currency)} />
            {loadedTo ? (
              <p className="muted">{t('analytics.loadedTo', { month: monthLabel(loadedTo) })}</p>
            ) : null}
            <LoadMore list={query} />
          </section>
        </div>
      ) : null}
    </PageCard>
  );
}
