import type { AnalyticsRow } from '@evdra/domain';
import { Filter, Search } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { ApiError, errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { currencyOf } from '../../../lib/units';
import { useAdminAnalytics } from '../api';
import { AnalyticsSection } from '../components/AnalyticsSection';
import { TotalsBarChart } from '../components/Charts';
import { type CostColumn, CostTable, costColumns } from '../components/CostTable';
import { FuelCostChart } from '../components/FuelCostChart';
import { monthsOf, totalsPerOwner, totalsPerVehicle, type VehicleTotals } from '../rows';
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

/**
 * /analytics/admin: every owner's costs. The month range is applied on the server (Apply Filters);
 * the search box (vehicle or owner) and the owner select filter the answer in the browser.
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
  const query = useAdminAnalytics(applied.start, applied.end);

  // A 400 (bad month, start after end) belongs to the month inputs; other failures to the page.
  const rangeError =
    query.error instanceof ApiError && query.error.status === 400
      ? (query.error.fieldMessage('start') ?? query.error.fieldMessage('end') ?? query.error.message)
      : null;
  // Keep showing the last answer while a rejected range is on screen.
  const lastRows = useRef<AnalyticsRow[]>([]);
  if (query.data) lastRows.current = query.data;
  const rows = query.data ?? (rangeError ? lastRows.current : []);
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
  const perVehicle = useMemo(() => totalsPerVehicle(filtered), [filtered]);
  const perOwner = useMemo(() => totalsPerOwner(filtered), [filtered]);
  const grandTotal = perVehicle.reduce((sum, v) => sum + v.total, 0);
  // The answer says its currency (the instance's by default); before it did, the reader's.
  const currency = currencyOf(rows[0], f.currency);
  const money = (v: number) => f.money(v, currency);
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
              onChange={(e) => setSearch(e.target.value)}
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

      {query.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {query.isPending ? <p className="muted">{t('analytics.loading')}</p> : null}
      {query.isError && !rangeError ? (
        <Alert tone="error">{t('analytics.error', { message: errorText(query.error) })}</Alert>
      ) : null}
      {query.isSuccess && rows.length === 0 ? <p>{t('analytics.empty')}</p> : null}
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
            rows={filtered}
            months={monthsOf(filtered)}
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
          </section>
        </div>
      ) : null}
    </PageCard>
  );
}
