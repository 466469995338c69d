import { BarChart3, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { errorText } from '../../../lib/api';
import { useAnalyticsVehicles } from '../api';
import '../analytics.css';

/** /analytics (all-vehicles mode): pick one of the user's vehicles to open its analytics. */
export default function AnalyticsIndexPage() {
  const { t } = useTranslation();
  const vehicles = useAnalyticsVehicles();
  const list = vehicles.data ?? [];
  return (
    <PageCard title={t('analytics.title')}>
      {vehicles.isPending ? (
        <div className="page-loading">
          <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
          <p className="muted">{t('common.loading')}</p>
        </div>
      ) : null}
      {vehicles.isError ? (
        <Alert tone="error">{t('analytics.error', { message: errorText(vehicles.error) })}</Alert>
      ) : null}
      {vehicles.isSuccess && list.length === 0 ? (
        <>
          <p>{t('analytics.pickNone')}</p>
          <Link to="/vehicles">{t('analytics.goToVehicles')}</Link>
        </>
      ) : null}
      {list.length > 0 ? (
        <>
          <p className="muted">{t('analytics.pickLead')}</p>
          <ul className="vehicle-pick">
            {list.map((v) => (
              <li key={v.id}>
                {/* The link's name is its visible text after a hidden "Analytics for" (a screen reader hears what is shown). */}
                <Link to={`/analytics/${v.id}`}>
                  <span>
                    <BarChart3 size={18} aria-hidden="true" />{' '}
                    <span className="visually-hidden">{t('analytics.openFor')} </span>
                    {v.make} {v.model}
                    <small>
                      {v.year} · {v.registrationNumber}
                    </small>
                  </span>
                  <ChevronRight size={18} aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </PageCard>
  );
}
