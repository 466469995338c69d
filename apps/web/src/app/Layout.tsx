import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router-dom';
import { SyncCenter } from '../components/offline/SyncCenter';
import { UpdatePrompt } from '../components/offline/UpdatePrompt';
import { PageLoading } from '../components/PageLoading';
import { registerNavigate } from '../lib/navigation';
import { Footer } from './Footer';
import { Nav } from './Nav';

/** Shell: navigation, the current page, footer. */
export function Layout() {
  const navigate = useNavigate();
  const { t } = useTranslation();

  useEffect(() => {
    registerNavigate((to, options) => navigate(to, options));
    return () => registerNavigate(null);
  }, [navigate]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <Nav />
      <SyncCenter />
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <UpdatePrompt />
    </div>
  );
}
