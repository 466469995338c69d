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

type Account = ReturnType<typeof newAccount>;
const createUser = (body: Record<string, unknown>) => admin.client.post('/api/admin/users', body);
const updateUser = (id: number, body: Record<string, unknown>) =>
  admin.client.put(`/api/admin/users/${id}`, body);
const login = (account: { username: string; password: string }) =>
  new TestClient(t.app).post('/api/auth/login', { username: account.username, password: account.password });

/** Creates a user through the admin API and returns its account and id. */
async function created(extra: Record<string, unknown> = {}): Promise<{ account: Account; id: number }> {
  const account = newAccount('made');
  const res = await createUser({
    username: account.username,
    email: account.email,
    password: account.password,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { account, id: res.data.id };
}

describe('GET /api/admin/users', () => {
  it('lists every user with role, status, consent and vehicles, never a password hash', async () => {
    const { user, account } = await registered(t.app);
    const res = await admin.client.get('/api/admin/users');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: admin.user.id, role: 'ADMIN', status: 'Active' }),
        newUserView(user, account),
      ]),
    );
    expect(res.body).not.toMatch(/password|argon2/i);
  });

  it('writes a user the same in the list and on /me (by the database) as after an edit (by the server)', async () => {
    const { client, account, user } = await registered(t.app, 'same');
    await client.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2018,
      fuelType: 'PETROL',
      registrationNumber: 'SAME-1',
      engineSize: 1.2,
      odometer: 1000,
    });
    const edited = await client.put('/api/users/me', { username: account.username, email: account.email });
    expect(edited.statusCode).toBe(200);
    expect(edited.data.vehicles).toEqual([expect.objectContaining({ make: 'Dacia', model: 'Logan' })]);
    expect((await client.get('/api/users/me')).data).toEqual(edited.data);
    expect((await client.get('/api/auth/me')).data).toEqual(edited.data);
    const listed = (await admin.client.get('/api/admin/users')).data as { id: number }[];
    expect(listed.find((u) => u.id === user.id)).toEqual(edited.data);
  });

  it('searches username and email with ?q=, ignoring case', async () => {
    const tag = `zq${Math.random().toString(36).slice(2, 7)}`;
    const byName = await created();
    await updateUser(byName.id, { ...byName.account, username: `${tag}_name`, role: 'USER' });
    const byEmail = await created();
    await updateUser(byEmail.id, { ...byEmail.account, email: `mail_${tag}@example.com`, role: 'USER' });
    await created();

    const res = await admin.client.get(`/api/admin/users?q=${tag.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    expect(res.data.map((u: { id: number }) => u.id).sort()).toEqual([byName.id, byEmail.id].sort());
    expect((await admin.client.get('/api/admin/users?q=no-such-user-anywhere')).data).toEqual([]);
    // LIKE wildcards are searched literally.
    expect((await admin.client.get('/api/admin/users?q=%25')).data).toEqual([]);
    expect((await admin.client.get('/api/admin/users?q=')).data.length).toBeGreaterThan(3);
  });

  it('pages with ?limit and the X-Next-Cursor it answers: every user once, as the whole list has them (issue 54)', async () => {
    const tag = `pg${Math.random().toString(36).slice(2, 7)}`;
    for (let i = 0; i < 5; i++) {
      const made = await created();
      await updateUser(made.id, { ...made.account, username: `${tag}_${i}`, role: 'USER' });
    }
    const whole = await admin.client.get(`/api/admin/users?q=${tag}`);
    expect(whole.data).toHaveLength(5);
    expect(whole.headers['x-next-cursor']).toBeUndefined(); // under the cap: the answer it always was

    const pages: { id: number }[][] = [];
    let cursor: string | undefined;
    do {
      const res = await admin.client.get(
        `/api/admin/users?q=${tag}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      pages.push(res.data);
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (cursor)
        expect(res.headers.link).toBe(`</api/admin/users?q=${tag}&limit=2&cursor=${cursor}>; rel="next"`);
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(whole.data);
  });

  it('refuses a limit or cursor it did not give with 400, naming the field', async () => {
    for (const limit of ['0', '501', 'x'])
      expectInvalid(await admin.client.get(`/api/admin/users?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '0', '99999999999', '-1'])
      expectInvalid(await admin.client.get(`/api/admin/users?cursor=${cursor}`), 'cursor');
  });
});

describe('POST /api/admin/users', () => {
  it('creates a USER, Active by default, who can log in', async () => {
    const account = newAccount('new');
    const res = await createUser({
      username: account.username,
      email: account.email,
      password: account.password,
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      id: expect.any(Number),
      username: account.username,
      email: account.email,
      role: 'USER',
      status: 'Active',
      gdprConsent: false,
      vehicles: [],
    });
    expect(res.body).not.toMatch(/password|argon2/i);
    expect((await login(account)).statusCode).toBe(200);
  });

  it('treats a blank status as Active', async () => {
    const account = newAccount('blank');
    const res = await createUser({ ...account, status: '', role: 'USER' });
    expect(res.statusCode).toBe(201);
    expect(res.data.status).toBe('Active');
  });

  it('creates admins and pending users as asked', async () => {
    const newAdmin = await created({ role: 'ADMIN' });
    const client = new TestClient(t.app);
    await client.post('/api/auth/login', {
      username: newAdmin.account.username,
      password: newAdmin.account.password,
    });
    expect((await client.get('/api/admin/users')).statusCode).toBe(200);

    const pending = await created({ status: 'Pending' });
    expectError(await login(pending.account), 403, 'ACCOUNT_PENDING');
  });

  it("requires a password: 'Password required for new users!'", async () => {
    const account = newAccount();
    const res = await createUser({ username: account.username, email: account.email });
    expectInvalid(res, 'password');
    expect(res.data.message).toBe('Password required for new users!');
    expect(res.data.details).toEqual([{ field: 'password', message: 'Password required for new users!' }]);
    expectInvalid(await createUser({ ...account, password: '' }), 'password');
    expectInvalid(await createUser({ ...account, password: 'short' }), 'password');
    expect((await admin.client.get(`/api/admin/users?q=${account.username}`)).data).toEqual([]);
  });

  it('validates every field', async () => {
    const account = newAccount();
    expectInvalid(await createUser({ ...account, username: undefined }), 'username');
    expectInvalid(await createUser({ ...account, username: 'a b' }), 'username');
    expectInvalid(await createUser({ ...account, email: undefined }), 'email');
    expectInvalid(await createUser({ ...account, email: 'not-an-email' }), 'email');
    expectInvalid(await createUser({ ...account, role: 'ROOT' }), 'role');
    expectInvalid(await createUser({ ...account, status: 'Gone' }), 'status');
    expectInvalid(await createUser({ ...account, language: 'de' }), 'language');
    expectInvalid(await createUser({ ...account, gdprConsent: 'yes' }), 'gdprConsent');
  });

  it('refuses duplicates with 409', async () => {
    const { account } = await registered(t.app);
    const other = newAccount();
    expectError(
      await createUser({ ...other, username: account.username.toUpperCase() }),
      409,
      'USERNAME_TAKEN',
    );
    expectError(await createUser({ ...other, email: account.email.toUpperCase() }), 409, 'EMAIL_TAKEN');
  });
});

describe('PUT /api/admin/users/{id}', () => {
  it('updates username, email, role, status, consent and language', async () => {
    const { id } = await created();
    const next = newAccount('edited');
    const res = await updateUser(id, {
      username: next.username,
      email: next.email,
      role: 'USER',
      status: 'Pending',
      gdprConsent: true,
      language: 'es',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({
      id,
      username: next.username,
      email: next.email,
      role: 'USER',
      status: 'Pending',
      gdprConsent: true,
      language: 'es',
    });
    const listed = (await admin.client.get(`/api/admin/users?q=${next.username}`)).data;
    expect(listed).toEqual([expect.objectContaining({ id, status: 'Pending' })]);
  });

  it('keeps the password when none is sent, and changes it (ending sessions) when one is', async () => {
    const { id, account } = await created();
    const client = new TestClient(t.app);
    await client.post('/api/auth/login', { username: account.username, password: account.password });

    await updateUser(id, { username: account.username, email: account.email, role: 'USER', password: '' });
    expect((await login(account)).statusCode).toBe(200);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);

    const res = await updateUser(id, {
      username: account.username,
      email: account.email,
      role: 'USER',
      password: 'set by admin',
    });
    expect(res.statusCode).toBe(200);
    expectError(await login(account), 401, 'INVALID_CREDENTIALS');
    expect((await login({ ...account, password: 'set by admin' })).statusCode).toBe(200);
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('suspending a user ends their live session and stops them logging in', async () => {
    const { client, user, account } = await registered(t.app);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    const res = await updateUser(user.id, { ...account, role: 'USER', status: 'Suspended' });
    expect(res.statusCode).toBe(200);
    expect(res.data.status).toBe('Suspended');
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    expectError(await client.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    expectError(await login(account), 403, 'ACCOUNT_SUSPENDED');
  });

  it('validates the body and the id', async () => {
    const { id, account } = await created();
    const body = { username: account.username, email: account.email, role: 'USER' };
    expectInvalid(await updateUser(id, { ...body, username: 'x' }), 'username');
    expectInvalid(await updateUser(id, { ...body, email: 'bad' }), 'email');
    expectInvalid(await updateUser(id, { ...body, role: undefined }), 'role');
    expectInvalid(await updateUser(id, { ...body, status: 'Gone' }), 'status');
    expectInvalid(await updateUser(id, { ...body, password: 'short' }), 'password');
    expectInvalid(await admin.client.put('/api/admin/users/abc', body), 'id');
    expectError(await updateUser(999_999, body), 404, 'NOT_FOUND');
  });

  it('refuses a username or email of another user with 409, but accepts the own ones', async () => {
    const a = await created();
    const b = await created();
    const body = { username: b.account.username, email: b.account.email, role: 'USER' };
    expectError(await updateUser(b.id, { ...body, username: a.account.username }), 409, 'USERNAME_TAKEN');
    expectError(await updateUser(b.id, { ...body, email: a.account.email }), 409, 'EMAIL_TAKEN');
    expect((await updateUser(b.id, body)).statusCode).toBe(200);
  });
});

describe('DELETE /api/admin/users/{id}', () => {
  it('deletes the user (204), then answers 404', async () => {
    const { client, user, account } = await registered(t.app);
    const res = await admin.client.delete(`/api/admin/users/${user.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await admin.client.delete(`/api/admin/users/${user.id}`), 404, 'NOT_FOUND');
    const list = (await admin.client.get('/api/admin/users')).data as { id: number }[];
    expect(list.map((u) => u.id)).not.toContain(user.id);
    expectError(await client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    expectError(await login(account), 401, 'INVALID_CREDENTIALS');
  });

  it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
    expectError(await admin.client.delete('/api/admin/users/999999'), 404, 'NOT_FOUND');
    expectInvalid(await admin.client.delete('/api/admin/users/abc'), 'id');
    expectInvalid(await admin.client.delete('/api/admin/users/0'), 'id');
  });
});

