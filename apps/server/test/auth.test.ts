import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid, setCookie } from './helpers/expect.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'first');
});
afterAll(() => t.close());

const register = (body: unknown) => new TestClient(t.app).post('/api/auth/register', body);

describe('sign-in options (issue 53)', () => {
  it('without OIDC_ISSUER: no provider button, password login on, the OpenID Connect routes are 404', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/api/auth/providers')).data).toEqual({ oidc: null, passwordLogin: true });
    expectError(await client.get('/api/auth/oidc/start'), 404, 'NOT_FOUND');
    expectError(await client.get('/api/auth/oidc/callback?code=x&state=y'), 404, 'NOT_FOUND');
    expectError(await client.post('/api/auth/oidc/link', { password: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('register', () => {
  it('makes the first account ADMIN and later ones USER, signed in', async () => {
    expect(admin.user.role).toBe('ADMIN');
    const second = await registered(t.app, 'second');
    expect(second.user.role).toBe('USER');
    const me = await second.client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.data).toMatchObject({ username: second.account.username, status: 'Active', gdprConsent: true });
    expect(me.body).not.toContain('password');
  });

  it('answers 201 {user, csrfToken} and sets HttpOnly session cookies', async () => {
    const account = newAccount();
    const res = await register(account);
    expect(res.statusCode).toBe(201);
    expect(res.data).toEqual({
      user: expect.objectContaining({
        id: expect.any(Number),
        username: account.username,
        email: account.email,
        role: 'USER',
        status: 'Active',
        gdprConsent: true,
        vehicles: [],
      }),
      csrfToken: expect.any(String),
    });
    expect(res.body).not.toMatch(/password|argon2/i);
    const access = setCookie(res, 'evdra_access');
    expect(access).toMatch(/Path=\/(;|$)/);
    expect(access).toMatch(/HttpOnly/i);
    expect(access).toMatch(/SameSite=Lax/i);
    expect(access).toMatch(/Max-Age=900(;|$)/);
    const refresh = setCookie(res, 'evdra_refresh');
    expect(refresh).toMatch(/Path=\/api\/auth(;|$)/);
    expect(refresh).toMatch(/HttpOnly/i);
    expect(refresh).toMatch(/SameSite=Lax/i);
    const expires = Date.parse(/Expires=([^;]+)/.exec(refresh ?? '')?.[1] ?? '');
    expect(expires).toBeGreaterThan(Date.now() + 24 * 3600_000);
    // Plain http (PUBLIC_URL http://): a Secure cookie would never come back.
    expect(`${access}${refresh}`).not.toMatch(/Secure/i);
  });

  it('requires every field', async () => {
    const full = newAccount();
    for (const field of ['username', 'email', 'password', 'gdprConsent'] as const) {
      const { [field]: _omitted, ...body } = full;
      expectInvalid(await register(body), field);
    }
    expectError(await register({}), 400, 'VALIDATION_FAILED');
  });

  it('requires GDPR consent to be true', async () => {
    expectInvalid(await register({ ...newAccount(), gdprConsent: false }), 'gdprConsent');
    expectInvalid(await register({ ...newAccount(), gdprConsent: 'yes' }), 'gdprConsent');
  });

  it('accepts usernames of 3 to 32 letters, digits, _ . and - only', async () => {
    const bad = ['ab', 'a'.repeat(33), 'has space', 'semi;colon', 'ümlaut', 'slash/x', ''];
    for (const username of bad) {
      expectInvalid(await register({ ...newAccount(), username }), 'username');
    }
    const suffix = Math.random().toString(36).slice(2, 6);
    for (const username of [`a_${suffix}`.slice(0, 3), `A.b-c_${suffix}`.padEnd(32, '9')]) {
      const res = await register({ ...newAccount(), username });
      expect(res.statusCode, `${username}: ${res.body}`).toBe(201);
      expect(res.data.user.username).toBe(username);
    }
  });

  it('rejects malformed emails', async () => {
    for (const email of ['not-an-email', 'a@', '@example.com', 'two@@example.com', '']) {
      expectInvalid(await register({ ...newAccount(), email }), 'email');
    }
  });

  it('accepts passwords of 8 to 128 characters', async () => {
    expectInvalid(await register({ ...newAccount(), password: 'seven77' }), 'password');
    expectInvalid(await register({ ...newAccount(), password: 'x'.repeat(129) }), 'password');
    expect((await register({ ...newAccount(), password: 'eight888' })).statusCode).toBe(201);
    expect((await register({ ...newAccount(), password: 'y'.repeat(128) })).statusCode).toBe(201);
  });

  it('refuses a username taken in any letter case with 409 USERNAME_TAKEN', async () => {
    const { account } = await registered(t.app);
    const res = await register({ ...newAccount(), username: account.username.toUpperCase() });
    expectError(res, 409, 'USERNAME_TAKEN');
    expect(res.data.details).toEqual([expect.objectContaining({ field: 'username' })]);
  });

  it('refuses an email already registered, compared lower-cased, with 409 EMAIL_TAKEN', async () => {
    const { account } = await registered(t.app);
    const res = await register({ ...newAccount(), email: account.email.toUpperCase() });
    expectError(res, 409, 'EMAIL_TAKEN');
    expect(res.data.details).toEqual([expect.objectContaining({ field: 'email' })]);
  });

  it('answers 409, not 500, when the same username or email is registered twice at once', async () => {
    const a = newAccount('race');
    const b = newAccount('race');
    const sameName = await Promise.all([register(a), register({ ...b, username: a.username })]);
    expect(sameName.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(sameName.find((r) => r.statusCode === 409)?.data.code).toBe('USERNAME_TAKEN');

    const c = newAccount('race');
    const d = newAccount('race');
    const sameEmail = await Promise.all([register(c), register({ ...d, email: c.email })]);
    expect(sameEmail.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(sameEmail.find((r) => r.statusCode === 409)?.data.code).toBe('EMAIL_TAKEN');
  });

  it('stores the email lower-cased', async () => {
    const account = newAccount();
    const res = await register({ ...account, email: account.email.toUpperCase() });
    expect(res.statusCode).toBe(201);
    expect(res.data.user.email).toBe(account.email.toLowerCase());
  });
});

describe('login', () => {
  it('logs in by username and answers {user, csrfToken} with session cookies', async () => {
    const { account, user } = await registered(t.app);
    const client = new TestClient(t.app);
    const res = await client.post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      user: expect.objectContaining({ id: user.id, role: 'USER' }),
      csrfToken: expect.any(String),
    });
    expect(res.body).not.toMatch(/password|argon2/i);
    expect(setCookie(res, 'evdra_access')).toMatch(/HttpOnly/i);
    expect(setCookie(res, 'evdra_refresh')).toMatch(/Path=\/api\/auth/);
    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.data.id).toBe(user.id);
  });

  it('logs in by email, and by username in another letter case', async () => {
    const { account, user } = await registered(t.app);
    for (const login of [account.email, account.email.toUpperCase(), account.username.toUpperCase()]) {
      const res = await new TestClient(t.app).post('/api/auth/login', {
        username: login,
        password: account.password,
      });
      expect(res.statusCode, login).toBe(200);
      expect(res.data.user.id).toBe(user.id);
    }
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password or an unknown user, without a session', async () => {
    const { account } = await registered(t.app);
    const client = new TestClient(t.app);
    const wrong = await client.post('/api/auth/login', {
      username: account.username,
      password: 'wrong password',
    });
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    const unknown = await client.post('/api/auth/login', {
      username: 'nobody_here_x',
      password: account.password,
    });
    expectError(unknown, 401, 'INVALID_CREDENTIALS');
    expect(unknown.data.message).toBe(wrong.data.message);
    expect(client.cookies.size).toBe(0);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('requires username and password', async () => {
    const client = new TestClient(t.app);
    expectInvalid(await client.post('/api/auth/login', { password: 'whatever1' }), 'username');
    expectInvalid(await client.post('/api/auth/login', { username: 'someone' }), 'password');
    expectInvalid(
      await client.post('/api/auth/login', { username: '   ', password: 'whatever1' }),
      'username',
    );
    expectInvalid(await client.post('/api/auth/login', { username: 'someone', password: '' }), 'password');
  });

  it('refuses a suspended account with 403 ACCOUNT_SUSPENDED', async () => {
    const { account, user } = await registered(t.app);
    await setStatus(user.id, account, 'Suspended');
    const res = await new TestClient(t.app).post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expectError(res, 403, 'ACCOUNT_SUSPENDED');
    expect(setCookie(res, 'evdra_access')).toBeUndefined();
  });

  it('refuses a pending account with 403 ACCOUNT_PENDING', async () => {
    const { account, user } = await registered(t.app);
    await setStatus(user.id, account, 'Pending');
    const res = await new TestClient(t.app).post('/api/auth/login', {
      username: account.email,
      password: account.password,
    });
    expectError(res, 403, 'ACCOUNT_PENDING');
    expect(setCookie(res, 'evdra_access')).toBeUndefined();
  });

  it('lets a re-activated account log in again', async () => {
    const { account, user } = await registered(t.app);
    await setStatus(user.id, account, 'Suspended');
    await setStatus(user.id, account, 'Active');
    const res = await new TestClient(t.app).post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(res.statusCode).toBe(200);
  });
});

async function setStatus(id: number, account: { username: string; email: string }, status: string) {
  const res = await admin.client.put(`/api/admin/users/${id}`, {
    username: account.username,
    email: account.email,
    role: 'USER',
    status,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.data.status).toBe(status);
}

describe('session cookies', () => {
  const expired = (cookie: string | undefined) => {
    expect(cookie).toMatch(/^evdra_\w+=;/);
    expect(cookie).toMatch(/Max-Age=0(;|$)/);
    expect(Date.parse(/Expires=([^;]+)/.exec(cookie ?? '')?.[1] ?? '')).toBe(0);
  };

  it('logout empties both cookies, each on its own path', async () => {
    const { client } = await registered(t.app);
    const res = await client.post('/api/auth/logout');
    expect(res.statusCode).toBe(204);
    expired(setCookie(res, 'evdra_access'));
    expect(setCookie(res, 'evdra_access')).toMatch(/Path=\/(;|$)/);
    expired(setCookie(res, 'evdra_refresh'));
    expect(setCookie(res, 'evdra_refresh')).toMatch(/Path=\/api\/auth(;|$)/);
    expect(client.cookies.size).toBe(0);
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('a refused refresh empties both cookies and sets no new ones', async () => {
    const res = await new TestClient(t.app).post('/api/auth/refresh');
    expectError(res, 401, 'SESSION_EXPIRED');
    const all = [res.headers['set-cookie']].flat();
    expect(all).toHaveLength(2);
    expired(setCookie(res, 'evdra_access'));
    expired(setCookie(res, 'evdra_refresh'));
  });

  it('finds the access cookie among the other cookies a browser sends', async () => {
    const { client, account } = await registered(t.app);
    const access = client.cookies.get('evdra_access')?.value;
    const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    const res = await me(`wide=1; theme=dark; evdra_access=${access}; lang=ro`);
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe(account.username);
    expect((await me(`wide=1; evdra_accessx=${access}`)).statusCode).toBe(401);
    expect((await me(`evdra_access=${access}x`)).statusCode).toBe(401);
    expect((await me('evdra_access=')).statusCode).toBe(401);
  });

  it('marks both cookies Secure when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://cars.example.com' });
    try {
      const res = await new TestClient(https.app).post('/api/auth/register', newAccount());
      expect(res.statusCode).toBe(201);
      expect(setCookie(res, 'evdra_access')).toMatch(/; Secure(;|$)/);
      expect(setCookie(res, 'evdra_refresh')).toMatch(/; Secure(;|$)/);
    } finally {
      await https.close();
    }
  });
});
