import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, storeUser } from '../test/utils';
import { ApiError, api } from './api';
import { registerNavigate } from './navigation';

type Call = { url: string; method: string; headers: Record<string, string> };

function stubFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    expect(init.credentials).toBe('include');
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('api client', () => {
  const navigate = vi.fn();
  beforeEach(() => {
    storeUser();
    registerNavigate(navigate);
  });
  afterEach(() => {
    registerNavigate(null);
    navigate.mockReset();
  });

  it('sends cookies, JSON and the CSRF token on state-changing requests only', async () => {
    const calls = stubFetch(() => jsonResponse({ ok: true }));
    await api('/api/users/me');
    await api('/api/users/me', { method: 'PUT', body: { username: 'a' } });
    expect(calls[0]?.headers['X-CSRF-Token']).toBeUndefined();
    expect(calls[1]?.headers['X-CSRF-Token']).toBe('csrf-1');
    expect(calls[1]?.headers['Content-Type']).toBe('application/json');
  });

  it('parses the error shape into an ApiError with field details', async () => {
    stubFetch(() =>
      jsonResponse(
        {
          code: 'VALIDATION_FAILED',
          message: 'Invalid body',
          details: [{ field: 'email', message: 'Enter a valid email address.' }],
        },
        400,
      ),
    );
    const err = await api('/api/auth/register', { method: 'POST', body: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Invalid body' });
    expect((err as ApiError).fieldMessage('email')).toBe('Enter a valid email address.');
  });

  it('on a 401 refreshes once, stores the new CSRF token and retries the request once', async () => {
    let meCalls = 0;
    const calls = stubFetch(({ url }) => {
      if (url === '/api/auth/refresh') return jsonResponse({ user: {}, csrfToken: 'csrf-2' });
      meCalls += 1;
      return meCalls === 1
        ? jsonResponse({ code: 'UNAUTHENTICATED', message: 'no' }, 401)
        : jsonResponse({ username: 'alice' });
    });
    await expect(api('/api/users/me', { method: 'PUT', body: {} })).resolves.toEqual({ username: 'alice' });
    expect(calls.map((c) => c.url)).toEqual(['/api/users/me', '/api/auth/refresh', '/api/users/me']);
    expect(localStorage.getItem('token')).toBe('csrf-2');
    expect(calls[2]?.headers['X-CSRF-Token']).toBe('csrf-2');
  });

  it('retries only once: a second 401 is returned to the caller without another refresh', async () => {
    const calls = stubFetch(({ url }) =>
      url === '/api/auth/refresh'
        ? jsonResponse({ user: {}, csrfToken: 'csrf-2' })
        : jsonResponse({ code: 'UNAUTHENTICATED', message: 'no' }, 401),
    );
    await expect(api('/api/users/me')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/users/me')).toHaveLength(2);
  });

  it('concurrent 401s share one refresh', async () => {
    const seen = new Map<string, number>();
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const calls = stubFetch(async ({ url }) => {
      if (url === '/api/auth/refresh') {
        await refreshGate;
        return jsonResponse({ user: {}, csrfToken: 'csrf-2' });
      }
      const n = (seen.get(url) ?? 0) + 1;
      seen.set(url, n);
      return n === 1 ? jsonResponse({ code: 'UNAUTHENTICATED', message: 'no' }, 401) : jsonResponse({ url });
    });
    const results = Promise.all([api('/api/a'), api('/api/b'), api('/api/c')]);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1));
    releaseRefresh();
    await expect(results).resolves.toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }]);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('when refresh fails: alerts once, forgets the user and token, goes to /login', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    stubFetch(({ url }) =>
      url === '/api/auth/refresh'
        ? jsonResponse({ code: 'SESSION_EXPIRED', message: 'expired' }, 401)
        : jsonResponse({ code: 'UNAUTHENTICATED', message: 'no' }, 401),
    );
    const results = await Promise.allSettled([api('/api/a'), api('/api/b')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Session expired. Please log in again.');
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('never refreshes on a failed login', async () => {
    const calls = stubFetch(() => jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Invalid' }, 401));
    await expect(api('/api/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(calls).toHaveLength(1);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('/api/users/me')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('uses the answer early-load.js asked for at start once, for the same URL only', async () => {
    const calls = stubFetch(() => jsonResponse([{ id: 2 }]));
    const answers = new Map([['/api/vehicles', Promise.resolve(jsonResponse([{ id: 1 }]))]]);
    vi.stubGlobal('__evdraEarly', { at: Date.now(), answers });
    expect(await api('/api/vehicles', { query: { make: '' } })).toEqual([{ id: 1 }]);
    expect(calls).toHaveLength(0);
    expect(await api('/api/vehicles')).toEqual([{ id: 2 }]);
    expect(calls.map((c) => c.url)).toEqual(['/api/vehicles']);
  });

  it('asks again when the early answer is more than 10 s old', async () => {
    const calls = stubFetch(() => jsonResponse([{ id: 2 }]));
    const answers = new Map([['/api/vehicles', Promise.resolve(jsonResponse([{ id: 1 }]))]]);
    vi.stubGlobal('__evdraEarly', { at: Date.now() - 11_000, answers });
    expect(await api('/api/vehicles')).toEqual([{ id: 2 }]);
    expect(calls).toHaveLength(1);
  });

  it('reports an early answer that failed like its own request', async () => {
    stubFetch(() => jsonResponse([]));
    const failed = Promise.reject(new TypeError('Failed to fetch'));
    failed.catch(() => undefined);
    vi.stubGlobal('__evdraEarly', { at: Date.now(), answers: new Map([['/api/vehicles', failed]]) });
    const err = await api('/api/vehicles').catch((e) => e);
    expect(err).toMatchObject({ status: 0 });
  });
});
