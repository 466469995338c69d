/**
 * The server's render of a first page (built to dist-ssr/ssr.js by vite.ssr.config.ts, used by the
 * server's first-screen.ts): the page's HTML with its data, for a signed-in visit's first load, so a
 * phone shows the page before the app's script has arrived. The browser's app then renders over it
 * (main.tsx) from the same data.
 *
 * The page's own code runs here as in the browser: its data goes through lib/api.ts's fetch, which
 * this module answers from `answer` (the server's own API, with the visitor's cookie), and the
 * stored user and language are the request's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type DehydratedState, dehydrate, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { matchPath } from 'react-router';
import { StaticRouter } from 'react-router-dom';
import { createQueryClient } from './app/App';
import { FIRST_PAGES } from './app/first-pages';
import { AppRoutes, preloadFirstPage } from './app/routes';
import { i18n, initI18nWithResources } from './lib/i18n';
import type { StoredUser } from './lib/session';

/** Answers a same-origin GET (an API path) for the visit being rendered. */
export type Answer = (path: string) => Promise<Response>;

interface Visit {
  answer: Answer;
  storage: Map<string, string>;
}

const visit = new AsyncLocalStorage<Visit>();

// The page's fetches and storage reads see the visit being rendered (renders may overlap).
const serverFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const current = visit.getStore();
  return current && typeof input === 'string' && input.startsWith('/')
    ? current.answer(input)
    : serverFetch(input, init);
}) as typeof fetch;
Object.assign(globalThis, {
  localStorage: {
    getItem: (key: string) => visit.getStore()?.storage.get(key) ?? null,
    setItem: () => undefined,
    removeItem: () => undefined,
  },
});

/** Loads the translations once (`resources[lng].translation`). */
export function init(resources: Record<string, { translation: Record<string, unknown> }>): Promise<unknown> {
  return initI18nWithResources(resources, 'en');
}

/** The first page (first-pages.ts) `pathname` is, if it shows data: the pages rendered here. */
function firstPageOf(pathname: string) {
  return FIRST_PAGES.find(
    (p) => p.data.length > 0 && p.serverRendered !== false && matchPath(p.pattern, pathname),
  );
}

export function rendersPage(pathname: string): boolean {
  return firstPageOf(pathname) !== undefined;
}

export interface FirstScreen {
  /** The first page's route pattern (index.html lists its stylesheets under it). */
  pattern: string;
  html: string;
  /** The page's data, for the app's query cache (hydrate). */
  queries: DehydratedState;
}

/**
 * `url`'s page for `user`, or undefined when it is not one rendered here. `wide`: the visitor's
 * screen is a desktop's (the `wide` cookie): record lists are tables there.
 */
export async function render(
  url: string,
  user: StoredUser,
  answer: Answer,
  wide = false,
): Promise<FirstScreen | undefined> {
  const pathname = new URL(url, 'http://server').pathname;
  const page = firstPageOf(pathname);
  if (!page) return undefined;
  const storage = new Map([
    ['user', JSON.stringify(user)],
    ['language', user.language],
    ['wideScreen', String(wide)],
  ]);
  return visit.run({ answer, storage }, async () => {
    const client = createQueryClient();
    await preloadFirstPage(pathname, client, true);
    // Set and used in one synchronous stretch (the translations are loaded, so the switch is
    // immediate): no other visit's language can come in between.
    void i18n.changeLanguage(user.language);
    if (i18n.language !== user.language) throw new Error(`no ${user.language} translation`);
    const html = renderToString(
      <QueryClientProvider client={client}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </QueryClientProvider>,
    );
    return { pattern: page.pattern, html, queries: dehydrate(client) };
  });
}
