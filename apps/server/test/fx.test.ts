import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crossRate } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEcbRates, scheduleEcbRates } from '../src/modules/fx/fx.job.js';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { FxService } from '../src/modules/fx/fx.service.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

const fixture = readFileSync(new URL('./fixtures/fx/eurofxref-hist-excerpt.xml', import.meta.url), 'utf8');
// The ECB's daily file for 8 March with RON corrected (it republishes a wrong rate now and then).
const corrected = fixture
  .slice(0, fixture.indexOf("\t\t<Cube time='2024-04-02'>"))
  .concat(
    `\t\t<Cube time='2024-03-08'>\n\t\t\t<Cube currency='RON' rate='4.9701'/>\n\t\t</Cube>\n\t</Cube>\n</gesmes:Envelope>\n`,
  );

/** A rate file server on loopback: the ECB's format, and the ways a fetch can fail. */
let feed: Server;
let base: string;
let requests: string[] = [];

let t: TestApp;
let service: FxService;
let repo: FxRepo;
let client: TestClient;

beforeAll(async () => {
  feed = createServer((req, res) => {
    requests.push(req.url ?? '');
    const xml = (body: string) => res.writeHead(200, { 'content-type': 'text/xml' }).end(body);
    if (req.url === '/eurofxref-hist-90d.xml') return xml(fixture);
    if (req.url === '/corrected.xml') return xml(corrected);
    if (req.url === '/down.xml') return res.writeHead(503).end('Service Unavailable');
    if (req.url === '/maintenance.xml')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>');
    if (req.url === '/slow.xml') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
  t = await createTestApp();
  repo = new FxRepo(t.database.db);
  service = new FxService(repo);
  ({ client } = await registered(t.app, 'fx'));
});

afterAll(async () => {
  feed.closeAllConnections();
  await new Promise((resolve) => feed.close(resolve));
  await t?.close();
});

const rate = (query: string) => client.get(`/api/fx/rate?${query}`);

describe('GET /api/fx/rate', () => {
  it('tests never fetch the ECB: the test app has the fetch off', () => {
    expect(t.config.fxRatesUrl).toBeUndefined();
  });

  it('is for logged-in users', async () => {
    expectError(
      await new TestClient(t.app).get('/api/fx/rate?from=HUF&to=RON&date=2024-03-08'),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('404 NOT_FOUND before any rate is known', async () => {
    const res = await rate('from=HUF&to=RON&date=2024-03-08');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.data.message).toBe('No exchange rate from HUF to RON is known for 2024-03-08.');
  });

  it('stores the ECB’s file served on loopback; fetching it again changes nothing', async () => {
    requests = [];
    expect(await importEcbRates(`${base}/eurofxref-hist-90d.xml`, service)).toEqual({
      days: 5,
      rates: 60,
      changed: 60,
      skipped: 0,
    });
    expect(await importEcbRates(`${base}/eurofxref-hist-90d.xml`, service)).toMatchObject({ changed: 0 });
    expect(requests).toEqual(['/eurofxref-hist-90d.xml', '/eurofxref-hist-90d.xml']);
  });

  it('the issue’s example: HUF → RON on Saturday 9 March 2024 is Friday’s rate, crossed through EUR, marked carried', async () => {
    const res = await rate('from=HUF&to=RON&date=2024-03-09');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      from: 'HUF',
      to: 'RON',
      rate: crossRate(393.15, 4.9699),
      date: '2024-03-08',
      source: 'ECB',
      carried: true,
    });
    expect(res.data.rate).toBeCloseTo(4.9699 / 393.15, 10);
  });

  it('a business day answers its own rate; EUR is the ECB’s figure itself, and its inverse the other way', async () => {
    expect((await rate('from=HUF&to=RON&date=2024-03-08')).data).toMatchObject({
      date: '2024-03-08',
      carried: false,
    });
    expect((await rate('from=EUR&to=RON&date=2024-03-11')).data).toMatchObject({
      rate: 4.9708,
      carried: false,
    });
    expect((await rate('from=GBP&to=EUR&date=2024-03-11')).data.rate).toBe(crossRate(0.85138, 1));
    expect((await rate('from=USD&to=USD&date=2024-03-09')).data).toMatchObject({ rate: 1, carried: false });
  });

  it('Good Friday to Easter Monday take Maundy Thursday’s rate', async () => {
    for (const day of ['2024-03-29', '2024-03-30', '2024-03-31', '2024-04-01']) {
      expect((await rate(`from=PLN&to=CHF&date=${day}`)).data, day).toMatchObject({
        rate: crossRate(4.3191, 0.9766),
        date: '2024-03-28',
        carried: true,
      });
    }
  });

  it('404 more than ten days after the last rate, and before the first', async () => {
    expect((await rate('from=HUF&to=RON&date=2024-04-12')).statusCode).toBe(200);
    expectError(await rate('from=HUF&to=RON&date=2024-04-13'), 404, 'NOT_FOUND');
    expectError(await rate('from=HUF&to=RON&date=2024-03-06'), 404, 'NOT_FOUND');
  });

  it('MDL: 404, the ECB publishes none, until a MANUAL rate is stored', async () => {
    const res = await rate('from=MDL&to=RON&date=2024-03-08');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.data.message).toContain('MDL');
    await repo.upsert([{ currency: 'MDL', date: '2024-03-07', rate: 19.21, source: 'MANUAL' }]);
    expect((await rate('from=MDL&to=RON&date=2024-03-08')).data).toEqual({
      from: 'MDL',
      to: 'RON',
      rate: crossRate(19.21, 4.9699),
      date: '2024-03-07',
      source: 'MANUAL',
      carried: true,
    });
    expect((await rate('from=EUR&to=MDL&date=2024-03-07')).data).toMatchObject({
      rate: 19.21,
      carried: false,
    });
  });

  it('the day defaults to today (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await repo.upsert([{ currency: 'RON', date: today, rate: 4.97, source: 'ECB' }]);
    expect((await rate('from=EUR&to=RON')).data).toMatchObject({ rate: 4.97, date: today, carried: false });
  });

  it('400 VALIDATION_FAILED for an unknown currency or a date that is not YYYY-MM-DD', async () => {
    expectInvalid(await rate('from=XYZ&to=RON&date=2024-03-08'), 'from');
    expectInvalid(await rate('from=huf&to=RON&date=2024-03-08'), 'from');
    expectInvalid(await rate('from=HUF&date=2024-03-08'), 'to');
    expectInvalid(await rate('from=HUF&to=RON&date=2024-02-30'), 'date');
    expectInvalid(await rate('from=HUF&to=RON&date=09.03.2024'), 'date');
  });

  it('a corrected rate replaces the stored one for that day', async () => {
    expect(await importEcbRates(`${base}/corrected.xml`, service)).toMatchObject({
      days: 1,
      rates: 1,
      changed: 1,
    });
    expect((await rate('from=EUR&to=RON&date=2024-03-08')).data.rate).toBe(4.9701);
  });
});

