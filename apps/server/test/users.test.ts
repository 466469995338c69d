import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid, newUserView } from './helpers/expect.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());

describe('GET /api/users/me', () => {
  it('answers the caller with role and consent, never a password hash', async () => {
    const { client, user, account } = await registered(t.app);
    const res = await client.get('/api/users/me');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual(newUserView(user, account));
    expect(res.body).not.toMatch(/password|argon2/i);
  });

  it('lists the vehicles of the caller (id, make, model, oldest first), the same on /api/auth/me', async () => {
    const { client } = await registered(t.app);
    const other = await registered(t.app);
    const ids: number[] = [];
    for (const [make, reg] of [
      ['Dacia', 'ME-1'],
      ['Skoda', 'ME-2'],
    ] as const) {
      const v = {
        make,
        model: 'M',
        year: 2020,
        fuelType: 'PETROL',
        registrationNumber: reg,
        engineSize: 1.2,
        odometer: 0,
      };
      ids.push((await client.post('/api/vehicles', v)).data.id);
    }
    await other.client.post('/api/vehicles', {
      make: 'BMW',
      model: 'X',
      year: 2020,
      fuelType: 'DIESEL',
      registrationNumber: 'O-1',
      engineSize: 2,
      odometer: 0,
    });
    const expected = [
      { id: ids[0], make: 'Dacia', model: 'M' },
      { id: ids[1], make: 'Skoda', model: 'M' },
    ];
    expect((await client.get('/api/users/me')).data.vehicles).toEqual(expected);
    expect((await client.get('/api/auth/me')).data.vehicles).toEqual(expected);
    expect((await other.client.get('/api/auth/me')).data.vehicles).toHaveLength(1);
  });

  it('shows each user only their own profile', async () => {
    const a = await registered(t.app);
    const b = await registered(t.app);
    const res = await b.client.get('/api/users/me');
    expect(res.data.id).toBe(b.user.id);
    expect(res.body).not.toContain(a.account.username);
  });

  it('answers 401 without a session', async () => {
    expectError(await new TestClient(t.app).get('/api/users/me'), 401, 'UNAUTHENTICATED');
    expectError(await new TestClient(t.app).put('/api/users/me', newAccount()), 401, 'UNAUTHENTICATED');
  });
});

