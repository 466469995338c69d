import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A phone on a slow line gets the JSON lists compressed, in the coding its browser accepts, and
// reads exactly what an uncompressed answer says.

let t: TestApp;
let alice: TestClient;
let list: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
  const car = (
    await alice.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'Z-1',
      engineSize: 1.0,
      odometer: 50_000,
    })
  ).data.id;
  for (let i = 1; i <= 20; i++) {
    const fill = {
      vehicleId: car,
      fuelType: 'PETROL',
      date: `2025-03-${String(i).padStart(2, '0')}`,
      liters: 40,
      fuelPrice: 300,
      odometer: 50_000 + 500 * i,
    };
    const res = await alice.post('/api/fuel-consumptions', fill);
    expect(res.statusCode, res.body).toBe(201);
  }
  list = `/api/fuel-consumptions/vehicle/${car}`;
});
afterAll(() => t.close());

const asked = (encoding?: string) =>
  alice.get(list, encoding === undefined ? undefined : { headers: { 'accept-encoding': encoding } });

describe('compressed JSON answers', () => {
  it('answers a list in Brotli to a browser, and it reads as the plain answer does', async () => {
    const plain = await asked();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(2_000);

    const br = await asked('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toContain('application/json');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.data);
    expect(plain.data).toHaveLength(20);
  });

  it('answers in gzip to a client that only takes gzip, and as is to one that takes neither', async () => {
    const plain = await asked();
    const gz = await asked('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.data);

    const refused = await asked('br;q=0, gzip;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(refused.body)).toEqual(plain.data);
  });

  it('never answers a compressed list older than the data', async () => {
    const read = async () => JSON.parse(brotliDecompressSync((await asked('br')).rawPayload).toString());
    const before = await read();
    expect(await read()).toEqual(before);
    const added = await alice.post('/api/fuel-consumptions', {
      vehicleId: before[0].vehicleId,
      fuelType: 'PETROL',
      date: '2025-03-25',
      liters: 30,
      fuelPrice: 250,
      odometer: 61_000,
    });
    expect(added.statusCode).toBe(201);
    const after = await read();
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ id: added.data.id, odometer: 61_000 });
  });

  it('leaves a small answer as it is', async () => {
    const count = await alice.get('/api/notifications/count', { headers: { 'accept-encoding': 'br' } });
    expect(count.statusCode).toBe(200);
    expect(count.headers['content-encoding']).toBeUndefined();
    expect(typeof JSON.parse(count.body).count).toBe('number');
  });

  it("answers another user's list with a plain 404 and none of the records", async () => {
    const bob = (await registered(t.app, 'bob')).client;
    const res = await bob.get(list, { headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body)).toMatchObject({ code: 'NOT_FOUND', message: 'Vehicle not found.' });
    expect(res.body).not.toContain('2025-03');
  });
});
