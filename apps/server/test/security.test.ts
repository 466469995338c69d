import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
/** The auth service's clock runs this far ahead of real time. */
let offsetMs = 0;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_FAILURES_PER_15_MIN: '5' }, () => new Date(Date.now() + offsetMs));
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());
afterEach(() => {
  offsetMs = 0;
});

/** Runs `call` without the CSRF header, and with a wrong one; both must be 403 CSRF_FAILED. */
async function expectCsrfRefused(
  client: TestClient,
  call: (c: TestClient, csrf: boolean) => Promise<unknown>,
) {
  expectError((await call(client, false)) as never, 403, 'CSRF_FAILED');
  const real = client.csrfToken;
  client.csrfToken = `${real?.slice(0, -2)}xx`;
  try {
    expectError((await call(client, true)) as never, 403, 'CSRF_FAILED');
  } finally {
    client.csrfToken = real;
  }
}

describe('CSRF', () => {
  it('PUT /api/users/me without or with a wrong X-CSRF-Token is refused and changes nothing', async () => {
    const { client, account } = await registered(t.app);
    const body = { username: `${account.username}x`, email: account.email, language: 'es' };
    await expectCsrfRefused(client, (c, csrf) => c.put('/api/users/me', body, { csrf }));
    expect((await client.get('/api/users/me')).data).toMatchObject({
      username: account.username,
      language: 'en',
    });
  });

  it('PUT /api/users/me/gdpr-consent without the header is refused', async () => {
    const { client } = await registered(t.app);
    await expectCsrfRefused(client, (c, csrf) =>
      c.put('/api/users/me/gdpr-consent', { consent: true }, { csrf }),
    );
  });

  it('DELETE /api/admin/users/{id} without or with a wrong X-CSRF-Token is refused and the user remains', async () => {
    const { user } = await registered(t.app);
    await expectCsrfRefused(admin.client, (c, csrf) => c.delete(`/api/admin/users/${user.id}`, { csrf }));
    const list = (await admin.client.get('/api/admin/users')).data as { id: number }[];
    expect(list.map((u) => u.id)).toContain(user.id);
  });

  it('POST and PUT /api/admin/users without the header are refused and change nothing', async () => {
    const account = newAccount('csrf');
    await expectCsrfRefused(admin.client, (c, csrf) => c.post('/api/admin/users', account, { csrf }));
    expect((await admin.client.get(`/api/admin/users?q=${account.username}`)).data).toEqual([]);

    const { user, account: victim } = await registered(t.app);
    const promote = { username: victim.username, email: victim.email, role: 'ADMIN' };
    await expectCsrfRefused(admin.client, (c, csrf) =>
      c.put(`/api/admin/users/${user.id}`, promote, { csrf }),
    );
    expect((await admin.client.get(`/api/admin/users?q=${victim.username}`)).data[0].role).toBe('USER');
  });

  it('does not need the header for reads', async () => {
    const { client } = await registered(t.app);
    client.csrfToken = undefined;
    expect((await client.get('/api/users/me')).statusCode).toBe(200);
  });
});

describe('failed logins per account', () => {
  it('after 5 failures in 15 minutes, the 6th attempt gets 429 with Retry-After, even with the right password', async () => {
    const { account } = await registered(t.app);
    const client = new TestClient(t.app);
    for (let i = 0; i < 5; i++) {
      const res = await client.post('/api/auth/login', {
        username: account.username,
        password: `wrong ${i}`,
      });
      expectError(res, 401, 'INVALID_CREDENTIALS');
    }
    const locked = await client.post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expectError(locked, 429, 'RATE_LIMITED');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(client.cookies.size).toBe(0);
    // Also when logging in by email, and from another IP: the limit is per account.
    const elsewhere = new TestClient(t.app, '10.9.9.9');
    const byEmail = await elsewhere.post('/api/auth/login', {
      username: account.email,
      password: account.password,
    });
    expectError(byEmail, 429, 'RATE_LIMITED');
  });

  it('lets the account log in again once the 15 minutes have passed', async () => {
    const { account } = await registered(t.app);
    const client = new TestClient(t.app);
    for (let i = 0; i < 5; i++) {
      await client.post('/api/auth/login', { username: account.username, password: 'wrong password' });
    }
    const locked = await client.post('/api/auth/login', account);
    expectError(locked, 429, 'RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    offsetMs = 14 * 60_000;
    expectError(await client.post('/api/auth/login', account), 429, 'RATE_LIMITED');
    offsetMs = 16 * 60_000;
    expect((await client.post('/api/auth/login', account)).statusCode).toBe(200);
  });

  it('leaves other accounts alone', async () => {
    const victim = await registered(t.app);
    const bystander = await registered(t.app);
    const client = new TestClient(t.app);
    for (let i = 0; i < 6; i++) {
      await client.post('/api/auth/login', { username: victim.account.username, password: 'wrong password' });
    }
    const res = await client.post('/api/auth/login', {
      username: bystander.account.username,
      password: bystander.account.password,
    });
    expect(res.statusCode).toBe(200);
  });

  it('counts failures for unknown usernames too', async () => {
    const client = new TestClient(t.app);
    const username = `ghost_${Math.random().toString(36).slice(2, 8)}`;
    for (let i = 0; i < 5; i++) {
      expectError(
        await client.post('/api/auth/login', { username, password: 'whatever1' }),
        401,
        'INVALID_CREDENTIALS',
      );
    }
    expectError(
      await client.post('/api/auth/login', { username, password: 'whatever1' }),
      429,
      'RATE_LIMITED',
    );
  });

  it('a successful login before the limit resets nothing it should not: 4 failures then success works', async () => {
    const { account } = await registered(t.app);
    const client = new TestClient(t.app);
    for (let i = 0; i < 4; i++) {
      await client.post('/api/auth/login', { username: account.username, password: 'wrong password' });
    }
    expect((await client.post('/api/auth/login', account)).statusCode).toBe(200);
  });
});

describe('requests per IP on the auth routes', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => limited.close());

  it('allow 5 a minute across the auth routes, then 429 with Retry-After; another IP is unaffected', async () => {
    const ip = '203.0.113.7';
    const client = new TestClient(limited.app, ip);
    const account = newAccount('limited');
    expect((await client.post('/api/auth/register', account)).statusCode).toBe(201);
    expect((await client.post('/api/auth/refresh')).statusCode).toBe(200);
    expect((await client.post('/api/auth/login', account)).statusCode).toBe(200);
    expect((await client.post(`/api/auth/forgot-password?email=${account.email}`)).statusCode).toBe(200);
    expect((await client.post('/api/auth/login', account)).statusCode).toBe(200);

    for (const res of [
      await client.post('/api/auth/login', account),
      await client.post('/api/auth/register', newAccount('limited')),
      await client.post('/api/auth/refresh'),
      await client.post(`/api/auth/forgot-password?email=${account.email}`),
      await client.post('/api/auth/reset-password', { token: 'x'.repeat(20), password: 'whatever1' }),
    ]) {
      expectError(res, 429, 'RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The session itself keeps working; only the auth routes are limited.
    expect((await client.get('/api/users/me')).statusCode).toBe(200);

    const other = new TestClient(limited.app, '198.51.100.20');
    expect((await other.post('/api/auth/login', account)).statusCode).toBe(200);
    expect((await other.post('/api/auth/register', newAccount('other'))).statusCode).toBe(201);
  });
});
