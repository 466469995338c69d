import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { rowsOf } from '../src/db/rows.js';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { browserKeys, decryptPush, startPushEndpoint } from './helpers/push-endpoint.js';

// Issue 23: every kind of notification the app creates reaches the user's devices, in the user's
// language, with the URL of the screen it is about; 429 is retried; the subscription rules.

let t: TestApp;
let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
let respond: () => number | { status: number; headers: Record<string, string> } = () => 201;
let n = 0;

const vehicle = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    make: 'Dacia',
    model: 'Logan',
    year: 2016,
    fuelType: 'PETROL',
    registrationNumber: `PK-${n}-EVD`,
    engineSize: 1.2,
    odometer: 100_000,
    aiEvaluationConsent: true,
    ...extra,
  };
};

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_LOCAL: 'true', PUSH_POLL_MS: '0' });
  endpoint = await startPushEndpoint(() => respond());
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

type Person = { client: TestClient; username: string; inbox: () => Promise<unknown[]> };

/** A user in `language` with one subscribed device; `inbox` drains the outbox and decrypts what reached it. */
async function person(prefix: string, language: 'en' | 'ro' | 'es'): Promise<Person> {
  const { client, account } = await registered(t.app, prefix);
  await client.put('/api/users/me', { username: account.username, email: account.email, language });
  const keys = browserKeys();
  const path = `/push/${account.username}`;
  const res = await client.post('/api/push/subscriptions', {
    endpoint: `${endpoint.base}${path}`,
    keys: keys.json,
  });
  expect(res.statusCode).toBe(201);
  let seen = 0;
  return {
    client,
    username: account.username,
    inbox: async () => {
      await t.app.pushSender.drain();
      const got = endpoint.received.filter((r) => r.path === path);
      const fresh = got.slice(seen);
      seen = got.length;
      return fresh.map((r) => JSON.parse(decryptPush(r.body, keys)));
    },
  };
}

describe('every notification is pushed, in the recipient language, with its URL', () => {
  it('marketplace: interest (ro), message (es), sold to another buyer (en), transfer (es)', async () => {
    const seller = await person('seller', 'ro');
    const buyer = await person('buyer', 'es');
    const other = await person('otherbuyer', 'en');
    const car = (await seller.client.post('/api/vehicles', vehicle({ make: 'Skoda', model: 'Fabia' }))).data
      .id;
    const listed = await seller.client.post('/api/marketplace/list', {
      vehicleId: car,
      price: 5000,
      description: 'Kept well.',
    });
    expect(listed.statusCode).toBe(201);
    const listing = listed.data.id;

    const interest = (await buyer.client.post(`/api/marketplace/interest/${listing}`)).data.interestId;
    expect(await seller.inbox()).toEqual([
      {
        title: 'Interes nou pentru anunțul tău',
        body: `${buyer.username} și-a arătat interesul pentru Skoda Fabia (2016) din anunțul tău.`,
        url: '/marketplace',
      },
    ]);
    await other.client.post(`/api/marketplace/interest/${listing}`);
    await seller.inbox();

    await seller.client.post(`/api/marketplace/chat/${interest}`, { message: 'Hola, sigue disponible.' });
    expect(await buyer.inbox()).toEqual([
      { title: `Nuevo mensaje de ${seller.username}`, body: 'Hola, sigue disponible.', url: '/marketplace' },
    ]);

    expect((await seller.client.patch(`/api/marketplace/transfer/${interest}`)).statusCode).toBe(200);
    expect(await buyer.inbox()).toEqual([
      {
        title: 'Vehículo transferido a ti',
        body: 'El Skoda Fabia (2016) ya es tuyo, con todos sus registros, en Vehículos.',
        url: '/vehicles',
      },
    ]);
    expect(await other.inbox()).toEqual([
      {
        title: 'Vehicle sold',
        body: 'The Skoda Fabia (2016) you were interested in was sold to another buyer.',
        url: '/marketplace',
      },
    ]);
  });

  it('a car shared with you (ro), opening Vehicles', async () => {
    const owner = await person('sharer', 'en');
    const grantee = await person('grantee', 'ro');
    const car = (await owner.client.post('/api/vehicles', vehicle())).data.id;
    const shared = await owner.client.post(`/api/vehicles/${car}/shares`, {
      username: grantee.username,
      role: 'VIEWER',
    });
    expect(shared.statusCode).toBe(201);
    const [push] = (await grantee.inbox()) as { title: string; body: string; url: string }[];
    expect(push).toMatchObject({ title: 'O mașină a fost partajată cu tine', url: '/vehicles' });
    expect(push?.body).toContain(`${owner.username} a partajat Dacia Logan`);
    expect(await owner.inbox()).toEqual([]);
  });

  it('insurance and service reminders open their vehicle’s insurance and service screens', async () => {
    const driver = await person('reminded', 'en');
    const car = (await driver.client.post('/api/vehicles', vehicle())).data.id;
    await driver.client.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2040-01-01',
      endDate: '2040-12-31',
      price: 300,
    });
    await runReminderScan(t.database.db, new Date('2040-12-30T08:00:00Z'));
    expect(await driver.inbox()).toEqual([
      {
        title: 'Insurance ends tomorrow',
        body: `The Allianz policy of your Dacia Logan (PK-${n}-EVD) ends on 2040-12-31. Renew it to stay covered.`,
        url: `/insurance/${car}`,
      },
    ]);
    const other = (await driver.client.post('/api/vehicles', vehicle())).data.id;
    await driver.client.post('/api/revision', {
      vehicleId: other,
      date: '2041-01-10',
      km: 99_000,
      price: 200,
    });
    await runReminderScan(t.database.db, new Date('2042-01-10T08:00:00Z'));
    const pushes = (await driver.inbox()) as { title: string; url: string }[];
    expect(pushes).toEqual([
      expect.objectContaining({ title: 'Service due now', url: `/revision/${other}` }),
    ]);
  });

  it('the marketplace switch stops marketplace pushes only; reminders still come', async () => {
    const seller = await person('quietseller', 'en');
    const buyer = await person('quietbuyer', 'en');
    expect(
      (await seller.client.put('/api/push/preferences', { reminders: true, marketplace: false })).statusCode,
    ).toBe(200);
    const car = (await seller.client.post('/api/vehicles', vehicle())).data.id;
    const listing = (
      await seller.client.post('/api/marketplace/list', { vehicleId: car, price: 4000, description: 'Ok.' })
    ).data.id;
    await buyer.client.post(`/api/marketplace/interest/${listing}`);
    expect(await seller.inbox()).toEqual([]);
    // The bell still shows it.
    expect(
      ((await seller.client.get('/api/notifications')).data as { type: string }[]).map((x) => x.type),
    ).toEqual(['MARKET_INTEREST']);
    await seller.client.post(`/api/vehicles/${car}/renewals`, { type: 'ROAD_TAX', validUntil: '2042-03-01' });
    await runReminderScan(t.database.db, new Date('2042-03-01T08:00:00Z'));
    expect(await seller.inbox()).toEqual([
      expect.objectContaining({ title: 'Road tax expires today', url: `/renewals/${car}` }),
    ]);
  });
});