describe('the daily fetch', () => {
  /** A logger that keeps what it was told, and says when a line arrives. */
  function recordingLog() {
    const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
    let wake = () => {};
    const add = (level: string) => (obj: object, msg: string) => {
      lines.push({ level, msg, obj: obj as Record<string, unknown> });
      wake();
    };
    return {
      log: { info: add('info'), warn: add('warn') },
      lines,
      next: () => new Promise<void>((resolve) => (wake = resolve)),
    };
  }

  it('fails without throwing, and logs why: an error status, an HTML page, a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x.xml`;
    await new Promise((resolve) => closed.close(resolve));
    for (const [url, reason] of [
      [`${base}/down.xml`, /HTTP 503/],
      [`${base}/maintenance.xml`, /not an ECB reference-rate file/],
      [closedUrl, /fetch failed/],
    ] as const) {
      const { log, lines, next } = recordingLog();
      const arrived = next();
      const stop = scheduleEcbRates(url, service, log);
      await arrived;
      stop();
      expect(lines.map((l) => l.level)).toEqual(['warn']);
      expect(String((lines[0]?.obj.err as Error | undefined)?.message)).toMatch(reason);
    }
  });

  it('runs in the background at once and logs what it stored', async () => {
    const { log, lines, next } = recordingLog();
    const arrived = next();
    const stop = scheduleEcbRates(`${base}/eurofxref-hist-90d.xml`, service, log);
    expect(lines).toHaveLength(0); // nothing waited for it
    await arrived;
    stop();
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'ECB exchange rates fetched',
      obj: { days: 5, rates: 60 },
    });
  });

  it('gives up on a server that does not answer, and on a file past the size cap', async () => {
    await expect(importEcbRates(`${base}/slow.xml`, service, { timeoutMs: 200 })).rejects.toThrow(
      /timeout|aborted/i,
    );
    await expect(
      importEcbRates(`${base}/eurofxref-hist-90d.xml`, service, { maxBytes: 1_000 }),
    ).rejects.toThrow(/larger than 1000 bytes/);
  });
});
