import type { User } from '@evdra/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { AppRoutes } from '../app/routes';
import type { StoredUser } from '../lib/session';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    username: 'alice',
    email: 'alice@example.com',
    role: 'USER',
    status: 'Active',
    gdprConsent: true,
    language: 'en',
    country: 'GENERIC',
    currency: 'EUR',
    distanceUnit: 'km',
    volumeUnit: 'L',
    consumptionUnit: 'L_100KM',
    createdAt: '2025-01-01T00:00:00.000Z',
    vehicles: [],
    ...overrides,
  };
}

export function storeUser(overrides: Partial<StoredUser> = {}): StoredUser {
  const user: StoredUser = {
    id: 1,
    username: 'alice',
    email: 'alice@example.com',
    role: 'USER',
    language: 'en',
    offlineLogin: 'true',
    ...overrides,
  };
  localStorage.setItem('user', JSON.stringify(user));
  localStorage.setItem('token', 'csrf-1');
  return user;
}

/** Shows the current path so tests can assert where a redirect landed. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders one page at `path` (with a probe of where navigation goes). */
export function renderPage(
  ui: ReactElement,
  { path = '/', route = '/' }: { path?: string; route?: string } = {},
) {
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={newQueryClient()}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, ...result };
}

/** Renders the whole app (layout, guards, lazy pages) at `route`. */
export function renderApp(route: string) {
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={newQueryClient()}>
      <MemoryRouter initialEntries={[route]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, ...result };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/**
 * Replaces fetch with a router of `METHOD /path` → handler. Unhandled calls answer 404 so a
 * test never reaches the network.
 */
const QUIET_DEFAULTS: Record<string, Handler> = {
  'GET /api/notifications': () => jsonResponse([]),
  'GET /api/notifications/count': () => jsonResponse({ count: 0 }),
};

export function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0];
    // The nav bell polls on every logged-in page; tests that don't care get an empty inbox.
    const handler = routes[`${method} ${path}`] ?? QUIET_DEFAULTS[`${method} ${path}`];
    if (!handler) return jsonResponse({ code: 'NOT_FOUND', message: `No mock for ${method} ${path}` }, 404);
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
}
