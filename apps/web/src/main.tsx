import { registerSW } from 'virtual:pwa-register';
import { type DehydratedState, hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, queryClient } from './app/App';
import { preloadFirstPage } from './app/routes';
import { reportScreenWidth } from './features/records/useWideScreen';
import { initI18n } from './lib/i18n';
import { reportNeedRefresh } from './lib/offline/pwa';
import { getStoredUser } from './lib/session';
import { startTheme } from './lib/theme';
import './styles/global.css';
import './styles/cards.css';

// public/theme-init.js already set the class before first paint; this keeps it in sync with the system.
// Marks for bench:papers (BENCH_DETAIL): the app's script has run; the first screen may render.
performance.mark('evdra:main');
startTheme();
reportScreenWidth();
// A page the server rendered carries its data: the app's first render starts from it.
const served = document.getElementById('first-screen-data')?.textContent;
const servedState: DehydratedState | undefined = served ? JSON.parse(served) : undefined;
if (servedState) hydrate(queryClient, servedState);

const firstScreen = Promise.all([
  initI18n(),
  preloadFirstPage(window.location.pathname, queryClient, getStoredUser() !== null),
]);

// Prompt mode: a new version waits until the user chooses Reload (never a mix of old and new files).
// Registered at once, not after load: a first visit followed by a full navigation (a link opened,
// a reload) must already be able to work offline (e2e offline.spec.ts).
const updateSW = registerSW({
  immediate: true,
  onNeedRefresh: () => reportNeedRefresh(() => updateSW(true)),
});

const root = document.getElementById('root');
// The first render waits (at most FIRST_SCREEN_WAIT_MS) for the translation and the page's chunk:
// a render that suspends commits its fallback, and React then holds the page back for 300 ms.
const FIRST_SCREEN_WAIT_MS = 1500;
const waited = new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS));
void Promise.race([firstScreen, waited]).then(() => {
  performance.mark('evdra:first-screen');
  if (root) render(root);
  // Then the served data is asked for as the app always does, in the background: that keeps it
  // for offline use (IndexedDB) and brings anything changed since.
  for (const { queryKey } of servedState?.queries ?? [])
    void queryClient.invalidateQueries({ queryKey, exact: true });
});

function render(root: HTMLElement) {
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for the whole tree (the shell from index.html is already painted).
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
