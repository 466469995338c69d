import type { AnalyticsRow } from '@evdra/domain';
import { Filter, Search } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { ApiError, errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { useAdminAnalytics } from '../api';
import { TotalsBarChart } from '../components/Charts';
import { totalsPerOwner, totalsPerVehicle } from '../rows';
import '../analytics.css';

/**
 * /analytics/admin: every owner's costs. The month range is applied on the server (Apply Filters);
 * the search box (vehicle or owner) and the owner select filter the answer in the browser.
 */
export default function AdminAnalyticsPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const ids = { search: useId(), owner: useId(), start: useId(), end: useId(), rangeError: useId() };
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
        <div className={`field${rangeError ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={ids.start}>
            {t('analytics.admin.start')}
          </label>
          <input
            id={ids.start}
            className="input"
            type="month"
            placeholder="YYYY-MM"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? ids.rangeError : undefined}
          />
        </div>
        <div className={`field${rangeError ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={ids.end}>
            {t('analytics.admin.end')}
          </label>
          <input
            id={ids.end}
            className="input"
            type="month"
            placeholder="YYYY-MM"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? ids.rangeError : undefined}
          />
        </div>
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
          <section className="analytics__section" aria-labelledby="admin-owner-chart">
            <h2 id="admin-owner-chart">{t('analytics.admin.ownerChart')}</h2>
            <TotalsBarChart
              label={t('analytics.admin.ownerChart')}
              labels={perOwner.map((o) => o.owner)}
              values={perOwner.map((o) => o.total)}
            />
          </section>
          <section className="analytics__section" aria-labelledby="admin-vehicle-chart">
            <h2 id="admin-vehicle-chart">{t('analytics.admin.vehicleChart')}</h2>
            <TotalsBarChart
              label={t('analytics.admin.vehicleChart')}
              labels={perVehicle.map((v) => `${v.vehicle} · ${v.ownerUsername}`)}
              values={perVehicle.map((v) => v.total)}
              colorIndex={1}
            />
          </section>
          <section className="analytics__section">
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">{t('analytics.admin.tableCaption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('analytics.admin.vehicle')}</th>
                    <th scope="col">{t('analytics.admin.owner')}</th>
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
                  {perVehicle.map((v) => (
                    <tr key={v.vehicleId}>
                      <td data-label={t('analytics.admin.vehicle')}>{v.vehicle}</td>
                      <td data-label={t('analytics.admin.owner')}>{v.ownerUsername}</td>
                      <td className="num" data-label={t('analytics.fuel')}>
                        {f.money(v.fuel)}
                      </td>
                      <td className="num" data-label={t('analytics.expenses')}>
                        {f.money(v.expenses)}
                      </td>
                      <td className="num" data-label={t('analytics.insurance')}>
                        {f.money(v.insurance)}
                      </td>
                      <td className="num" data-label={t('analytics.revisions')}>
                        {f.money(v.revisions)}
                      </td>
                      <td className="num" data-label={t('analytics.total')}>
                        <strong>{f.money(v.total)}</strong>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="muted">
              {t('analytics.admin.grandTotal')}: <strong>{f.money(grandTotal)}</strong>
            </p>
          </section>
        </div>
      ) : null}
    </PageCard>
  );
}