describe('PUT /api/users/me', () => {
  it('updates username, email and language', async () => {
    const { client, account } = await registered(t.app);
    const next = newAccount('renamed');
    const res = await client.put('/api/users/me', {
      username: next.username,
      email: next.email,
      language: 'ro',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ username: next.username, email: next.email, language: 'ro' });
    expect((await client.get('/api/users/me')).data).toMatchObject({
      username: next.username,
      language: 'ro',
    });
    // The new username logs in; the old one no longer exists.
    const login = new TestClient(t.app);
    expect(
      (await login.post('/api/auth/login', { username: next.username, password: account.password }))
        .statusCode,
    ).toBe(200);
    expectError(
      await login.post('/api/auth/login', { username: account.username, password: account.password }),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it('keeps the language when it is not sent', async () => {
    const { client, account } = await registered(t.app);
    await client.put('/api/users/me', { username: account.username, email: account.email, language: 'es' });
    const res = await client.put('/api/users/me', { username: account.username, email: account.email });
    expect(res.statusCode).toBe(200);
    expect(res.data.language).toBe('es');
  });

  it('allows keeping your own username and email, or changing their letter case', async () => {
    const { client, account } = await registered(t.app);
    const same = await client.put('/api/users/me', { username: account.username, email: account.email });
    expect(same.statusCode).toBe(200);
    const upper = await client.put('/api/users/me', {
      username: account.username.toUpperCase(),
      email: account.email.toUpperCase(),
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.data).toMatchObject({ username: account.username.toUpperCase(), email: account.email });
  });

  it("refuses another user's username (any case) with 409 USERNAME_TAKEN and changes nothing", async () => {
    const a = await registered(t.app);
    const b = await registered(t.app);
    const res = await b.client.put('/api/users/me', {
      username: a.account.username.toUpperCase(),
      email: b.account.email,
    });
    expectError(res, 409, 'USERNAME_TAKEN');
    expect(res.data.details).toEqual([expect.objectContaining({ field: 'username' })]);
    expect((await b.client.get('/api/users/me')).data.username).toBe(b.account.username);
  });

  it("refuses another user's email with 409 EMAIL_TAKEN and changes nothing", async () => {
    const a = await registered(t.app);
    const b = await registered(t.app);
    const res = await b.client.put('/api/users/me', {
      username: b.account.username,
      email: a.account.email.toUpperCase(),
    });
    expectError(res, 409, 'EMAIL_TAKEN');
    expect(res.data.details).toEqual([expect.objectContaining({ field: 'email' })]);
    expect((await b.client.get('/api/users/me')).data.email).toBe(b.account.email);
  });

  it('validates username, email and language', async () => {
    const { client, account } = await registered(t.app);
    const body = { username: account.username, email: account.email };
    expectInvalid(await client.put('/api/users/me', { ...body, username: 'ab' }), 'username');
    expectInvalid(await client.put('/api/users/me', { ...body, username: 'no spaces' }), 'username');
    expectInvalid(await client.put('/api/users/me', { ...body, username: 'x'.repeat(33) }), 'username');
    expectInvalid(await client.put('/api/users/me', { email: account.email }), 'username');
    expectInvalid(await client.put('/api/users/me', { ...body, email: 'nope' }), 'email');
    expectInvalid(await client.put('/api/users/me', { username: account.username }), 'email');
    expectInvalid(await client.put('/api/users/me', { ...body, language: 'de' }), 'language');
    expect((await client.get('/api/users/me')).data).toMatchObject({ ...body, language: 'en' });
  });

  it('cannot change role, status or consent through the profile', async () => {
    const { client, account } = await registered(t.app);
    const res = await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      role: 'ADMIN',
      status: 'Suspended',
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ role: 'USER', status: 'Active' });
    expectError(await client.get('/api/admin/users'), 403, 'FORBIDDEN');
  });
});

describe('PUT /api/users/me/gdpr-consent', () => {
  /** A user an admin created without consent, logged in. */
  async function withoutConsent() {
    const account = newAccount('noconsent');
    const created = await admin.client.post('/api/admin/users', {
      username: account.username,
      email: account.email,
      password: account.password,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.data.gdprConsent).toBe(false);
    const client = new TestClient(t.app);
    await client.post('/api/auth/login', { username: account.username, password: account.password });
    return client;
  }

  it('goes from false to true', async () => {
    const client = await withoutConsent();
    expect((await client.get('/api/users/me')).data.gdprConsent).toBe(false);
    const res = await client.put('/api/users/me/gdpr-consent', { consent: true });
    expect(res.statusCode).toBe(200);
    expect(res.data.gdprConsent).toBe(true);
    expect((await client.get('/api/users/me')).data.gdprConsent).toBe(true);
  });

  it('refuses true to false with 400 CONSENT_IRREVOCABLE', async () => {
    const { client } = await registered(t.app);
    const res = await client.put('/api/users/me/gdpr-consent', { consent: false });
    expectError(res, 400, 'CONSENT_IRREVOCABLE');
    expect((await client.get('/api/users/me')).data.gdprConsent).toBe(true);
  });

  it('accepts giving consent again when already given', async () => {
    const { client } = await registered(t.app);
    const res = await client.put('/api/users/me/gdpr-consent', { consent: true });
    expect(res.statusCode).toBe(200);
    expect(res.data.gdprConsent).toBe(true);
  });

  it('needs a boolean consent', async () => {
    const client = await withoutConsent();
    expectInvalid(await client.put('/api/users/me/gdpr-consent', {}), 'consent');
    expectInvalid(await client.put('/api/users/me/gdpr-consent', { consent: 'yes' }), 'consent');
    expect((await client.get('/api/users/me')).data.gdprConsent).toBe(false);
  });
});
