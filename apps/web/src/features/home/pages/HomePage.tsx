import { Car, FileText, Fuel, ShieldCheck, Wrench } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useStoredUser } from '../../../lib/session';

export default function HomePage() {
  const { t } = useTranslation();
  const user = useStoredUser();

  return (
    <section className="hero card">
      <h1 className="hero__title">
        {user ? t('home.welcome', { username: user.username }) : t('home.title')}
      </h1>
      <p className="hero__lead">{t('home.lead')}</p>
      {user ? (
        <div className="hero__actions">
          <Link className="btn btn--primary" to="/vehicles">
            {t('home.goToVehicles')}
          </Link>
          {/* The car's papers at a roadside check: this tap, then the document's (issue 52). */}
          <Link className="btn btn--secondary" to="/papers">
            <FileText size={18} aria-hidden="true" />
            {t('home.papers')}
          </Link>
        </div>
      ) : (
        <div className="hero__actions">
          <Link className="btn btn--primary" to="/login">
            {t('home.login')}
          </Link>
          <Link className="btn btn--secondary" to="/register">
            {t('home.register')}
          </Link>
        </div>
      )}
      <ul className="feature-list">
        <li>
          <Car size={20} aria-hidden="true" />
          {t('home.featureVehicles')}
        </li>
        <li>
          <Fuel size={20} aria-hidden="true" />
          {t('home.featureFuel')}
        </li>
        <li>
          <ShieldCheck size={20} aria-hidden="true" />
          {t('home.featureInsurance')}
        </li>
        <li>
          <Wrench size={20} aria-hidden="true" />
          {t('home.featureRevision')}
        </li>
      </ul>
    </section>
  );
}
