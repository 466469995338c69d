import { registerSW } from 'virtual:pwa-register';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, queryClient } from './app/App';
import { preloadFirstPage } from './app/routes';
import { initI18n } from './lib/i18n';
import { reportNeedRefresh } from './lib/offline/pwa';
import { getStoredUser } from './lib/session';
import { startTheme } from './lib/theme';
import './styles/global.css';
import './styles/cards.css';

// public/theme-init.js already set the class before first paint; this keeps it in sync with the system.
startTheme();
void initI18n();
preloadFirstPage(window.location.pathname, queryClient, getStoredUser() !== null);

// Prompt mode: a new version waits until the user chooses Reload (never a mix of old and new files).
// Registered once the page has loaded and the main thread is idle: the worker's first install
// downloads every file of the app, which must not compete with the first screen.
function startServiceWorker(): void {
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh: () => reportNeedRefresh(() => updateSW(true)),
  });
}
const whenIdle = (fn: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 0);
if (document.readyState === 'complete') whenIdle(startServiceWorker);
else window.addEventListener('load', () => whenIdle(startServiceWorker), { once: true });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
