import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { runReminderScan } from '../src/jobs/reminders.js';
import { backoffMs } from '../src/modules/push/push.sender.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { browserKeys, decryptPush, startPushEndpoint } from './helpers/push-endpoint.js';

let t: TestApp;
let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
let status = 201;

const vehicle = (reg: string) => ({
  make: 'Seat',
  model: 'Ibiza',
  year: 2017,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.0,
  odometer: 90_000,
});

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_LOCAL: 'true', PUSH_POLL_MS: '0' });
  endpoint = await startPushEndpoint(() => status);
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

async function device(c: TestClient, name: string) {
  const keys = browserKeys();
  const url = `${endpoint.base}/push/${name}`;
  const res = await c.post('/api/push/subscriptions', {
    endpoint: url,
    keys: keys.json,
    userAgent: `Test ${name}`,
  });
  expect(res.statusCode).toBe(201);
  return { keys, url, path: `/push/${name}` };
}
const outbox = async () =>
  rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from push_outbox`))[0]?.n;

describe('Web Push', () => {
  it('serves one VAPID public key, the same on every call', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/push/public-key' });
    expect(a.statusCode).toBe(200);
    expect(a.json().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/push/public-key' })).json()).toEqual(a.json());
  });

  it('pushes a reminder, encrypted, with the title, body and URL in the user language', async () => {
    const { client, account } = await registered(t.app, 'maria');
    await client.put('/api/users/me', { username: account.username, email: account.email, language: 'es' });
    const phone = await device(client, 'maria-phone');
    const car = (await client.post('/api/vehicles', vehicle('1234-ITV'))).data.id;
    await client.post(`/api/vehicles/${car}/renewals`, { type: 'ITV', validUntil: '2030-03-31' });
    expect(await runReminderScan(t.database.db, new Date('2030-03-30T08:00:00Z'))).toBe(1);
    // The scan only queued it.
    expect(endpoint.received.filter((r) => r.path === phone.path)).toHaveLength(0);
    expect(await t.app.pushSender.drain()).toBeGreaterThanOrEqual(0);
    const got = endpoint.received.filter((r) => r.path === phone.path);
    expect(got).toHaveLength(1);
    const push = got[0];
    if (!push) throw new Error('no push');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(String(push.headers.authorization)).toMatch(/^vapid t=.+, k=/);
    expect(JSON.parse(decryptPush(push.body, phone.keys))).toEqual({
      title: 'ITV vence mañana',
      body: 'ITV de tu Seat Ibiza (1234-ITV) es válido hasta el 2030-03-31. Renuévalo a tiempo.',
      url: `/renewals/${car}`,
    });
    expect(await outbox()).toBe(0);
  });

  it('pushes marketplace-style notifications too, unless the user turned that kind off', async () => {
    const { client } = await registered(t.app, 'kind');
    const d = await device(client, 'kind');
    expect((await client.get('/api/push/preferences')).data).toEqual({ reminders: true, marketplace: true });
    const off = await client.put('/api/push/preferences', { reminders: false, marketplace: true });
    expect(off.data).toEqual({ reminders: false, marketplace: true });
    const car = (await client.post('/api/vehicles', vehicle('KIND-1'))).data.id;
    await client.post(`/api/vehicles/${car}/renewals`, { type: 'VIGNETTE', validUntil: '2031-01-01' });
    await runReminderScan(t.database.db, new Date('2031-01-01T08:00:00Z'));
    await t.app.pushSender.drain();
    expect(endpoint.received.filter((r) => r.path === d.path)).toHaveLength(0);
    // The bell still has it.
    expect((await client.get('/api/notifications')).data).toHaveLength(1);
  });

  it('sends a test notification to every device of the caller', async () => {
    const { client } = await registered(t.app, 'twodev');
    const a = await device(client, 'twodev-a');
    const b = await device(client, 'twodev-b');
    const res = await client.post('/api/push/test');
    expect(res.statusCode).toBe(202);
    expect(res.data).toEqual({ devices: 2 });
    await t.app.pushSender.drain();
    for (const d of [a, b]) {
      const got = endpoint.received.filter((r) => r.path === d.path);
      expect(got).toHaveLength(1);
      expect(JSON.parse(decryptPush(got[0]?.body ?? Buffer.alloc(0), d.keys))).toEqual({
        title: 'Evdra test notification',
        body: 'Notifications reach this device.',
        url: '/settings',
      });
    }
  });

  it('lists devices, keeps one subscription per endpoint, deletes on request; others see none', async () => {
    const { client } = await registered(t.app, 'devs');
    const other = (await registered(t.app, 'other')).client;
    const d = await device(client, 'devs');
    const again = await client.post('/api/push/subscriptions', {
      endpoint: d.url,
      keys: d.keys.json,
      userAgent: 'Renamed',
    });
    expect(again.statusCode).toBe(201);
    const list = (await client.get('/api/push/subscriptions')).data;
    expect(list).toEqual([
      { id: again.data.id, endpoint: d.url, userAgent: 'Renamed', createdAt: expect.any(String) },
    ]);
    expect((await other.get('/api/push/subscriptions')).data).toEqual([]);
    expect((await other.request('DELETE', '/api/push/subscriptions', { endpoint: d.url })).statusCode).toBe(
      404,
    );
    expect((await client.request('DELETE', '/api/push/subscriptions', { endpoint: d.url })).statusCode).toBe(
      204,
    );
    expect((await client.get('/api/push/subscriptions')).data).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/push/subscriptions' })).statusCode).toBe(401);
  });

  it('refuses a non-https endpoint, one over 1 KiB and bad keys with 400', async () => {
    const { client } = await registered(t.app, 'bad');
    const keys = browserKeys().json;
    const post = (body: unknown) => client.post('/api/push/subscriptions', body);
    const field = (res: { data: { details?: { field?: string }[] } }) =>
      res.data.details?.map((d) => d.field);
    const plain = await post({ endpoint: 'http://push.example.com/x', keys });
    expect(plain.statusCode).toBe(400);
    expect(field(plain)).toEqual(['endpoint']);
    expect((await post({ endpoint: 'ftp://push.example.com/x', keys })).statusCode).toBe(400);
    expect((await post({ endpoint: 'not a url', keys })).statusCode).toBe(400);
    const long = await post({ endpoint: `https://push.example.com/${'a'.repeat(1024)}`, keys });
    expect(long.statusCode).toBe(400);
    expect(field(long)).toEqual(['endpoint']);
    const short = await post({ endpoint: 'https://push.example.com/x', keys: { ...keys, p256dh: 'AAAA' } });
    expect(short.statusCode).toBe(400);
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const notPoint = await post({
      endpoint: 'https://push.example.com/x',
      keys: { ...keys, p256dh: offCurve.toString('base64url') },
    });
    expect(notPoint.statusCode).toBe(400);
    expect(field(notPoint)).toEqual(['keys.p256dh']);
    expect(
      (await post({ endpoint: 'https://push.example.com/x', keys: { ...keys, auth: 'x!' } })).statusCode,
    ).toBe(400);
    expect((await post({ endpoint: 'https://push.example.com/x' })).statusCode).toBe(400);
    expect((await client.get('/api/push/subscriptions')).data).toEqual([]);
    // https is always fine.
    expect((await post({ endpoint: 'https://push.example.com/ok', keys })).statusCode).toBe(201);
  });

  it('removes a subscription the push service answers 410 for, and retries a 503 later', async () => {
    const { client } = await registered(t.app, 'gone');
    const d = await device(client, 'gone');
    status = 410;
    await client.post('/api/push/test');
    await t.app.pushSender.drain();
    status = 201;
    expect((await client.get('/api/push/subscriptions')).data).toEqual([]);
    expect(await outbox()).toBe(0);

    const e = await device(client, 'busy');
    status = 503;
    await client.post('/api/push/test');
    await t.app.pushSender.drain();
    status = 201;
    expect(endpoint.received.filter((r) => r.path === e.path)).toHaveLength(1);
    const [row] = rowsOf<{ attempts: number; wait: number }>(
      await t.database.db.execute(
        sql`select attempts, extract(epoch from next_attempt_at - now())::int as wait from push_outbox`,
      ),
    );
    expect(row?.attempts).toBe(1);
    expect(row?.wait).toBeGreaterThan(20);
    // Not due yet: nothing sent; once due, delivered and gone.
    await t.app.pushSender.drain();
    expect(endpoint.received.filter((r) => r.path === e.path)).toHaveLength(1);
    await t.database.db.execute(sql`update push_outbox set next_attempt_at = now()`);
    expect(await t.app.pushSender.drain()).toBe(1);
    expect(endpoint.received.filter((r) => r.path === e.path)).toHaveLength(2);
    expect(await outbox()).toBe(0);
    expect(d.path).not.toBe(e.path);
  });

  it('removes the device subscription when its session logs out', async () => {
    const { client } = await registered(t.app, 'leaves');
    await device(client, 'leaves');
    expect((await client.get('/api/push/subscriptions')).data).toHaveLength(1);
    const other = await registered(t.app, 'stays');
    await device(other.client, 'stays');
    expect((await client.post('/api/auth/logout')).statusCode).toBeLessThan(300);
    const rows = rowsOf<{ endpoint: string }>(
      await t.database.db.execute(
        sql`select endpoint from push_subscriptions where endpoint like '%/push/leaves' or endpoint like '%/push/stays'`,
      ),
    );
    expect(rows.map((r) => r.endpoint.split('/').at(-1))).toEqual(['stays']);
  });

  it('backs off 30 s, 1 min, 2 min… up to 6 h, longer when the service says Retry-After', () => {
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(3)).toBe(120_000);
    expect(backoffMs(30)).toBe(6 * 3600_000);
    expect(backoffMs(1, '600')).toBe(600_000);
    expect(backoffMs(3, '5')).toBe(120_000);
  });
});

describe.runIf(process.env.EVDRA_TEST_DB === 'postgres')('two replicas on one PostgreSQL', () => {
  it('agree on the VAPID key and send each push once', async () => {
    const second = await createTestApp({ PUSH_ALLOW_LOCAL: 'true', PUSH_POLL_MS: '0' }, undefined, t);
    try {
      const key = async (a: TestApp) =>
        (await a.app.inject({ method: 'GET', url: '/api/push/public-key' })).json();
      expect(await key(second)).toEqual(await key(t));
      const { client } = await registered(t.app, 'replica');
      const d = await device(client, 'replica');
      for (let i = 0; i < 5; i += 1) await client.post('/api/push/test');
      await Promise.all([t.app.pushSender.drain(), second.app.pushSender.drain(), t.app.pushSender.drain()]);
      expect(endpoint.received.filter((r) => r.path === d.path)).toHaveLength(5);
    } finally {
      await second.close();
    }
  });
});
