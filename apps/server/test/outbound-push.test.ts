import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { browserKeys, decryptPush, startPushEndpoint } from './helpers/push-endpoint.js';
import { tableResolver } from './helpers/resolver.js';

// Issue 49: push endpoints go through the outbound guard. Only loopback is ever connected to: the
// inside addresses below are refused before any socket opens, and names resolve from a table.

const dns = tableResolver({
  'push.loop.test': ['127.0.0.1'],
  'push6.loop.test': ['::1'],
  'inside.corp.test': ['10.0.0.5'],
  'metadata.corp.test': ['169.254.169.254'],
  'half.corp.test': ['93.184.215.14', '192.168.1.10'],
});

let strict: TestApp; // as in production: no local switch
let local: TestApp; // OUTBOUND_ALLOW_LOCAL=true
let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
let respond: () => number | { status: number; headers: Record<string, string> } = () => 201;
let port: number;

beforeAll(async () => {
  endpoint = await startPushEndpoint(() => respond());
  port = Number(new URL(endpoint.base).port);
  strict = await createTestApp({ PUSH_POLL_MS: '0' }, undefined, undefined, dns.resolve);
  local = await createTestApp(
    { OUTBOUND_ALLOW_LOCAL: 'true', PUSH_POLL_MS: '0' },
    undefined,
    undefined,
    dns.resolve,
  );
});
afterAll(async () => {
  await strict?.close();
  await local?.close();
  await endpoint.close();
});

const subscribe = (c: TestClient, url: string, keys = browserKeys().json) =>
  c.post('/api/push/subscriptions', { endpoint: url, keys });

const outboxRows = async (t: TestApp, endpointLike: string) =>
  rowsOf<{ attempts: number; wait: number }>(
    await t.database.db.execute(sql`
      select o.attempts, extract(epoch from o.next_attempt_at - now())::int as wait
        from push_outbox o join push_subscriptions s on s.id = o.subscription_id
       where s.endpoint like ${endpointLike}`),
  );

describe('POST /api/push/subscriptions refuses inside addresses with 400', () => {
  it('loopback spellings and every inside range, as literals, without the local switch', async () => {
    const { client } = await registered(strict.app, 'literal');
    const asked = dns.asked.length;
    for (const host of [
      `127.0.0.2:${port}`,
      `[::1]:${port}`,
      `0x7f000001:${port}`,
      `2130706433:${port}`,
      `0177.0.0.1:${port}`,
      `127.1:${port}`,
      `localhost.:${port}`,
      `localhost:${port}`,
      `[::ffff:7f00:1]:${port}`,
      '10.0.0.5',
      '172.16.4.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:10.0.0.1]',
      '[64:ff9b::a00:5]',
      '224.0.0.1',
      '0.0.0.0',
      '[::]',
      '255.255.255.255',
      '198.51.100.7',
    ]) {
      const res = await subscribe(client, `https://${host}/push/x`);
      expect(res.statusCode, host).toBe(400);
      expect(res.data, host).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/public internet/),
        details: [{ field: 'endpoint', message: expect.stringMatching(/not a private, local or reserved/) }],
      });
    }
    // Literals are refused at once: nothing was resolved.
    expect(dns.asked.length).toBe(asked);
    expect((await client.get('/api/push/subscriptions')).data).toEqual([]);
    expect(endpoint.received).toHaveLength(0);
  });

  it('a name that resolves only to inside addresses, or to one among public ones', async () => {
    const { client } = await registered(strict.app, 'named');
    for (const host of [
      'inside.corp.test',
      'metadata.corp.test',
      'half.corp.test',
      'push.loop.test',
      'push6.loop.test',
    ]) {
      const res = await subscribe(client, `https://${host}:${port}/push/x`);
      expect(res.statusCode, host).toBe(400);
      expect(res.data.details, host).toEqual([expect.objectContaining({ field: 'endpoint' })]);
    }
    expect((await client.get('/api/push/subscriptions')).data).toEqual([]);
  });

  it('the local switch allows loopback, never private: a name mapped to loopback then receives the push', async () => {
    const { client } = await registered(local.app, 'loopname');
    for (const url of ['https://10.0.0.5/p', 'https://inside.corp.test/p', 'http://inside.corp.test/p']) {
      expect((await subscribe(client, url)).statusCode, url).toBe(400);
    }
    const keys = browserKeys();
    const path = '/push/loopname';
    const res = await subscribe(client, `http://push.loop.test:${port}${path}`, keys.json);
    expect(res.statusCode).toBe(201);
    expect((await client.post('/api/push/test')).data).toEqual({ devices: 1 });
    await local.app.pushSender.drain();
    const got = endpoint.received.filter((r) => r.path === path);
    expect(got).toHaveLength(1);
    expect(JSON.parse(decryptPush(got[0]?.body ?? Buffer.alloc(0), keys))).toMatchObject({
      title: 'Evdra test notification',
    });
  });
});

