import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../src/db/schema.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';
import { resetTokenIn } from './helpers/mail.js';

// Sessions end when they should: every epoch bump revokes the refresh tokens in the same
// transaction, and logout or family revocation ends the access token at once.
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
});
afterAll(() => t.close());

function copyOf(client: TestClient) {
  const copy = new TestClient(t.app);
  for (const [name, c] of client.cookies) copy.cookies.set(name, { ...c });
  copy.csrfToken = client.csrfToken;
  return copy;
}

const liveTokens = async (userId: number) =>
  (
    await t.database.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
  ).length;

/** The session as the user had it, checked after `end` ran: both cookies refused. */
async function expectEnded(victim: Awaited<ReturnType<typeof registered>>, end: () => Promise<unknown>) {
  const stolen = copyOf(victim.client);
  expect((await stolen.get('/api/auth/me')).statusCode).toBe(200);
  await end();
  expect(await liveTokens(victim.user.id)).toBe(0);
  expectError(await stolen.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  expect((await stolen.post('/api/auth/refresh')).statusCode).toBe(401);
  expectError(await stolen.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
}

const adminUpdate = (victim: Awaited<ReturnType<typeof registered>>, extra: Record<string, unknown>) =>
  admin.put(`/api/admin/users/${victim.user.id}`, {
    username: victim.account.username,
    email: victim.account.email,
    role: 'USER',
    status: 'Active',
    gdprConsent: true,
    ...extra,
  });

describe('an epoch bump ends every session of the user', () => {
  it('when an admin changes the password', async () => {
    const victim = await registered(t.app, 'pw');
    await expectEnded(victim, async () => {
      expect((await adminUpdate(victim, { password: 'another horse 2' })).statusCode).toBe(200);
    });
  });

  it('when an admin suspends the user', async () => {
    const victim = await registered(t.app, 'susp');
    await expectEnded(victim, async () => {
      expect((await adminUpdate(victim, { status: 'Suspended' })).statusCode).toBe(200);
    });
    // Reactivating does not bring the old session back.
    expect((await adminUpdate(victim, { status: 'Active' })).statusCode).toBe(200);
    expect((await victim.client.get('/api/auth/me')).statusCode).toBe(401);
    expect((await victim.client.post('/api/auth/refresh')).statusCode).toBe(401);
  });

  it('when the password is reset through the emailed link', async () => {
    const victim = await registered(t.app, 'reset');
    await expectEnded(victim, async () => {
      await new TestClient(t.app).post(`/api/auth/forgot-password?email=${victim.account.email}`);
      const mail = t.outbox().find((m) => m.includes(victim.account.email)) as string;
      const res = await new TestClient(t.app).post('/api/auth/reset-password', {
        token: resetTokenIn(mail),
        password: 'brand new horse 3',
      });
      expect(res.statusCode).toBe(200);
    });
  });

  it('when an admin deletes the user', async () => {
    const victim = await registered(t.app, 'del');
    await expectEnded(victim, async () => {
      expect((await admin.delete(`/api/admin/users/${victim.user.id}`)).statusCode).toBe(204);
    });
  });

  it('a profile change that bumps nothing keeps the session', async () => {
    const user = await registered(t.app, 'keep');
    expect((await adminUpdate(user, { gdprConsent: true })).statusCode).toBe(200);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
    expect(await liveTokens(user.user.id)).toBe(1);
  });
});

describe('the access token ends with its session', () => {
  it('at logout, at once', async () => {
    const user = await registered(t.app, 'out');
    const stolen = copyOf(user.client);
    expect((await stolen.get('/api/vehicles')).statusCode).toBe(200);
    expect((await user.client.post('/api/auth/logout')).statusCode).toBe(204);
    expectError(await stolen.get('/api/vehicles'), 401, 'UNAUTHENTICATED');
    expectError(await stolen.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('when reuse of a rotated refresh token revokes the family', async () => {
    const user = await registered(t.app, 'reuse');
    const thief = copyOf(user.client);
    expect((await user.client.post('/api/auth/refresh')).statusCode).toBe(200);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
    // The thief replays the rotated token: the family dies, and with it the owner's fresh access token.
    expect((await thief.post('/api/auth/refresh')).statusCode).toBe(401);
    expectError(await user.client.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
  });

  it('leaves the other logins of the same user working', async () => {
    const user = await registered(t.app, 'two');
    const other = new TestClient(t.app);
    expect(
      (
        await other.post('/api/auth/login', {
          username: user.account.username,
          password: user.account.password,
        })
      ).statusCode,
    ).toBe(200);
    expect((await user.client.post('/api/auth/logout')).statusCode).toBe(204);
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe.runIf(process.env.EVDRA_TEST_DB === 'postgres')('on two servers sharing one PostgreSQL', () => {
  it('a logout on A is refused on B at once, and a suspension on A too', async () => {
    const b = await createTestApp({}, undefined, t);
    try {
      const user = await registered(t.app, 'replica');
      const onB = new TestClient(b.app);
      for (const [name, c] of user.client.cookies) onB.cookies.set(name, { ...c });
      onB.csrfToken = user.client.csrfToken;
      expect((await onB.get('/api/auth/me')).statusCode).toBe(200); // B caches the live family
      expect((await user.client.post('/api/auth/logout')).statusCode).toBe(204);
      expect(await statusWithin(() => onB.get('/api/auth/me'), 401)).toBe(401);

      const other = await registered(t.app, 'replica');
      const otherOnB = new TestClient(b.app);
      for (const [name, c] of other.client.cookies) otherOnB.cookies.set(name, { ...c });
      expect((await otherOnB.get('/api/auth/me')).statusCode).toBe(200);
      expect((await adminUpdate(other, { status: 'Suspended' })).statusCode).toBe(200);
      expect(await statusWithin(() => otherOnB.get('/api/auth/me'), 401)).toBe(401);
    } finally {
      await b.close();
    }
  });
});

/**
 * B learns of A's change through NOTIFY, which arrives a few milliseconds after A's commit: the
 * status `want` once it shows, or the last status after one second.
 */
async function statusWithin(request: () => Promise<{ statusCode: number }>, want: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < 50; i++) {
    status = (await request()).statusCode;
    if (status === want) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return status;
}
