// Archive and row bombs on import (issue 49): a ZIP over 50 entries or 100 MB inflated is refused
// (413) from its directory before anything is inflated, and as soon as an entry inflates past what
// it declared; a CSV over 200,000 rows is refused the same way; the file is read off the event loop,
// so other users' requests keep their speed during a 20 MB import.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';
import { zipBomb } from './helpers/zip-bomb.js';

const MB = 1_000_000;
/** How far the server's memory may grow while it refuses a bomb (the issue measured 2.5 GB). */
const MEMORY_BOUND = 200 * MB;
/** A slow, shared 2-core machine stalls a timer by ~150 ms now and then even when idle. */
const HEALTH_BOUND_MS = 500;

let t: TestApp;
let alice: TestClient;

const send = (
  c: TestClient,
  step: 'preview' | 'confirm',
  car: number,
  bytes: Buffer,
  filename = 'history.csv',
) => {
  const body = multipart([{ name: 'file', file: { filename, type: 'application/octet-stream', bytes } }]);
  return c.request('POST', `/api/import/${step}/${car}`, body.payload, { headers: body.headers });
};
const preview = (c: TestClient, car: number, bytes: Buffer, filename?: string) =>
  send(c, 'preview', car, bytes, filename);

let n = 0;
const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Renault',
    model: 'Clio',
    year: 2017,
    fuelType: 'PETROL',
    registrationNumber: `BOMB-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 0.9,
    odometer: 1000,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};

const EVDRA_HEADER =
  'kind,date,odometer,liters,fuelPrice,pricePerLiter,fuelType,fullTank,missedPrevious,consumptionPer100km,expenseType,amount,km,price,description';
const day = (i: number) =>
  `20${String(10 + (i % 10))}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;

