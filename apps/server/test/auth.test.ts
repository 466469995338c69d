import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('makes the first account ADMIN and later ones USER, signed in', async () => {
    const first = await registered(t.app, 'first');
    expect(first.user.role).toBe('ADMIN');
    const second = await registered(t.app, 'second');
    expect(second.user.role).toBe('USER');
    const me = await second.client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.data).toMatchObject({ username: second.account.username, status: 'Active', gdprConsent: true });
    expect(me.body).not.toContain('password');
  });
});
