import { rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWhileStarting } from '../src/lib/starting.js';
import { HealthService, reasonOf } from '../src/modules/health/health.service.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

const kind = process.env.EVDRA_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const NOT_CONFIGURED = { configured: false, reachable: null };
/** Web Push needs no setup: its keys are made at first start and kept in the database. */
const PUSH_READY = { configured: true, reachable: true };
const SECRET = 'sk-very-secret-key';

/** A fake OpenAI-compatible server: answers GET /v1/models with 200 for the right key, 401 otherwise. */
let ai: Server;
let aiUrl: string;
let modelListCalls = 0;
/** A fake SMTP server that greets, answers EHLO and says goodbye: enough for nodemailer's verify(). */
let smtp: TcpServer;
let smtpPort: number;
/** A port nothing listens on. */
let closedPort: number;

const listenOn = (s: Server | TcpServer) =>
  new Promise<number>((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  ai = createHttpServer((req, res) => {
    if (req.url === '/v1/models') modelListCalls += 1;
    const ok = req.url === '/v1/models' && req.headers.authorization === `Bearer ${SECRET}`;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(ok ? '{"data":[]}' : '{}');
  });
  aiUrl = `http://127.0.0.1:${await listenOn(ai)}/v1`;
  smtp = createTcpServer((socket) => {
    socket.write('220 fake.smtp ESMTP\r\n');
    socket.on('data', (d) => {
      for (const line of String(d).split('\r\n').filter(Boolean)) {
        if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake.smtp\r\n');
        else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  smtpPort = await listenOn(smtp);
  const probe = createTcpServer();
  closedPort = await listenOn(probe);
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  await new Promise((r) => ai.close(r));
  await new Promise((r) => smtp.close(r));
});

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('without optional services: 200, status ok, which database answers, push ready (no setup), nothing else configured', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      status: 'ok',
      database: { kind, reachable: true },
      services: { redis: NOT_CONFIGURED, smtp: NOT_CONFIGURED, ai: NOT_CONFIGURED, push: PUSH_READY },
    });
  });

  it('GET /api/health/ready answers 200 {"status":"ready"} while the database answers', async () => {
    const res = await new TestClient(t.app).get('/api/health/ready');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'ready' });
  });

  it('both are in the OpenAPI document', async () => {
    const { data } = await new TestClient(t.app).get('/api/openapi.json');
    expect(Object.keys(data.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/health/ready']));
    expect(Object.keys(data.paths['/api/health/ready'].get.responses)).toEqual(['200', '503']);
  });
});

describe('optional services', () => {
  it('reachable: AI and SMTP answer their check, once per 30 s; shown without address or secret', async () => {
    const t = await createTestApp({
      AI_BASE_URL: aiUrl,
      AI_API_KEY: SECRET,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    });
    try {
      const res = await new TestClient(t.app).get('/api/health');
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual({
        status: 'ok',
        database: { kind, reachable: true },
        services: {
          redis: NOT_CONFIGURED,
          smtp: { configured: true, reachable: true },
          ai: { configured: true, reachable: true },
          push: PUSH_READY,
        },
      });
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('127.0.0.1');
      // A remote service is checked at most once per 30 s, however often /api/health is asked.
      const before = modelListCalls;
      const client = new TestClient(t.app);
      await Promise.all([client.get('/api/health'), client.get('/api/health')]);
      expect(modelListCalls - before).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('unreachable or refusing: each says so with a code, never the address, user or password', async () => {
    const t = await createTestApp({
      AI_BASE_URL: aiUrl,
      AI_API_KEY: 'sk-wrong-key',
      SMTP_URL: `smtp://mailer:hunter2@127.0.0.1:${closedPort}`,
      REDIS_URL: `redis://:redispass@127.0.0.1:${closedPort}`,
    });
    try {
      const res = await new TestClient(t.app).get('/api/health');
      expect(res.statusCode).toBe(200);
      expect(res.data.status).toBe('ok'); // the database answers; optional services are reported, not required
      expect(res.data.services).toEqual({
        redis: { configured: true, reachable: false, error: expect.any(String) },
        smtp: { configured: true, reachable: false, error: expect.stringMatching(/^E[A-Z]+$/) },
        ai: { configured: true, reachable: false, error: 'HTTP 401' },
        push: PUSH_READY,
      });
      for (const secret of [
        'sk-wrong-key',
        'hunter2',
        'mailer',
        'redispass',
        String(closedPort),
        '127.0.0.1',
      ])
        expect(res.body).not.toContain(secret);
      // Still ready: the optional services do not decide readiness.
      expect((await new TestClient(t.app).get('/api/health/ready')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('when the database does not answer', () => {
  it('/api/health/ready answers 503 UNAVAILABLE with Retry-After; /api/health answers 200 degraded', async () => {
    const t = await createTestApp();
    await t.database.close();
    try {
      const ready = await new TestClient(t.app).get('/api/health/ready');
      expectError(ready, 503, 'UNAVAILABLE');
      expect(ready.headers['retry-after']).toBe('5');
      const health = await new TestClient(t.app).get('/api/health');
      expect(health.statusCode).toBe(200);
      expect(health.data).toMatchObject({ status: 'degraded', database: { kind, reachable: false } });
      expect(health.data.database.error).toMatch(/^[A-Z][A-Z0-9_ ]+$/);
    } finally {
      await t.app.close().catch(() => {});
      rmSync(t.config.dataDir, { recursive: true, force: true });
    }
  });

  it('a database that hangs counts as unreachable after the timeout', async () => {
    const service = new HealthService({
      kind: 'postgres',
      ping: () => new Promise(() => {}),
      services: [],
      timeoutMs: 50,
    });
    expect(await service.ready()).toEqual({ reachable: false, error: 'TIMEOUT' });
  });
});

describe('while the server starts (opening and migrating the database)', () => {
  it('answers every path, /api/health and /api/health/ready included, 503 UNAVAILABLE; then frees the port', async () => {
    const probe = createTcpServer();
    const port = await listenOn(probe);
    await new Promise((r) => probe.close(r));
    const server = await listenWhileStarting(port, '127.0.0.1');
    for (const path of ['/api/health', '/api/health/ready', '/vehicles']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ code: 'UNAVAILABLE', message: expect.stringContaining('migrated') });
    }
    await server.close();
    // The app can now listen on the same port.
    const next = createHttpServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
    expect(await (await fetch(`http://127.0.0.1:${port}/api/health`)).text()).toBe('ok');
    await new Promise((r) => next.close(r));
  });
});

describe('reasonOf', () => {
  it('shows a failed check as a code, never the error text', () => {
    expect(
      reasonOf(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6379'), { code: 'ECONNREFUSED' })),
    ).toBe('ECONNREFUSED');
    expect(reasonOf(Object.assign(new Error('x'), { status: 401 }))).toBe('HTTP 401');
    expect(reasonOf(new Error('password authentication failed for user "evdra"'))).toBe('UNREACHABLE');
    expect(reasonOf(Object.assign(new Error('x'), { code: 'not a code: secret' }))).toBe('UNREACHABLE');
  });
});
