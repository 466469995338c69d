import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, setCookie } from './helpers/expect.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());

/** A client that holds a copy of another client's cookies and CSRF token (a second tab, or a thief). */
function copyOf(client: TestClient) {
  const copy = new TestClient(t.app);
  for (const [name, c] of client.cookies) copy.cookies.set(name, { ...c });
  copy.csrfToken = client.csrfToken;
  return copy;
}

describe('GET /api/auth/me', () => {
  it('answers 401 UNAUTHENTICATED without cookies', async () => {
    expectError(await new TestClient(t.app).get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('answers 401 for a forged access cookie', async () => {
    const client = new TestClient(t.app);
    client.cookies.set('evdra_access', { value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged', path: '/' });
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('answers the logged-in user without a password hash', async () => {
    const { client, user, account } = await registered(t.app);
    const res = await client.get('/api/auth/me');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      id: user.id,
      username: account.username,
      email: account.email,
      role: 'USER',
    });
    expect(res.body).not.toMatch(/password|argon2/i);
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh cookie and the new access cookie works', async () => {
    const { client, user } = await registered(t.app);
    const oldRefresh = client.cookies.get('evdra_refresh')?.value;
    const res = await client.post('/api/auth/refresh');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      user: expect.objectContaining({ id: user.id }),
      csrfToken: expect.any(String),
    });
    expect(setCookie(res, 'evdra_refresh')).toMatch(/Path=\/api\/auth/);
    const newRefresh = client.cookies.get('evdra_refresh')?.value;
    expect(newRefresh).toBeTruthy();
    expect(newRefresh).not.toBe(oldRefresh);
    expect(setCookie(res, 'evdra_access')).toMatch(/HttpOnly/i);
    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.data.id).toBe(user.id);
    // The CSRF token still guards state-changing calls after a refresh.
    const name = `renamed_${user.id}`;
    const put = await client.put('/api/users/me', { username: name, email: `${name}@example.com` });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('can be refreshed again and again, each time with a new token', async () => {
    const { client } = await registered(t.app);
    const seen = new Set([client.cookies.get('evdra_refresh')?.value]);
    for (let i = 0; i < 3; i++) {
      expect((await client.post('/api/auth/refresh')).statusCode).toBe(200);
      seen.add(client.cookies.get('evdra_refresh')?.value);
    }
    expect(seen.size).toBe(4);
  });

  it('answers 401 SESSION_EXPIRED without a refresh cookie or with an unknown one', async () => {
    expectError(await new TestClient(t.app).post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    const client = new TestClient(t.app);
    client.cookies.set('evdra_refresh', { value: 'made-up-token-value', path: '/api/auth' });
    expectError(await client.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
  });

  it('treats reuse of a rotated token as theft: 401 and the whole family is revoked', async () => {
    const { client } = await registered(t.app);
    const thief = copyOf(client); // holds the refresh token before rotation
    expect((await client.post('/api/auth/refresh')).statusCode).toBe(200);
    const newest = copyOf(client);

    const reuse = await thief.post('/api/auth/refresh');
    expectError(reuse, 401, 'SESSION_EXPIRED');
    // The newest token of that family stops working too.
    expectError(await client.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    expectError(await newest.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
  });

  it('leaves other sessions of the same user alone when one family is revoked', async () => {
    const { client, account } = await registered(t.app);
    const other = new TestClient(t.app);
    expect(
      (await other.post('/api/auth/login', { username: account.username, password: account.password }))
        .statusCode,
    ).toBe(200);
    const thief = copyOf(client);
    await client.post('/api/auth/refresh');
    await thief.post('/api/auth/refresh');
    expect((await other.post('/api/auth/refresh')).statusCode).toBe(200);
  });

  it('refuses to refresh a suspended user', async () => {
    const { client, user, account } = await registered(t.app);
    const res = await admin.client.put(`/api/admin/users/${user.id}`, {
      username: account.username,
      email: account.email,
      role: 'USER',
      status: 'Suspended',
    });
    expect(res.statusCode).toBe(200);
    expectError(await client.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 204, clears the cookies and revokes the refresh token server-side', async () => {
    const { client } = await registered(t.app);
    const before = copyOf(client);
    const res = await client.post('/api/auth/logout');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    for (const name of ['evdra_access', 'evdra_refresh']) {
      expect(setCookie(res, name)).toMatch(new RegExp(`^${name}=;`));
    }
    expect(client.cookies.size).toBe(0);
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    // The old refresh cookie no longer refreshes.
    expectError(await before.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
  });

  it('needs the X-CSRF-Token header while a session is live', async () => {
    const { client } = await registered(t.app);
    expectError(await client.post('/api/auth/logout', undefined, { csrf: false }), 403, 'CSRF_FAILED');
    const wrong = copyOf(client);
    wrong.csrfToken = 'not-the-token';
    expectError(await wrong.post('/api/auth/logout'), 403, 'CSRF_FAILED');
    // Still logged in: nothing was revoked.
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await client.post('/api/auth/refresh')).statusCode).toBe(200);
  });

  it('still needs the header, and still revokes, once the access cookie has expired', async () => {
    const { client } = await registered(t.app);
    client.cookies.delete('evdra_access'); // a browser drops it after 15 minutes
    const before = copyOf(client);
    expectError(await client.post('/api/auth/logout', undefined, { csrf: false }), 403, 'CSRF_FAILED');
    expect((await client.post('/api/auth/logout')).statusCode).toBe(204);
    expectError(await before.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
  });

  it('does not accept the CSRF token of another session', async () => {
    const a = await registered(t.app);
    const b = await registered(t.app);
    const mixed = copyOf(a.client);
    mixed.csrfToken = b.client.csrfToken;
    expectError(await mixed.post('/api/auth/logout'), 403, 'CSRF_FAILED');
  });

  it('answers 204 when there is no session', async () => {
    expect((await new TestClient(t.app).post('/api/auth/logout')).statusCode).toBe(204);
  });
});
