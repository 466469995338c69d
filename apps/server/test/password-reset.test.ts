import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { mailBody, mailHeader, mailsTo, resetTokenIn } from './helpers/mail.js';

let t: TestApp;
/** The auth service's clock runs this far ahead of real time. */
let offsetMs = 0;
let admin: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  t = await createTestApp({}, () => new Date(Date.now() + offsetMs));
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());
afterEach(() => {
  offsetMs = 0;
});

const MINUTE = 60_000;
const forgot = (email: string) =>
  new TestClient(t.app).post(`/api/auth/forgot-password?email=${encodeURIComponent(email)}`);
const reset = (token: string, password: string) =>
  new TestClient(t.app).post('/api/auth/reset-password', { token, password });
const login = (username: string, password: string) =>
  new TestClient(t.app).post('/api/auth/login', { username, password });

/** Asks for a reset link for `email` and returns the token from the mail it produced. */
async function resetToken(email: string): Promise<string> {
  const before = new Set(mailsTo(t.outbox(), email));
  expect((await forgot(email)).statusCode).toBe(200);
  const fresh = mailsTo(t.outbox(), email).filter((m) => !before.has(m));
  expect(fresh).toHaveLength(1);
  return resetTokenIn(fresh[0] as string);
}

describe('POST /api/auth/forgot-password', () => {
  it('answers the same for an existing and an unknown email; only the existing one gets a mail', async () => {
    const { account } = await registered(t.app);
    const total = t.outbox().length;
    const known = await forgot(account.email);
    const unknown = await forgot('nobody-at-all@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.data).toEqual({ message: expect.any(String) });

    expect(t.outbox()).toHaveLength(total + 1);
    const [mail] = mailsTo(t.outbox(), account.email);
    expect(mailHeader(mail as string, 'To')).toContain(account.email);
    expect(mailBody(mail as string)).toMatch(/http:\/\/evdra\.test\/reset-password\?token=\S{20,}/);
    expect(mailBody(mail as string)).toContain(account.username);
    expect(mailsTo(t.outbox(), 'nobody-at-all@example.com')).toHaveLength(0);
  });

  it('finds the account whatever the letter case of the email', async () => {
    const { account } = await registered(t.app);
    await forgot(account.email.toUpperCase());
    expect(mailsTo(t.outbox(), account.email)).toHaveLength(1);
  });

  it('rejects a malformed or missing email with 400', async () => {
    const client = new TestClient(t.app);
    expectInvalid(await client.post('/api/auth/forgot-password?email=not-an-email'), 'email');
    expectError(await client.post('/api/auth/forgot-password'), 400, 'VALIDATION_FAILED');
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password: the old one fails, the new one works', async () => {
    const { account } = await registered(t.app);
    const token = await resetToken(account.email);
    const res = await reset(token, 'brand new password');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ message: expect.any(String) });
    expectError(await login(account.username, account.password), 401, 'INVALID_CREDENTIALS');
    expect((await login(account.username, 'brand new password')).statusCode).toBe(200);
  });

  it('ends every session of that user', async () => {
    const { client, account } = await registered(t.app);
    const second = new TestClient(t.app);
    expect((await login(account.username, account.password)).statusCode).toBe(200);
    await second.post('/api/auth/login', { username: account.username, password: account.password });
    const staleRefresh = new TestClient(t.app);
    staleRefresh.cookies.set('evdra_refresh', {
      ...(client.cookies.get('evdra_refresh') as { value: string; path: string }),
    });

    expect((await reset(await resetToken(account.email), 'another new password')).statusCode).toBe(200);

    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    expectError(await second.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    expectError(await staleRefresh.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    expectError(await second.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
  });

  it('accepts a token only once', async () => {
    const { account } = await registered(t.app);
    const token = await resetToken(account.email);
    expect((await reset(token, 'first new password')).statusCode).toBe(200);
    expectError(await reset(token, 'second new password'), 400, 'INVALID_RESET_TOKEN');
    expect((await login(account.username, 'first new password')).statusCode).toBe(200);
    expectError(await login(account.username, 'second new password'), 401, 'INVALID_CREDENTIALS');
  });

  it('invalidates the other links of that user once one is used', async () => {
    const { account } = await registered(t.app);
    const older = await resetToken(account.email);
    const newer = await resetToken(account.email);
    expect((await reset(newer, 'first new password')).statusCode).toBe(200);
    expectError(await reset(older, 'second new password'), 400, 'INVALID_RESET_TOKEN');
  });

  it('still works 59 minutes after the mail, and is refused after 1 hour', async () => {
    const { account } = await registered(t.app);
    const early = await resetToken(account.email);
    offsetMs = 59 * MINUTE;
    expect((await reset(early, 'in time password')).statusCode).toBe(200);

    offsetMs = 0;
    const late = await resetToken(account.email);
    offsetMs = 61 * MINUTE;
    expectError(await reset(late, 'too late password'), 400, 'INVALID_RESET_TOKEN');
    offsetMs = 0;
    expect((await login(account.username, 'in time password')).statusCode).toBe(200);
    expectError(await login(account.username, 'too late password'), 401, 'INVALID_CREDENTIALS');
  });

  it('lifts a failed-login lockout of that account', async () => {
    const { account } = await registered(t.app);
    for (let i = 0; i < 5; i++) await login(account.username, 'wrong password');
    expectError(await login(account.username, account.password), 429, 'RATE_LIMITED');
    expect((await reset(await resetToken(account.email), 'fresh start password')).statusCode).toBe(200);
    expect((await login(account.username, 'fresh start password')).statusCode).toBe(200);
  });

  it('refuses an unknown token with 400 INVALID_RESET_TOKEN', async () => {
    expectError(await reset('x'.repeat(43), 'some new password'), 400, 'INVALID_RESET_TOKEN');
  });

  it('validates the new password and leaves the token usable', async () => {
    const { account } = await registered(t.app);
    const token = await resetToken(account.email);
    expectInvalid(await reset(token, 'short'), 'password');
    expectInvalid(await reset(token, 'z'.repeat(129)), 'password');
    expectInvalid(await new TestClient(t.app).post('/api/auth/reset-password', { token }), 'password');
    expectInvalid(
      await new TestClient(t.app).post('/api/auth/reset-password', { password: 'long enough' }),
      'token',
    );
    expect((await reset(token, 'long enough now')).statusCode).toBe(200);
  });

  it('sends no link to a suspended account', async () => {
    const { account, user } = await registered(t.app);
    const put = await admin.client.put(`/api/admin/users/${user.id}`, {
      username: account.username,
      email: account.email,
      role: 'USER',
      status: 'Suspended',
    });
    expect(put.statusCode).toBe(200);
    const res = await forgot(account.email);
    expect(res.statusCode).toBe(200);
    expect(mailsTo(t.outbox(), account.email)).toHaveLength(0);
  });
});
