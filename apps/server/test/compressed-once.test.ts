import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A browser asks every read in Brotli. An answer the server keeps (a vehicle list, a car's records, a
// user's analytics) is compressed once and sent again in the same bytes while it is kept: compressing
// a fleet's 200 cars on every read held GET /api/vehicles to ~300 a second on 2 cores (issue 54).

const brotliCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock('node:zlib', async (original) => {
  const real = await original<typeof zlib>();
  return {
    ...real,
    // Small answers are compressed on the event loop, larger ones in zlib's pool: count both.
    brotliCompress: (...args: Parameters<typeof real.brotliCompress>) => {
      brotliCalls.n += 1;
      return real.brotliCompress(...args);
    },
    brotliCompressSync: (...args: Parameters<typeof real.brotliCompressSync>) => {
      brotliCalls.n += 1;
      return real.brotliCompressSync(...args);
    },
  };
});

let t: TestApp;
let alice: TestClient;
let car: number;

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
  for (let i = 0; i < 6; i++) {
    const res = await alice.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2015 + i,
      fuelType: 'PETROL',
      registrationNumber: `B-${i}-XYZ`,
      engineSize: 1.2,
      odometer: 50_000,
    });
    expect(res.statusCode, res.body).toBe(201);
    car = res.data.id;
  }
  for (let i = 1; i <= 12; i++) {
    const res = await alice.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      date: `2025-${String(i).padStart(2, '0')}-10`,
      liters: 40,
      fuelPrice: 300,
      odometer: 50_000 + 800 * i,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // On PostgreSQL each write's notice reaches the vehicle list's feed a moment later and empties it:
  // let the set-up's arrive before counting.
  await new Promise((r) => setTimeout(r, 300));
});
afterAll(() => t.close());

const READS = 4;
/**
 * At most this many compressions over READS reads: one, or two when PostgreSQL's notice of an earlier
 * write (the set-up's, a rename's) reaches the vehicle list's feed after a read and empties it.
 * Compressing every read would take READS.
 */
const AT_MOST = 2;

/** Reads `path` READS times as a browser does; how many Brotli compressions that took, and the answers. */
async function readAgain(path: string) {
  const before = brotliCalls.n;
  const answers = [];
  for (let i = 0; i < READS; i++) {
    const res = await alice.get(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    answers.push(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString()));
  }
  return { compressions: brotliCalls.n - before, answers };
}

describe('a kept answer read again as a browser asks', () => {
  it.each([
    ['the vehicle list', '/api/vehicles'],
    ["a car's fill-ups", () => `/api/fuel-consumptions/vehicle/${car}`],
    ["the user's analytics", '/api/analytics/user'],
    ["a car's monthly analytics", () => `/api/analytics/vehicle/${car}/recompute`],
  ])('%s is compressed once, and each read says the same', async (_name, path) => {
    const { compressions, answers } = await readAgain(typeof path === 'string' ? path : path());
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    expect(compressions).toBeLessThanOrEqual(AT_MOST);
  });

  it('is compressed again after a change, and says what changed', async () => {
    const first = await readAgain('/api/vehicles');
    const renamed = await alice.put(`/api/vehicles/${car}`, { ...first.answers[0][0], model: 'Sandero' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await readAgain('/api/vehicles');
    // The rename empties the kept list at once in this process: its next read is compressed again.
    expect(after.compressions).toBeGreaterThanOrEqual(1);
    expect(after.compressions).toBeLessThanOrEqual(AT_MOST);
    expect(after.answers[0].find((v: { id: number }) => v.id === car).model).toBe('Sandero');
  });
});
