import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

/**
 * Records carry a version (issue 10, offline queue): a PUT based on a stale version gets 409
 * VERSION_CONFLICT with the current record, so an offline edit is never silently lost.
 */
let t: TestApp;
let alice: TestClient;
let bob: TestClient;
let car: number;

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  car = (
    await alice.post('/api/vehicles', {
      make: 'Skoda',
      model: 'Octavia',
      year: 2018,
      fuelType: 'DIESEL',
      registrationNumber: 'V-1',
      engineSize: 2,
      odometer: 90_000,
    })
  ).data.id;
});
afterAll(() => t.close());

const kinds = {
  expenses: {
    base: '/api/expenses',
    body: { date: '2025-04-02', expenseType: 'Tyres', amount: 380, description: 'Winter set' },
    change: { description: 'Summer set' },
  },
  fuel: {
    base: '/api/fuel-consumptions',
    body: { fuelType: 'DIESEL', liters: 40, fuelPrice: 290, date: '2025-01-01', odometer: 90_500 },
    change: { liters: 41 },
  },
  revision: {
    base: '/api/revision',
    body: { date: '2025-05-10', km: 91_000, price: 650, description: 'Oil' },
    change: { description: 'Oil and filters' },
  },
  insurance: {
    base: '/api/insurance',
    body: {
      provider: 'Allianz',
      policyNumber: 'RCA-1',
      coverageType: 'RCA',
      startDate: '2025-03-01',
      endDate: '2026-02-28',
      price: 412.5,
    },
    change: { provider: 'Groupama' },
  },
} as const;

describe.each(Object.entries(kinds))('%s versions', (_name, k) => {
  it('starts at 0, bumps on every change, and refuses a stale version with the current record', async () => {
    const created = await alice.post(k.base, { ...k.body, vehicleId: car });
    expect(created.statusCode).toBe(201);
    expect(created.data.version).toBe(0);
    const id = created.data.id;

    const first = await alice.put(`${k.base}/${id}`, { ...k.body, ...k.change, version: 0 });
    expect(first.statusCode).toBe(200);
    expect(first.data.version).toBe(1);

    // Another device still holds version 0.
    const stale = await alice.put(`${k.base}/${id}`, { ...k.body, version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.data).toMatchObject({ code: 'VERSION_CONFLICT', details: { id, version: 1, ...k.change } });
    const list = await alice.get(`${k.base}/vehicle/${car}`);
    expect(list.data.find((r: { id: number }) => r.id === id)).toMatchObject({ version: 1, ...k.change });

    // Without a version the update applies as before (last write wins).
    const plain = await alice.put(`${k.base}/${id}`, { ...k.body });
    expect(plain.statusCode).toBe(200);
    expect(plain.data.version).toBe(2);
  });

  it('another user gets 404 and no data, with or without a version', async () => {
    const id = (await alice.post(k.base, { ...k.body, vehicleId: car })).data.id;
    const res = await bob.put(`${k.base}/${id}`, { ...k.body, ...k.change, version: 0 });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Skoda');
    expect(JSON.stringify(res.data)).not.toMatch(/"version"/);
  });
});

it('recomputed fuel consumption does not make a pending edit stale', async () => {
  const base = kinds.fuel.base;
  const a = await alice.post(base, {
    ...kinds.fuel.body,
    vehicleId: car,
    date: '2025-02-01',
    odometer: 91_000,
  });
  // A later full tank recomputes consumption on the earlier entries: their version stays.
  await alice.post(base, { ...kinds.fuel.body, vehicleId: car, date: '2025-02-15', odometer: 91_600 });
  const edit = await alice.put(`${base}/${a.data.id}`, {
    ...kinds.fuel.body,
    date: '2025-02-01',
    odometer: 91_000,
    liters: 39,
    version: a.data.version,
  });
  expect(edit.statusCode).toBe(200);
});