describe('sending: the guard decides again as it connects', () => {
  it('a name that points inside when the push is sent gets nothing, and nothing tells the user it differs from an unreachable one', async () => {
    const { client } = await registered(strict.app, 'rebind');
    // Given while the name points outside (only resolved, never connected to)...
    dns.table['rebind.test'] = ['93.184.215.14'];
    const given = await subscribe(client, `https://rebind.test:${port}/push/rebind`);
    // ...then the name is pointed at loopback before anything is sent (DNS rebinding).
    dns.table['rebind.test'] = ['127.0.0.1'];
    expect(given.statusCode).toBe(201);
    // A name that does not resolve now is accepted, and left to the send.
    const unresolved = await subscribe(client, 'https://not-yet-resolvable.test/push/later');
    expect(unresolved.statusCode).toBe(201);
    // Were the inside server reached, its 404 would delete the subscription: the scanning oracle.
    respond = () => 404;
    try {
      expect((await client.post('/api/push/test')).data).toEqual({ devices: 2 });
      await strict.app.pushSender.drain();
    } finally {
      respond = () => 201;
    }
    expect(endpoint.received.filter((r) => r.path === '/push/rebind')).toHaveLength(0);
    // Both devices stay listed, and both pushes wait for a retry the same way.
    const devices = (await client.get('/api/push/subscriptions')).data as { endpoint: string }[];
    expect(devices.map((d) => d.endpoint).sort()).toEqual([
      'https://not-yet-resolvable.test/push/later',
      `https://rebind.test:${port}/push/rebind`,
    ]);
    const [refused] = await outboxRows(strict, '%/push/rebind');
    const [unreachable] = await outboxRows(strict, '%/push/later');
    expect(refused?.attempts).toBe(1);
    expect(unreachable?.attempts).toBe(1);
    expect(Math.abs((refused?.wait ?? 0) - (unreachable?.wait ?? 0))).toBeLessThanOrEqual(1);
  });

  it('a push service’s 307 to an inside address is not followed: the push is dropped, the device kept', async () => {
    let insideHits = 0;
    const inside = createServer((_req, res) => {
      insideHits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    try {
      const to = `http://127.0.0.1:${(inside.address() as AddressInfo).port}/latest/meta-data`;
      const { client } = await registered(local.app, 'redirected');
      expect((await subscribe(client, `${endpoint.base}/push/redirected`)).statusCode).toBe(201);
      respond = () => ({ status: 307, headers: { location: to } });
      try {
        await client.post('/api/push/test');
        await local.app.pushSender.drain();
      } finally {
        respond = () => 201;
      }
      expect(endpoint.received.filter((r) => r.path === '/push/redirected')).toHaveLength(1);
      expect(insideHits).toBe(0);
      expect(await outboxRows(local, '%/push/redirected')).toEqual([]);
      expect((await client.get('/api/push/subscriptions')).data).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => inside.close(() => resolve()));
    }
  });
});

describe('at most 20 devices per user', () => {
  it('a 21st replaces the oldest, and the answer says which; the same device again replaces none', async () => {
    const { client } = await registered(strict.app, 'many');
    const other = (await registered(strict.app, 'fewer')).client;
    expect((await subscribe(other, 'https://push.example.test/other')).statusCode).toBe(201);
    const urls = Array.from({ length: 21 }, (_, i) => `https://push.example.test/many/${i}`);
    const answers = [];
    for (const url of urls) {
      const res = await subscribe(client, url);
      expect(res.statusCode).toBe(201);
      answers.push(res.data);
    }
    for (const a of answers.slice(0, 20)) expect(a).not.toHaveProperty('replaced');
    expect(answers[20]).toEqual({
      id: expect.any(Number),
      endpoint: urls[20],
      userAgent: '',
      createdAt: expect.any(String),
      replaced: { id: answers[0].id, endpoint: urls[0], userAgent: '', createdAt: answers[0].createdAt },
    });
    const listed = (await client.get('/api/push/subscriptions')).data as { endpoint: string }[];
    expect(listed).toHaveLength(20);
    expect(listed.map((d) => d.endpoint).sort()).toEqual(urls.slice(1).sort());
    // The same endpoint again is the same device: nothing is replaced.
    const again = await subscribe(client, urls[5] ?? '');
    expect(again.data).not.toHaveProperty('replaced');
    expect((await client.get('/api/push/subscriptions')).data).toHaveLength(20);
    // Another user's devices do not count.
    expect((await other.get('/api/push/subscriptions')).data).toHaveLength(1);
  });

  it('holds under concurrent subscribes: 25 at once leave 20', async () => {
    const { client } = await registered(strict.app, 'rush');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => subscribe(client, `https://push.example.test/rush/${i}`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(201));
    expect((await client.get('/api/push/subscriptions')).data).toHaveLength(20);
    expect(answers.filter((a) => a.data.replaced)).toHaveLength(5);
  });
});
