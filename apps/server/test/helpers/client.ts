import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export type Res = LightMyRequestResponse & { body: string; data: any };

/**
 * A browser-like API client for app.inject: keeps cookies per path, and sends the CSRF token
 * it got from login/register/refresh on unsafe methods (unless told not to).
 */
export class TestClient {
  cookies = new Map<string, { value: string; path: string }>();
  csrfToken?: string;
  user?: { id: number; username: string; role: string };

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...opts.headers };
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    if (method !== 'GET' && opts.csrf !== false && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    const options: InjectOptions = { method, url, headers, remoteAddress: this.ip };
    if (body !== undefined) options.payload = body as InjectOptions['payload'];
    const res = (await this.app.inject(options)) as Res;
    this.storeCookies(res);
    // A compressed answer (accept-encoding asked for it) is the test's own to decode.
    const json = res.headers['content-type']?.toString().includes('json') && !res.headers['content-encoding'];
    res.data = res.body && json ? JSON.parse(res.body) : undefined;
    if (res.data?.csrfToken) {
      this.csrfToken = res.data.csrfToken;
      this.user = res.data.user;
    }
    return res;
  }

  get = (url: string, opts?: { headers?: Record<string, string> }) =>
    this.request('GET', url, undefined, opts);
  post = (url: string, body?: unknown, opts?: { csrf?: boolean }) => this.request('POST', url, body, opts);
  put = (url: string, body?: unknown, opts?: { csrf?: boolean }) => this.request('PUT', url, body, opts);
  patch = (url: string, body?: unknown, opts?: { csrf?: boolean }) => this.request('PATCH', url, body, opts);
  delete = (url: string, opts?: { csrf?: boolean }) => this.request('DELETE', url, undefined, opts);

  private cookieHeader(url: string) {
    const path = url.split('?')[0] ?? '/';
    return [...this.cookies]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private storeCookies(res: LightMyRequestResponse) {
    for (const c of res.cookies as {
      name: string;
      value: string;
      path?: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, { value: c.value, path: c.path ?? '/' });
    }
  }
}

let counter = 0;
/** A unique, valid registration body. */
export function newAccount(prefix = 'user') {
  counter += 1;
  const username = `${prefix}${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return {
    username,
    email: `${username}@example.com`,
    password: 'correct horse 1',
    gdprConsent: true as const,
  };
}

/** Registers a new account and returns a client logged in as it. */
export async function registered(app: FastifyInstance, prefix = 'user', ip?: string) {
  const client = new TestClient(app, ip);
  const account = newAccount(prefix);
  const res = await client.post('/api/auth/register', account);
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { client, account, user: res.data.user as { id: number; username: string; role: string } };
}
