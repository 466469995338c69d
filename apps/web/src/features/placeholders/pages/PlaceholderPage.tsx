import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { PageCard } from '../../../components/Card';

export type PlaceholderFeature =
  | 'vehicles'
  | 'marketplace'
  | 'aiChat'
  | 'userAnalytics'
  | 'adminAnalytics'
  | 'analytics'
  | 'insurance'
  | 'expenses'
  | 'fuel'
  | 'revision';

/**
 * Stand-in for screens that later issues build. Each says what the screen will hold; the
 * vehicle-scoped ones say which vehicle they are for.
 */
export default function PlaceholderPage({ feature }: { feature: PlaceholderFeature }) {
  const { t } = useTranslation();
  const { vehicleId } = useParams();
  return (
    <PageCard title={t(`placeholders.${feature}.title`)}>
      <div className="placeholder">
        <Construction size={32} aria-hidden="true" />
        <div>
          {vehicleId ? <p className="muted">{t('placeholders.forVehicle', { id: vehicleId })}</p> : null}
          <p>{t(`placeholders.${feature}.body`)}</p>
          <p className="muted">{t('placeholders.comingSoon')}</p>
        </div>
      </div>
    </PageCard>
  );
}
