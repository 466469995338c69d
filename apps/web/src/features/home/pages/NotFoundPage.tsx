import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageCard } from '../../../components/Card';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageCard title={t('notFound.title')} narrow>
      <p>{t('notFound.body')}</p>
      <p>
        <Link className="btn btn--primary" to="/">
          {t('notFound.home')}
        </Link>
      </p>
    </PageCard>
  );
}