/** This app's export of `rows` expenses, each its own (date, amount), after `note`, under one header row. */
const expenses = (rows: number, note = '') => {
  const lines = [EVDRA_HEADER];
  for (let i = 0; i < rows; i++) lines.push(`expense,${day(i)},,,,,,,,,Parking,${(i + 1) / 100},,,${note}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
};

/**
 * Runs `work` while sampling the process's memory every 5 ms: the peak growth of RSS and of the
 * V8 heap over what they were before (the import's thread is part of the process's RSS).
 */
async function memoryDuring<T>(work: () => Promise<T>) {
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    const after = process.memoryUsage();
    return {
      result,
      ms: performance.now() - started,
      rssGrowth: Math.max(rss, after.rss) - before.rss,
      heapGrowth: Math.max(heap, after.heapUsed) - before.heapUsed,
    };
  } finally {
    clearInterval(timer);
  }
}

const figures = (name: string, m: { ms: number; rssGrowth: number; heapGrowth: number }) =>
  // Printed for the record (issue 49 asks for the figures), never asserted beyond the bounds.
  console.info(
    `${name}: answered in ${Math.round(m.ms)} ms, RSS +${(m.rssGrowth / MB).toFixed(1)} MB, heap +${(m.heapGrowth / MB).toFixed(1)} MB`,
  );

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
  // The import thread starts on the first import: started here, so memory figures are the bombs' own.
  expect((await preview(alice, await newCar(alice), expenses(3))).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('ZIP bombs', () => {
  it('reads a ZIP of 50 entries, and refuses one of 51 (413) before inflating anything', async () => {
    const car = await newCar(alice);
    const entries = (count: number) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `part-${String(i).padStart(2, '0')}.csv`,
          Buffer.from(`${EVDRA_HEADER}\r\nexpense,2020-03-01,,,,,,,,,Parking,${i + 1},,,\r\n`),
        ]),
      );
    const fifty = await preview(alice, car, Buffer.from(zipSync(entries(50))), 'history.zip');
    expect(fifty.statusCode, fifty.body).toBe(200);
    expect(fifty.data.counts.expenses).toBe(50);
    const res = await preview(alice, car, Buffer.from(zipSync(entries(51))), 'history.zip');
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.data.message).toMatch(/more than 50 files/);
    expect(res.data.details).toEqual([{ field: 'file', message: res.data.message }]);
  });

  it('refuses 10,000 entries pointing at one stream, holding no more memory than the upload', async () => {
    const car = await newCar(alice);
    const bomb = await zipBomb({ line: '2020-01-01,1000,40,60\n', bytes: 1000, entries: 10_000 });
    const m = await memoryDuring(() => preview(alice, car, bomb, 'bomb.zip'));
    figures(`10,000 entries (${(bomb.length / MB).toFixed(2)} MB ZIP)`, m);
    expectError(m.result, 413, 'PAYLOAD_TOO_LARGE');
    expect(m.result.data.message).toMatch(/more than 50 files/);
    expect(m.rssGrowth).toBeLessThan(MEMORY_BOUND);
  });

  it("refuses the issue's 40 entries of 60 MB (2.4 GB inflated) from the directory, memory bounded", async () => {
    const car = await newCar(alice);
    const bomb = await zipBomb({ line: '2020-01-01,1000,40,60\n', bytes: 60 * MB, entries: 40 });
    expect(bomb.length).toBeLessThan(1 * MB);
    const m = await memoryDuring(() => preview(alice, car, bomb, 'bomb.zip'));
    figures(`40 x 60 MB (${(bomb.length / MB).toFixed(2)} MB ZIP)`, m);
    expectError(m.result, 413, 'PAYLOAD_TOO_LARGE');
    expect(m.result.data.message).toMatch(/more than 100 MB/);
    expect(m.rssGrowth).toBeLessThan(MEMORY_BOUND);
  });

  it('refuses one small entry that inflates past 100 MB, as declared', async () => {
    const car = await newCar(alice);
    const bomb = await zipBomb({ line: '2020-01-01,1000,40,60\n', bytes: 101 * MB });
    expect(bomb.length).toBeLessThan(1 * MB);
    const m = await memoryDuring(() => send(alice, 'confirm', car, bomb, 'bomb.zip'));
    figures(`one entry of 101 MB (${(bomb.length / MB).toFixed(2)} MB ZIP)`, m);
    expectError(m.result, 413, 'PAYLOAD_TOO_LARGE');
    expect(m.result.data.message).toMatch(/more than 100 MB/);
    expect(m.rssGrowth).toBeLessThan(MEMORY_BOUND);
    expect((await alice.get(`/api/fuel-consumptions/vehicle/${car}`)).data).toEqual([]);
  });

  it('stops inflating an entry that declares 1 kB and inflates to 101 MB: its directory lied', async () => {
    const car = await newCar(alice);
    const bomb = await zipBomb({ line: '2020-01-01,1000,40,60\n', bytes: 101 * MB, declare: 1000 });
    const m = await memoryDuring(() => preview(alice, car, bomb, 'bomb.zip'));
    figures('an entry declaring 1 kB, inflating to 101 MB', m);
    expectError(m.result, 413, 'PAYLOAD_TOO_LARGE');
    expect(m.result.data.message).toMatch(/more than the ZIP says/);
    expect(m.rssGrowth).toBeLessThan(MEMORY_BOUND);
    // A lie of a single byte is one too.
    const small = await zipBomb({ line: '2020-01-01,1000,40,60\n', bytes: 1001, declare: 1000 });
    expectError(await preview(alice, car, small, 'small.zip'), 413, 'PAYLOAD_TOO_LARGE');
    // The truth, for the same bytes, reads.
    const honest = await zipBomb({
      header: 'Date,Odometer,Litres,Total\n',
      line: '2020-01-01,1000,40,60\n',
      bytes: 22,
    });
    expect((await preview(alice, car, honest, 'honest.zip')).data.counts.fuel).toBe(1);
  });

  it('answers 415, not 500, for a damaged ZIP', async () => {
    const car = await newCar(alice);
    const zip = Buffer.from(
      zipSync({ 'a.csv': Buffer.from('Date,Odometer,Litres,Total\n2020-01-01,1,2,3\n') }),
    );
    expectError(
      await preview(alice, car, zip.subarray(0, zip.length - 10), 'cut.zip'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const garbled = Buffer.from(zip);
    garbled.fill(0xff, 30, 60); // the entry's deflated bytes
    expectError(await preview(alice, car, garbled, 'garbled.zip'), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('row bombs', () => {
  it('refuses 200,001 rows (413), in the user language, and still previews 200,000', {
    timeout: 300_000,
  }, async () => {
    const car = await newCar(alice);
    const over = await preview(alice, car, expenses(200_001));
    expectError(over, 413, 'PAYLOAD_TOO_LARGE');
    expect(over.data.message).toMatch(/more than 200,000 rows/);

    const ro = (await registered(t.app, 'ro')).client;
    const me = (await ro.get('/api/users/me')).data;
    await ro.put('/api/users/me', { username: me.username, email: me.email, language: 'ro' });
    const roCar = await newCar(ro);
    const worded = await preview(ro, roCar, expenses(200_001));
    expectError(worded, 413, 'PAYLOAD_TOO_LARGE');
    expect(worded.data.message).toMatch(/mai mult de 200\.000 de rânduri/);

    const legal = await preview(alice, car, expenses(200_000));
    expect(legal.statusCode, legal.body.slice(0, 300)).toBe(200);
    expect(legal.data.counts.expenses).toBe(200_000);
    expect(legal.data.sample.expenses[0]).toMatchObject({
      date: '2010-01-01',
      expenseType: 'Parking',
      amount: 0.01,
    });
  });

  it('counts the rows of every CSV in a ZIP together', { timeout: 120_000 }, async () => {
    const car = await newCar(alice);
    const half = expenses(100_001);
    const zip = Buffer.from(zipSync({ 'a.csv': half, 'b.csv': half }));
    expectError(await preview(alice, car, zip, 'halves.zip'), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('the event loop during a 20 MB import', () => {
  it("keeps other users' requests fast: /api/health answers while the file is read", {
    timeout: 600_000,
  }, async () => {
    const car = await newCar(alice);
    const bob = (await registered(t.app, 'bob')).client;
    // ~20 MB: 100,000 expenses of this app's own export, each with a 150-character note.
    const note =
      'Parking in the city centre, paid at the machine by card; ticket kept in the glovebox.'.padEnd(
        150,
        '.',
      );
    const file = expenses(100_000, note);
    expect(file.length).toBeGreaterThan(19 * MB);
    expect(file.length).toBeLessThan(20 * 1024 * 1024);

    // The request's body is built first: building it is the test's work, not the server's.
    const body = multipart([
      { name: 'file', file: { filename: 'history.csv', type: 'text/csv', bytes: file } },
    ]);
    const health = async () => {
      const started = performance.now();
      const res = await bob.get('/api/health');
      expect(res.statusCode).toBe(200);
      return performance.now() - started;
    };
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      idle.push(await health());
      await sleep(10);
    }
    let done = false;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const importing = alice
      .request('POST', `/api/import/preview/${car}`, body.payload, { headers: body.headers })
      .finally(() => {
        done = true;
        loop.disable();
      });
    const during: number[] = [];
    while (!done) {
      during.push(await health());
      await sleep(10);
    }
    const res = await importing;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.data.counts.expenses).toBe(100_000);
    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms (${xs.length} requests)`;
    };
    console.info(
      `/api/health idle: ${stats(idle)}; during a ${(file.length / MB).toFixed(1)} MB import: ${stats(during)}; event loop delay max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
    );
    // The import took long enough to be asked during, and never stalled the answers.
    expect(during.length).toBeGreaterThan(5);
    expect(Math.max(...during)).toBeLessThan(HEALTH_BOUND_MS);
  });
});
