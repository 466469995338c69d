import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <p>{t('footer.copyright', { year })}</p>
      <Link to="/gdpr">{t('footer.privacy')}</Link>
    </footer>
  );
}
