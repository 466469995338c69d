import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

// Each test starts from a fresh database whose only admin is `admin`.
let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
beforeEach(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'admin');
});
afterEach(() => t.close());

const self = () => ({ username: admin.account.username, email: admin.account.email });

describe('the last active admin', () => {
  it('cannot be deleted, demoted, suspended or set pending (409 LAST_ADMIN)', async () => {
    // Ordinary users do not count.
    await registered(t.app);
    const id = admin.user.id;
    expectError(await admin.client.delete(`/api/admin/users/${id}`), 409, 'LAST_ADMIN');
    expectError(
      await admin.client.put(`/api/admin/users/${id}`, { ...self(), role: 'USER' }),
      409,
      'LAST_ADMIN',
    );
    for (const status of ['Suspended', 'Pending']) {
      expectError(
        await admin.client.put(`/api/admin/users/${id}`, { ...self(), role: 'ADMIN', status }),
        409,
        'LAST_ADMIN',
      );
    }
    const me = await admin.client.get('/api/users/me');
    expect(me.data).toMatchObject({ id, role: 'ADMIN', status: 'Active' });
    // Editing other fields of the last admin is fine.
    const renamed = await admin.client.put(`/api/admin/users/${id}`, {
      ...self(),
      role: 'ADMIN',
      language: 'ro',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data.language).toBe('ro');
  });

  it('a suspended second admin does not count', async () => {
    const other = newAccount('admin2');
    const res = await admin.client.post('/api/admin/users', { ...other, role: 'ADMIN', status: 'Suspended' });
    expect(res.statusCode).toBe(201);
    expectError(
      await admin.client.put(`/api/admin/users/${admin.user.id}`, { ...self(), role: 'USER' }),
      409,
      'LAST_ADMIN',
    );
    expectError(await admin.client.delete(`/api/admin/users/${admin.user.id}`), 409, 'LAST_ADMIN');
  });

  it('can be demoted once a second active admin exists, and then loses admin access', async () => {
    const other = newAccount('admin2');
    const created = await admin.client.post('/api/admin/users', { ...other, role: 'ADMIN' });
    expect(created.statusCode).toBe(201);

    const res = await admin.client.put(`/api/admin/users/${admin.user.id}`, { ...self(), role: 'USER' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.role).toBe('USER');
    expectError(await admin.client.get('/api/admin/users'), 403, 'FORBIDDEN');

    // Now the second admin is the last one.
    const second = new TestClient(t.app);
    await second.post('/api/auth/login', { username: other.username, password: other.password });
    expectError(await second.delete(`/api/admin/users/${created.data.id}`), 409, 'LAST_ADMIN');
    expect((await second.delete(`/api/admin/users/${admin.user.id}`)).statusCode).toBe(204);
  });

  it('can be deleted by another admin once a second active admin exists', async () => {
    const other = newAccount('admin2');
    expect((await admin.client.post('/api/admin/users', { ...other, role: 'ADMIN' })).statusCode).toBe(201);
    expect((await admin.client.delete(`/api/admin/users/${admin.user.id}`)).statusCode).toBe(204);
    expectError(await admin.client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });
});