describe('delivery', () => {
  it('retries a 429 after the push service’s Retry-After, then delivers once', async () => {
    const p = await person('limited', 'en');
    respond = () => ({ status: 429, headers: { 'Retry-After': '600' } });
    await p.client.post('/api/push/test');
    await t.app.pushSender.drain();
    respond = () => 201;
    const [row] = rowsOf<{ attempts: number; wait: number }>(
      await t.database.db.execute(
        sql`select attempts, extract(epoch from next_attempt_at - now())::int as wait from push_outbox`,
      ),
    );
    expect(row?.attempts).toBe(1);
    expect(row?.wait).toBeGreaterThan(590);
    // Not due yet: a second drain sends nothing more.
    await t.app.pushSender.drain();
    expect(await p.inbox()).toHaveLength(1); // the refused attempt reached the endpoint once
    await t.database.db.execute(sql`update push_outbox set next_attempt_at = now()`);
    expect(await p.inbox()).toEqual([
      { title: 'Evdra test notification', body: 'Notifications reach this device.', url: '/settings' },
    ]);
    expect(rowsOf(await t.database.db.execute(sql`select id from push_outbox`))).toHaveLength(0);
  });

  it('a 404 from the push service deletes that subscription', async () => {
    const p = await person('vanished', 'en');
    respond = () => 404;
    await p.client.post('/api/push/test');
    await t.app.pushSender.drain();
    respond = () => 201;
    expect((await p.client.get('/api/push/subscriptions')).data).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('the same endpoint twice is one subscription, even for a second user (the latest owns it)', async () => {
    const a = await registered(t.app, 'firstowner');
    const b = await registered(t.app, 'secondowner');
    // As PushSubscription.toJSON() gives it, with expirationTime.
    const body = {
      endpoint: `${endpoint.base}/push/shared-browser`,
      expirationTime: null,
      keys: browserKeys().json,
    };
    expect((await a.client.post('/api/push/subscriptions', body)).statusCode).toBe(201);
    expect((await a.client.post('/api/push/subscriptions', body)).statusCode).toBe(201);
    expect((await a.client.get('/api/push/subscriptions')).data).toHaveLength(1);
    // A's push not yet sent when B takes the browser over never reaches B's screen.
    respond = () => 503;
    expect((await a.client.post('/api/push/test')).data).toEqual({ devices: 1 });
    await t.app.pushSender.drain();
    respond = () => 201;
    const pending = async () =>
      rowsOf(
        await t.database.db.execute(sql`
        select o.id from push_outbox o join push_subscriptions s on s.id = o.subscription_id
         where s.endpoint = ${body.endpoint}`),
      ).length;
    expect(await pending()).toBe(1);
    expect((await b.client.post('/api/push/subscriptions', body)).statusCode).toBe(201);
    expect(await pending()).toBe(0);
    expect((await a.client.get('/api/push/subscriptions')).data).toEqual([]);
    expect((await b.client.get('/api/push/subscriptions')).data).toEqual([
      expect.objectContaining({ endpoint: body.endpoint }),
    ]);
  });

  it('counts 1 KiB in bytes, and answers 400 in the shared error shape', async () => {
    const { client } = await registered(t.app, 'bytes');
    const keys = browserKeys().json;
    const base = 'https://push.example.com/';
    // 1,024 bytes exactly is fine; 1,024 characters of which one takes 2 bytes are not.
    const fits = await client.post('/api/push/subscriptions', {
      endpoint: base + 'a'.repeat(1024 - base.length),
      keys,
    });
    expect(fits.statusCode).toBe(201);
    const over = await client.post('/api/push/subscriptions', {
      endpoint: `${base}é${'a'.repeat(1024 - base.length - 1)}`,
      keys,
    });
    expect(over.statusCode).toBe(400);
    expect(over.data).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.any(String),
      details: [{ field: 'endpoint', message: 'At most 1 KiB.' }],
    });
    const noBody = await client.request('DELETE', '/api/push/subscriptions', {});
    expect(noBody.statusCode).toBe(400);
    expect(noBody.data.code).toBe('VALIDATION_FAILED');
  });

  it('http://127.0.0.1 and http://localhost only with PUSH_ALLOW_LOCAL=true; never another http host', async () => {
    const keys = browserKeys().json;
    const strict = await createTestApp({ PUSH_POLL_MS: '0' });
    try {
      const { client } = await registered(strict.app, 'strict');
      for (const url of ['http://127.0.0.1:9/p', 'http://localhost:9/p']) {
        const res = await client.post('/api/push/subscriptions', { endpoint: url, keys });
        expect(res.statusCode).toBe(400);
        expect(res.data.details).toEqual([expect.objectContaining({ field: 'endpoint' })]);
      }
    } finally {
      await strict.close();
    }
    const { client } = await registered(t.app, 'local');
    for (const url of ['http://127.0.0.1:9/p', 'http://localhost:9/p']) {
      expect((await client.post('/api/push/subscriptions', { endpoint: url, keys })).statusCode).toBe(201);
    }
    for (const url of ['http://10.0.0.1/p', 'http://push.example.com/p']) {
      expect((await client.post('/api/push/subscriptions', { endpoint: url, keys })).statusCode).toBe(400);
    }
  });
});

