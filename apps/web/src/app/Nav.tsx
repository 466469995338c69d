import { useQueryClient } from '@tanstack/react-query';
import { Download, Menu, RefreshCw, Settings, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Modal } from '../components/Modal';
import { NotificationsBell } from '../features/notifications/components/NotificationsBell';
import { api } from '../lib/api';
import { useSyncState } from '../lib/offline/engine';
import { clearSession, type StoredUser, useStoredUser } from '../lib/session';
import { useInstallPrompt, useOnlineStatus } from './hooks';

function navClass({ isActive }: { isActive: boolean }): string {
  return `nav-link${isActive ? ' nav-link--active' : ''}`;
}

interface NavItemsProps {
  user: StoredUser | null;
  online: boolean;
  /** Writes waiting in the offline queue. */
  pending: number;
  canInstall: boolean;
  onInstall: () => void;
  onLogout: () => void;
  onNavigate?: () => void;
  /** In the side drawer icons get visible text. */
  inDrawer?: boolean;
}

function NavItems({
  user,
  online,
  pending,
  canInstall,
  onInstall,
  onLogout,
  onNavigate,
  inDrawer,
}: NavItemsProps) {
  const { t } = useTranslation();
  const isAdmin = user?.role === 'ADMIN';
  return (
    <>
      <ul className="nav-list">
        <li>
          <NavLink to="/" end className={navClass} onClick={onNavigate}>
            {t('nav.home')}
          </NavLink>
        </li>
        {user ? (
          <>
            <li>
              <NavLink to="/vehicles" className={navClass} onClick={onNavigate}>
                {t('nav.vehicles')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/marketplace" className={navClass} onClick={onNavigate}>
                {t('nav.market')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/ai-chat" className={navClass} onClick={onNavigate}>
                {t('nav.aiAssistant')}
              </NavLink>
            </li>
            {isAdmin ? (
              <>
                <li>
                  <NavLink to="/admin/users" className={navClass} onClick={onNavigate}>
                    {t('nav.manageUsers')}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/analytics/admin" className={navClass} onClick={onNavigate}>
                    {t('nav.globalAnalytics')}
                  </NavLink>
                </li>
              </>
            ) : (
              <li>
                <NavLink to="/analytics/user" className={navClass} onClick={onNavigate}>
                  {t('nav.myAnalytics')}
                </NavLink>
              </li>
            )}
          </>
        ) : null}
      </ul>
      <div className="nav-actions">
        {!online || pending > 0 ? (
          <span className="badge badge--warning offline-status" role="status">
            {online ? <RefreshCw size={16} aria-hidden="true" /> : <WifiOff size={16} aria-hidden="true" />}
            {online ? null : <span>{t('nav.offline')}</span>}
            {pending > 0 ? (
              <span className="offline-pending">
                {online ? t('offline.syncing', { count: pending }) : t('offline.pending', { count: pending })}
              </span>
            ) : null}
          </span>
        ) : null}
        {canInstall ? (
          <button type="button" className="btn btn--secondary btn--small" onClick={onInstall}>
            <Download size={16} aria-hidden="true" />
            {t('nav.installApp')}
          </button>
        ) : null}
        {user ? (
          <>
            {/* The bell stays in the top bar at every width (next to the menu button on phones). */}
            {inDrawer ? null : <NotificationsBell enabled />}
            {inDrawer ? (
              <NavLink to="/settings" className={navClass} onClick={onNavigate}>
                <Settings size={20} aria-hidden="true" />
                {t('nav.settings')}
              </NavLink>
            ) : (
              <NavLink
                to="/settings"
                className={({ isActive }) => `icon-button${isActive ? ' icon-button--active' : ''}`}
                aria-label={t('nav.settings')}
                onClick={onNavigate}
              >
                <Settings size={20} aria-hidden="true" />
              </NavLink>
            )}
            <span className="nav-user">
              <span className="nav-user__label">{t('nav.loggedInAs')}</span> <strong>{user.username}</strong>
            </span>
            <button type="button" className="btn btn--secondary btn--small" onClick={onLogout}>
              {t('nav.logout')}
            </button>
          </>
        ) : (
          <>
            <NavLink to="/login" className={navClass} onClick={onNavigate}>
              {t('nav.login')}
            </NavLink>
            <NavLink to="/register" className={navClass} onClick={onNavigate}>
              {t('nav.register')}
            </NavLink>
          </>
        )}
      </div>
    </>
  );
}

/** Top bar (≥ 768 px) or hamburger + side drawer (< 768 px). */
export function Nav() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const online = useOnlineStatus();
  const { pending } = useSyncState();
  const { canInstall, install } = useInstallPrompt();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);

  // Any navigation closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on location change only
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname]);

  const logout = async () => {
    setDrawerOpen(false);
    let endSessionUrl: string | undefined;
    try {
      const answer = await api<{ endSessionUrl?: string } | undefined>('/api/auth/logout', {
        method: 'POST',
        noRefresh: true,
      });
      endSessionUrl = answer?.endSessionUrl;
    } catch {
      // Logging out locally still works when the server is unreachable or the session is gone.
    }
    clearSession();
    queryClient.clear();
    // Signed in through the identity provider, whose session ends too (OIDC_END_SESSION, issue 53).
    if (endSessionUrl) window.location.assign(endSessionUrl);
    else navigate('/login', { replace: true });
  };

  const items = (onNavigate?: () => void) => (
    <NavItems
      inDrawer={onNavigate !== undefined}
      user={user}
      online={online}
      pending={user ? pending : 0}
      canInstall={canInstall}
      onInstall={() => void install()}
      onLogout={() => void logout()}
      onNavigate={onNavigate}
    />
  );

  return (
    <header className="topbar">
      <div className="topbar__inner">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Evdra</span>
        </Link>
        <nav className="topbar__nav" aria-label={t('nav.main')}>
          {items()}
        </nav>
        <div className="topbar__mobile">
          {!online || (user && pending > 0) ? (
            <span className="badge badge--warning" aria-hidden="true">
              {online ? <RefreshCw size={16} /> : <WifiOff size={16} />}
              {user && pending > 0 ? pending : null}
            </span>
          ) : null}
          {user ? <NotificationsBell enabled /> : null}
          <button
            type="button"
            className="icon-button"
            aria-label={t('nav.openMenu')}
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu size={24} aria-hidden="true" />
          </button>
        </div>
      </div>
      {drawerOpen ? (
        <Modal title={t('nav.menu')} onClose={() => setDrawerOpen(false)} className="modal--drawer">
          <nav className="drawer-nav" aria-label={t('nav.main')}>
            {items(() => setDrawerOpen(false))}
          </nav>
        </Modal>
      ) : null}
    </header>
  );
}
