import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { insurances, renewals, webhookDeliveries } from '../src/db/schema.js';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';
import { type Received, startPushEndpoint } from './helpers/push-endpoint.js';
import { tableResolver } from './helpers/resolver.js';

// Webhooks (issue 53): signed deliveries from a database outbox, in order per subscription,
// retried with backoff (the test passes the clock to drain: nobody sleeps), re-sent on demand,
// paused after failing for 3 days, delivered after a restart and once across two replicas.
// The receiver is a plain-http loopback server, reachable only through the guard's test switch.

let t: TestApp;
let owner: TestClient;
let stranger: TestClient;
let car: number;
let answer: (r: Received) => number = () => 200;
let receiver: Awaited<ReturnType<typeof startPushEndpoint>>;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

type Event = { id: string; event: string; createdAt: string; kind?: string; data: Record<string, unknown> };
const bodyOf = (r: Received) => JSON.parse(r.body.toString('utf8')) as Event;
const header = (r: Received, name: string) => String(r.headers[name] ?? '');

/** What a receiver does: recompute the HMAC of `t.body` with the secret and compare in constant time. */
function verified(r: Received, secret: string): boolean {
  const parts = Object.fromEntries(
    header(r, 'x-evdra-signature')
      .split(',')
      .map((p) => p.split('=')),
  );
  const expected = createHmac('sha256', secret)
    .update(`${parts.t}.${r.body.toString('utf8')}`)
    .digest();
  const given = Buffer.from(String(parts.v1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const hooks: { id: number; secret: string }[] = [];
const addHook = async (path: string, events: string[], extra: object = {}, who = owner) => {
  const res = await who.post('/api/webhooks', { url: `${receiver.base}${path}`, events, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  hooks.push(res.data);
  return res.data as { id: number; secret: string; url: string; events: string[] };
};
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const fillUp = (liters: number, date = '2025-06-01') =>
  owner.post('/api/fuel-consumptions', { vehicleId: car, fuelType: 'DIESEL', liters, fuelPrice: 290, date });
const deliveries = async (id: number, who = owner) => (await who.get(`/api/webhooks/${id}/deliveries`)).data;
const drain = (when?: Date) => t.app.webhookSender.drain(when);

beforeAll(async () => {
  receiver = await startPushEndpoint((r) => answer(r));
  t = await createTestApp({ OUTBOUND_ALLOW_LOCAL: 'true', WEBHOOK_POLL_MS: '0', PUSH_POLL_MS: '0' });
  owner = (await registered(t.app, 'hooks')).client;
  stranger = (await registered(t.app, 'other')).client;
  car = (
    await owner.post('/api/vehicles', {
      make: 'Ford',
      model: 'Focus',
      year: 2017,
      fuelType: 'DIESEL',
      registrationNumber: `WH-${Math.random().toString(36).slice(2, 7)}`,
      engineSize: 1.6,
      odometer: 90_000,
      aiEvaluationConsent: true,
    })
  ).data.id;
}, 60_000);
afterAll(async () => {
  // After the restart test t.app is the second app; t.close() closes the first (again) and the database.
  await t.app.close();
  await t.close();
  await receiver.close();
});
beforeEach(() => {
  answer = () => 200;
});

describe('webhook subscriptions', () => {
  // PostgreSQL only: two replicas need one database both reach; PGlite belongs to one process.
  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    'a webhook added through one replica hears the next write made through another',
    async () => {
      const other = await createTestApp({ OUTBOUND_ALLOW_LOCAL: 'true', WEBHOOK_POLL_MS: '0' }, undefined, t);
      try {
        const there = Object.assign(new TestClient(other.app), {
          cookies: new Map(owner.cookies),
          csrfToken: owner.csrfToken,
        });
        await vi.waitFor(() => expect(other.app.webhookPresence.listening).toBe(true));
        // No webhook anywhere: the other replica learns it once and stops looking.
        await there.post('/api/fuel-consumptions', {
          vehicleId: car,
          liters: 3,
          fuelPrice: 20,
          date: '2025-04-01',
        });
        expect(await other.app.webhookPresence.any(other.database.db)).toBe(false);
        const hook = await addHook('/replica-added', ['record.created']);
        // Told by NOTIFY, milliseconds after the commit.
        await vi.waitFor(async () =>
          expect(await other.app.webhookPresence.any(other.database.db)).toBe(true),
        );
        const res = await there.post('/api/fuel-consumptions', {
          vehicleId: car,
          liters: 4,
          fuelPrice: 25,
          date: '2025-04-02',
        });
        expect(res.statusCode).toBe(201);
        await drain();
        expect(at('/replica-added').map((r) => bodyOf(r).data.liters)).toEqual([4]);
        // Deleted: no webhook anywhere again, for the next test.
        expect((await owner.delete(`/api/webhooks/${hook.id}`)).statusCode).toBe(204);
      } finally {
        await other.app.close();
        await other.database.close();
      }
    },
  );

  it('with no webhook anywhere a write queues nothing; the first webhook added hears the very next write', async () => {
    await vi.waitFor(() => expect(t.app.webhookPresence.listening).toBe(true));
    await fillUp(5, '2025-05-01');
    expect(await t.app.webhookPresence.any(t.database.db)).toBe(false);
    expect(await t.database.db.select().from(webhookDeliveries)).toEqual([]);
    await addHook('/first', ['record.created']);
    await fillUp(6, '2025-05-02');
    await drain();
    expect(at('/first').map((r) => bodyOf(r).data.liters)).toEqual([6]);
  });

  it('refuses a URL that is not https or not on a public address (400 on url)', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://10.0.0.5/hook',
      'https://192.168.1.10/x',
      'ftp://x.example',
    ]) {
      const res = await owner.post('/api/webhooks', { url, events: ['record.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.data.details[0].field, url).toBe('url');
    }
    const none = await owner.post('/api/webhooks', { url: 'https://hooks.example.com/x', events: [] });
    expect(none.statusCode).toBe(400);
    expect(none.data.details[0].field).toBe('events');
  });

  it('answers a new webhook with its secret once; the list never shows it', async () => {
    const hook = await addHook('/created', ['record.created']);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook).toMatchObject({ events: ['record.created'], pausedAt: null });
    const list = (await owner.get('/api/webhooks')).data;
    expect(list.map((w: { id: number }) => w.id)).toContain(hook.id);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
  });

  it('answers a PUT that changes nothing with the webhook as it is (200), and a stranger still 404', async () => {
    const hook = await addHook('/unchanged', ['record.created']);
    const res = await owner.put(`/api/webhooks/${hook.id}`, { unknownField: { a: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({
      id: hook.id,
      url: hook.url,
      events: ['record.created'],
      pausedAt: null,
    });
    expect(res.data.secret).toBeUndefined();
    expect((await stranger.put(`/api/webhooks/${hook.id}`, {})).statusCode).toBe(404);
  });

  it("answers 404 to another user's webhook id for every call, and lists none of them", async () => {
    const hook = await addHook('/private', ['record.deleted']);
    const d = (await owner.post(`/api/webhooks/${hook.id}/deliveries/1/resend`)).statusCode;
    expect(d).toBe(404);
    for (const res of [
      await stranger.get(`/api/webhooks/${hook.id}/deliveries`),
      await stranger.put(`/api/webhooks/${hook.id}`, { events: ['record.created'] }),
      await stranger.post(`/api/webhooks/${hook.id}/deliveries/1/resend`),
      await stranger.delete(`/api/webhooks/${hook.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data.code).toBe('NOT_FOUND');
    }
    expect((await stranger.get('/api/webhooks')).data).toEqual([]);
    expect((await owner.get('/api/webhooks')).data.map((w: { id: number }) => w.id)).toContain(hook.id);
  });
});

describe('deliveries', () => {
  it('posts each record event as signed JSON with an idempotency id, the record as the API shows it', async () => {
    const hook = await addHook('/records', ['record.created', 'record.updated', 'record.deleted'], {
      kinds: ['fuel'],
    });
    const added = (await fillUp(40)).data;
    await owner.put(`/api/fuel-consumptions/${added.id}`, { ...added, liters: 42 });
    await owner.delete(`/api/fuel-consumptions/${added.id}`);
    // An expense is another kind: not asked for.
    await owner.post('/api/expenses', {
      vehicleId: car,
      date: '2025-06-02',
      expenseType: 'Tyres',
      amount: 10,
    });
    expect(await drain()).toBeGreaterThanOrEqual(3);

    const got = at('/records');
    expect(got.map((r) => bodyOf(r).event)).toEqual(['record.created', 'record.updated', 'record.deleted']);
    for (const r of got) {
      expect(verified(r, hook.secret)).toBe(true);
      expect(header(r, 'content-type')).toBe('application/json');
      expect(header(r, 'x-evdra-delivery')).toBe(bodyOf(r).id);
      expect(
        Math.abs(Number(/t=(\d+)/.exec(header(r, 'x-evdra-signature'))?.[1]) * 1000 - Date.now()),
      ).toBeLessThan(MIN);
    }
    const [created, updated] = got.map(bodyOf);
    expect(created).toMatchObject({ kind: 'fuel', data: { id: added.id, vehicleId: car, liters: 40 } });
    expect(updated?.data).toMatchObject({ id: added.id, liters: 42 });
    expect(Object.keys(created?.data ?? {}).sort()).toEqual(Object.keys(added).sort());
    // A tampered body fails the check.
    const forged = {
      ...got[0],
      body: Buffer.from(got[0]?.body.toString().replace('40', '41') ?? ''),
    } as Received;
    expect(verified(forged, hook.secret)).toBe(false);

    const list = await deliveries(hook.id);
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({
      event: 'record.deleted',
      status: 'delivered',
      responseStatus: 200,
      attempts: 1,
    });
  });

  it('tells a reminder and a renewal that come due (reminder.due, renewal.due: the notification as the API shows it)', async () => {
    await addHook('/reminders', ['reminder.due', 'renewal.due']);
    await t.database.db.insert(insurances).values({
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2030-06-08',
      endDate: '2031-06-08',
      price: 300,
    });
    await t.database.db.insert(renewals).values({ vehicleId: car, type: 'ITP', validUntil: '2031-06-08' });
    await runReminderScan(t.database.db, new Date('2031-06-01T08:00:00Z'));
    await drain();
    const got = at('/reminders').map(bodyOf);
    expect(got.map((b) => b.event).sort()).toEqual(['reminder.due', 'renewal.due']);
    expect(got.find((b) => b.event === 'reminder.due')).toMatchObject({
      data: { type: 'INSURANCE_REMINDER', vehicleId: car, read: false },
    });
    expect(got.find((b) => b.event === 'renewal.due')?.data).toMatchObject({ type: 'RENEWAL_REMINDER' });
  });

  it("tells a seller of interest in their listing and of a buyer's message", async () => {
    await addHook('/market', ['listing.interest', 'message.received']);
    const forSale = (
      await owner.post('/api/vehicles', {
        make: 'Opel',
        model: 'Astra',
        year: 2015,
        fuelType: 'PETROL',
        registrationNumber: `MK-${Math.random().toString(36).slice(2, 7)}`,
        engineSize: 1.4,
        odometer: 120_000,
        aiEvaluationConsent: true,
      })
    ).data.id;
    const listing = (await owner.post('/api/marketplace/list', { vehicleId: forSale, price: 5000 })).data;
    const interest = (await stranger.post(`/api/marketplace/interest/${listing.id}`)).data.interestId;
    expect(
      (await stranger.post(`/api/marketplace/chat/${interest}`, { message: 'Still for sale?' })).statusCode,
    ).toBe(200);
    await drain();
    const got = at('/market').map(bodyOf);
    expect(got.map((b) => b.event)).toEqual(['listing.interest', 'message.received']);
    expect(got[0]?.data).toMatchObject({ type: 'MARKET_INTEREST' });
    expect(got[1]?.data).toMatchObject({ type: 'MARKET_MESSAGE' });
  });

  it('retries after a 500 with backoff, keeps the order, and sends the next only after the first', async () => {
    const hook = await addHook('/flaky', ['record.created']);
    let fails = 1;
    answer = (r) => (r.path === '/flaky' && fails-- > 0 ? 500 : 200);
    await fillUp(10, '2025-07-01');
    await fillUp(11, '2025-07-02');
    const t0 = new Date();
    await drain(t0);
    expect(at('/flaky').map((r) => bodyOf(r).data.liters)).toEqual([10]);
    const [second, first] = await deliveries(hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, error: 'HTTP 500' });
    expect(Date.parse(first.nextAttemptAt) - t0.getTime()).toBeGreaterThanOrEqual(29_000);
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });

    // Not due yet: nothing is sent, the second waits behind the first.
    await drain(new Date(t0.getTime() + 10_000));
    expect(at('/flaky')).toHaveLength(1);
    await drain(new Date(t0.getTime() + MIN));
    const sent = at('/flaky');
    expect(sent.map((r) => bodyOf(r).data.liters)).toEqual([10, 10, 11]);
    // The same idempotency id on the retry.
    expect(header(sent[0] as Received, 'x-evdra-delivery')).toBe(
      header(sent[1] as Received, 'x-evdra-delivery'),
    );
    expect((await deliveries(hook.id)).map((d: { status: string }) => d.status)).toEqual([
      'delivered',
      'delivered',
    ]);
    expect(
      (await owner.get('/api/webhooks')).data.find((w: { id: number }) => w.id === hook.id).failingSince,
    ).toBe(null);
  });

  it('re-sends a delivery with the same body and id', async () => {
    const hook = await addHook('/again', ['record.created']);
    await fillUp(12, '2025-08-01');
    await drain();
    const [d] = await deliveries(hook.id);
    const res = await owner.post(`/api/webhooks/${hook.id}/deliveries/${d.id}/resend`);
    expect(res.statusCode).toBe(202);
    expect(res.data).toMatchObject({ eventId: d.eventId, status: 'pending' });
    await drain();
    const [a, b] = at('/again');
    expect(b?.body.toString()).toBe(a?.body.toString());
    expect(verified(b as Received, hook.secret)).toBe(true);
    expect((await deliveries(hook.id)).map((x: { eventId: string }) => x.eventId)).toEqual([
      d.eventId,
      d.eventId,
    ]);
    expect((await owner.post(`/api/webhooks/${hook.id}/deliveries/999999/resend`)).statusCode).toBe(404);
  });

  it('gives a delivery up after a day, pauses a webhook failing for 3 days, and tells its owner', async () => {
    const hook = await addHook('/down', ['record.created']);
    answer = (r) => (r.path === '/down' ? 503 : 200);
    await fillUp(13, '2025-09-01');
    const t0 = new Date();
    await drain(t0);
    await drain(new Date(t0.getTime() + 25 * HOUR));
    const [gaveUp] = await deliveries(hook.id);
    expect(gaveUp).toMatchObject({ status: 'failed', responseStatus: 503, attempts: 2 });

    await fillUp(14, '2025-09-02');
    await drain(new Date(t0.getTime() + 3 * DAY + MIN));
    const paused = (await owner.get('/api/webhooks')).data.find((w: { id: number }) => w.id === hook.id);
    expect(paused.pausedAt).not.toBe(null);
    const bell = (await owner.get('/api/notifications')).data;
    expect(bell).toContainEqual(
      expect.objectContaining({ type: 'WEBHOOK_PAUSED', title: 'A webhook was paused' }),
    );
    // Paused: new events are not queued for it.
    const before = (await deliveries(hook.id)).length;
    await fillUp(15, '2025-09-03');
    expect(await deliveries(hook.id)).toHaveLength(before);

    // Resumed, and the receiver fixed: what comes next is delivered.
    answer = () => 200;
    const resumed = await owner.put(`/api/webhooks/${hook.id}`, { paused: false });
    expect(resumed.data).toMatchObject({ pausedAt: null, failingSince: null });
    await fillUp(16, '2025-09-04');
    await drain();
    expect(
      at('/down')
        .map((r) => bodyOf(r).data.liters)
        .at(-1),
    ).toBe(16);
  });

  it('deletes a webhook: nothing more is sent to it', async () => {
    const hook = await addHook('/gone', ['record.created']);
    expect((await owner.delete(`/api/webhooks/${hook.id}`)).statusCode).toBe(204);
    await fillUp(17, '2025-10-01');
    await drain();
    expect(at('/gone')).toEqual([]);
    expect((await owner.get(`/api/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
  });

  it('tells of each record an import adds: one signed record.created per record, the record as the API shows it', async () => {
    const all = await addHook('/import', ['record.created']);
    const fuelOnly = await addHook('/import-fuel', ['record.created'], { kinds: ['fuel'] });
    await addHook('/import-stranger', ['record.created'], {}, stranger);
    const logan = (
      await owner.post('/api/vehicles', {
        make: 'Dacia',
        model: 'Logan',
        year: 2019,
        fuelType: 'PETROL',
        registrationNumber: `IM-${Math.random().toString(36).slice(2, 7)}`,
        engineSize: 1.2,
        odometer: 40_000,
        aiEvaluationConsent: false,
      })
    ).data.id;
    const file = readFileSync(new URL('./fixtures/import/fuelio-km-l.csv', import.meta.url));
    const body = multipart([
      { name: 'file', file: { filename: 'fuelio.csv', type: 'text/csv', bytes: file } },
    ]);
    const imported = await owner.request('POST', `/api/import/confirm/${logan}`, body.payload, {
      headers: body.headers,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const counts = imported.data.counts as Record<string, number>;
    const added = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(counts.fuel).toBe(4);
    expect(added).toBeGreaterThan(counts.fuel as number);
    await drain();

    // Each record as its list shows it (consumption worked out by the import included).
    const lists: Record<string, string> = {
      fuel: 'fuel-consumptions',
      expense: 'expenses',
      revision: 'revision',
      insurance: 'insurance',
    };
    const listed = new Map<string, { id: number }[]>();
    for (const [kind, path] of Object.entries(lists))
      listed.set(kind, (await owner.get(`/api/${path}/vehicle/${logan}`)).data);
    const got = at('/import');
    expect(got).toHaveLength(added);
    for (const r of got) expect(verified(r, all.secret)).toBe(true);
    const events = got.map(bodyOf);
    expect(new Set(events.map((e) => e.id)).size).toBe(added);
    expect(events.every((e) => e.event === 'record.created')).toBe(true);
    for (const e of events)
      expect(e.data).toEqual(listed.get(e.kind as string)?.find((r) => r.id === e.data.id));
    // Fills in the order the import added them.
    const fillIds = events.filter((e) => e.kind === 'fuel').map((e) => e.data.id as number);
    expect(fillIds).toEqual([...fillIds].sort((a, b) => a - b));

    const fuelGot = at('/import-fuel');
    expect(fuelGot.map((r) => bodyOf(r).kind)).toEqual(Array(counts.fuel).fill('fuel'));
    expect(fuelGot.every((r) => verified(r, fuelOnly.secret))).toBe(true);
    // Another user's webhook hears nothing of a car that is not theirs.
    expect(at('/import-stranger')).toEqual([]);
  });

  // PostgreSQL only: two replicas need one database both reach; PGlite belongs to one process.
  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    'two replicas on one database deliver each event once',
    async () => {
      const other = await createTestApp({ OUTBOUND_ALLOW_LOCAL: 'true', WEBHOOK_POLL_MS: '0' }, undefined, t);
      try {
        await addHook('/replicas', ['record.created']);
        await addHook('/replicas-2', ['record.created']);
        for (let i = 0; i < 6; i++) await fillUp(20 + i, `2025-12-0${i + 1}`);
        await Promise.all([t.app.webhookSender.drain(), other.app.webhookSender.drain()]);
        await Promise.all([t.app.webhookSender.drain(), other.app.webhookSender.drain()]);
        for (const path of ['/replicas', '/replicas-2']) {
          expect(at(path).map((r) => bodyOf(r).data.liters)).toEqual([20, 21, 22, 23, 24, 25]);
        }
      } finally {
        await other.app.close();
        await other.database.close();
      }
    },
  );

  it('delivers an event queued before a restart from the restarted app', async () => {
    await addHook('/restart', ['record.created']);
    await fillUp(18, '2025-11-01');
    // The server stops before sending it, and starts again on the same database.
    await t.app.close();
    t.app = await buildApp({
      config: t.config,
      database: t.database,
      logger: false,
      resolveHost: tableResolver().resolve,
    });
    await t.app.ready();
    await drain();
    const got = at('/restart');
    expect(got.map((r) => bodyOf(r).data.liters)).toEqual([18]);
  });
});