describe('VAPID keys', () => {
  it('are made once and kept in the database; the public key served is the stored one', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/push/public-key' })).json();
    expect(Object.keys(served)).toEqual(['publicKey']);
    const stored = rowsOf<{ publicKey: string }>(
      await t.database.db.execute(sql`select public_key as "publicKey" from vapid_keys`),
    );
    expect(stored).toEqual([{ publicKey: served.publicKey }]);
  });

  it('VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY/VAPID_SUBJECT override them, and pushes are signed with them', async () => {
    const keys = webpush.generateVAPIDKeys();
    const own = await createTestApp({
      PUSH_ALLOW_LOCAL: 'true',
      PUSH_POLL_MS: '0',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:admin@example.com',
    });
    try {
      expect((await own.app.inject({ method: 'GET', url: '/api/push/public-key' })).json()).toEqual({
        publicKey: keys.publicKey,
      });
      const { client } = await registered(own.app, 'envkeys');
      const b = browserKeys();
      await client.post('/api/push/subscriptions', {
        endpoint: `${endpoint.base}/push/envkeys`,
        keys: b.json,
      });
      await client.post('/api/push/test');
      await own.app.pushSender.drain();
      const got = endpoint.received.filter((r) => r.path === '/push/envkeys');
      expect(got).toHaveLength(1);
      const auth = String(got[0]?.headers.authorization);
      expect(auth).toContain(`k=${keys.publicKey}`);
      const jwt = auth.match(/t=([^,]+)/)?.[1] ?? '';
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
      expect(claims.sub).toBe('mailto:admin@example.com');
    } finally {
      await own.close();
    }
  });
});
