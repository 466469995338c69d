import type { FieldIssue } from '@evdra/domain';
import i18n from 'i18next';
import { navigateTo } from './navigation';
import { clearSession, getToken, setToken } from './session';

/** An error answered by the API ({code, message, details?}) or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Field-level problems (400 VALIDATION_FAILED, 409 USERNAME_TAKEN/EMAIL_TAKEN). */
  readonly details: FieldIssue[];
  /** `details` exactly as answered (e.g. the current row of a 409 VERSION_CONFLICT). */
  readonly rawDetails: unknown;

  constructor(
    status: number,
    code: string,
    message: string,
    details: FieldIssue[] = [],
    rawDetails?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.rawDetails = rawDetails;
  }

  /** The message the server gave for `field`, if any. */
  fieldMessage(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.message;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised, except FormData which is sent as is (fetch sets the multipart boundary). */
  body?: unknown;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Do not try a session refresh on 401 (e.g. logout: an expired session is already "logged out"). */
  noRefresh?: boolean;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Calls that must never trigger a refresh: a 401 there means bad credentials, not an old session. */
const NO_REFRESH_PATHS = [
  '/api/auth/login',
  '/api/auth/register',
  '/api/auth/refresh',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  // A wrong local password while linking a provider's account (issue 53): no session to renew.
  '/api/auth/oidc/link',
];

function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function normaliseDetails(details: unknown): FieldIssue[] {
  if (!Array.isArray(details)) return [];
  const issues: FieldIssue[] = [];
  for (const d of details) {
    if (d && typeof d === 'object' && 'field' in d && typeof d.field === 'string') {
      const message = 'message' in d && typeof d.message === 'string' ? d.message : '';
      issues.push({ field: d.field, message });
    }
  }
  return issues;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function toApiError(res: Response): Promise<ApiError> {
  const body = await readBody(res).catch(() => undefined);
  if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') {
    const message = 'message' in body && typeof body.message === 'string' ? body.message : res.statusText;
    const details = 'details' in body ? normaliseDetails(body.details) : [];
    return new ApiError(
      res.status,
      body.code,
      message,
      details,
      'details' in body ? body.details : undefined,
    );
  }
  const message = typeof body === 'string' && body ? body : res.statusText || `HTTP ${res.status}`;
  return new ApiError(res.status, res.status >= 500 ? 'INTERNAL' : `HTTP_${res.status}`, message);
}

/** An early answer older than this is not used: a later request wants fresh data. */
const EARLY_ANSWER_TTL_MS = 10_000;

/**
 * The answer public/early-load.js already asked for at start (the first page's data, see
 * app/first-pages.ts), used once: only the page's first request to that URL gets it, in its first
 * seconds.
 */
function takeEarlyAnswer(url: string): Promise<Response> | undefined {
  const early = (globalThis as { __evdraEarly?: { at: number; answers: Map<string, Promise<Response>> } })
    .__evdraEarly;
  const answer = early?.answers.get(url);
  early?.answers.delete(url);
  return early && Date.now() - early.at < EARLY_ANSWER_TTL_MS ? answer : undefined;
}

async function send(method: string, url: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (STATE_CHANGING.has(method)) {
    const token = getToken();
    if (token) headers['X-CSRF-Token'] = token;
  }
  try {
    const early = method === 'GET' && !options.headers ? takeEarlyAnswer(url) : undefined;
    const res = await (early ??
      fetch(url, { method, headers, body, credentials: 'include', signal: options.signal }));
    if (lastSendFailed) {
      lastSendFailed = false;
      for (const cb of restoredListeners) cb();
    }
    return res;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    lastSendFailed = true;
    throw new ApiError(0, 'NETWORK_ERROR', err instanceof Error ? err.message : String(err));
  }
}

let lastSendFailed = false;
const restoredListeners = new Set<() => void>();

/** `cb` runs when a request gets an answer again after one failed for lack of a connection. */
export function onConnectionRestored(cb: () => void): () => void {
  restoredListeners.add(cb);
  return () => restoredListeners.delete(cb);
}

let refreshing: Promise<boolean> | null = null;

/** Ends the local session after a failed refresh: alert, forget the user, go to /login. */
function sessionExpired(): void {
  window.alert(i18n.t('session.expired'));
  clearSession();
  navigateTo('/login');
}

/**
 * POST /api/auth/refresh once for every caller that is waiting right now: concurrent 401s share
 * one promise. Resolves true when the session was renewed (new CSRF token stored).
 */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    refreshing = (async () => {
      try {
        const res = await send('POST', '/api/auth/refresh', {});
        if (!res.ok) return false;
        const data = (await readBody(res)) as { csrfToken?: unknown } | undefined;
        if (data && typeof data.csrfToken === 'string') setToken(data.csrfToken);
        return true;
      } catch {
        return false;
      }
    })().then((ok) => {
      if (!ok) sessionExpired();
      return ok;
    });
    refreshing.finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/**
 * JSON request to the same-origin API. Sends cookies, adds X-CSRF-Token on state-changing calls,
 * and on a 401 refreshes the session once and retries the request once.
 */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).data;
}

/** api, with the answer's headers too (a record list's next page is in X-Next-Cursor). */
export async function apiWithHeaders<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  let res = await send(method, url, options);

  const pathname = path.split('?')[0] ?? path;
  if (res.status === 401 && !options.noRefresh && !NO_REFRESH_PATHS.includes(pathname)) {
    const renewed = await refreshSession();
    if (!renewed) throw await toApiError(res);
    res = await send(method, url, options);
  }

  if (!res.ok) throw await toApiError(res);
  return { data: (await readBody(res)) as T, headers: res.headers };
}

/** Translated, user-facing text for an error: the code's translation, else the server's message. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const key = `errors.${err.code}`;
    return i18n.exists(key) ? i18n.t(key) : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