describe('non-admins', () => {
  it('get 403 FORBIDDEN on every admin call, with no data and no change', async () => {
    const { client } = await registered(t.app);
    const victim = await created();
    const body = { username: victim.account.username, email: victim.account.email, role: 'ADMIN' };
    const calls = [
      await client.get('/api/admin/users'),
      await client.get(`/api/admin/users?q=${victim.account.username}`),
      await client.get(`/api/admin/users?limit=1&cursor=${victim.id - 1}`),
      await client.post('/api/admin/users', newAccount()),
      await client.put(`/api/admin/users/${victim.id}`, body),
      await client.delete(`/api/admin/users/${victim.id}`),
    ];
    for (const res of calls) {
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body).not.toContain(victim.account.username);
      expect(Object.keys(res.data).sort()).toEqual(['code', 'message']);
    }
    const still = (await admin.client.get(`/api/admin/users?q=${victim.account.username}`)).data;
    expect(still).toEqual([expect.objectContaining({ id: victim.id, role: 'USER' })]);
  });

  it('cannot make themselves admin', async () => {
    const { client, user, account } = await registered(t.app);
    const res = await client.put(`/api/admin/users/${user.id}`, { ...account, role: 'ADMIN' });
    expectError(res, 403, 'FORBIDDEN');
    expect((await client.get('/api/users/me')).data.role).toBe('USER');
  });

  it('get 401 without a session', async () => {
    const anon = new TestClient(t.app);
    expectError(await anon.get('/api/admin/users'), 401, 'UNAUTHENTICATED');
    expectError(await anon.delete(`/api/admin/users/${admin.user.id}`), 401, 'UNAUTHENTICATED');
  });
});
