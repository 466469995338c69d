import { Expense, FuelEntry, Insurance, Revision } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

// GET /api/{kind}/vehicle/{id} answers JSON the database builds (json_agg) with the ownership check in
// the same statement. It must say exactly what the typed path says: the paged all-vehicles list
// (rows through the compiled serializer) holds the same records, field for field.

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let car: number;
let emptyCar: number;

const vehicle = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.0,
  odometer: 50_000,
});

const kinds = [
  { base: '/api/fuel-consumptions', schema: FuelEntry },
  { base: '/api/insurance', schema: Insurance },
  { base: '/api/expenses', schema: Expense },
  { base: '/api/revision', schema: Revision },
] as const;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  car = (await alice.post('/api/vehicles', vehicle('J-1'))).data.id;
  emptyCar = (await alice.post('/api/vehicles', vehicle('J-2'))).data.id;
  const fills = [
    // odometer null (no consumption), decimals in litres and price, a partial fill, a missed one
    { date: '2025-01-02', liters: 40.5, fuelPrice: 280.75, odometer: null },
    { date: '2025-01-10', liters: 35, fuelPrice: 250, odometer: 10_000 },
    { date: '2025-01-20', liters: 12.25, fuelPrice: 90.1, odometer: 10_300, fullTank: false },
    { date: '2025-01-30', liters: 30, fuelPrice: 210, odometer: 10_700 },
    { date: '2025-02-05', liters: 31, fuelPrice: 220, odometer: 11_200, missedPrevious: true },
  ];
  for (const f of fills)
    expect(
      (await alice.post('/api/fuel-consumptions', { vehicleId: car, fuelType: 'PETROL', ...f })).statusCode,
    ).toBe(201);
  for (const [i, price] of [199.99, 1_000_000.5].entries())
    expect(
      (
        await alice.post('/api/insurance', {
          vehicleId: car,
          provider: `Insurer ${i}`,
          startDate: `202${i}-03-01`,
          endDate: `202${i + 1}-02-28`,
          price,
          reminderEnabled: i === 0,
        })
      ).statusCode,
    ).toBe(201);
  for (const [i, amount] of [0, 12.3, 45].entries())
    expect(
      (
        await alice.post('/api/expenses', {
          vehicleId: car,
          date: `2025-0${i + 1}-15`,
          expenseType: 'Repair',
          amount,
          description: i === 1 ? 'Quotes "and" \\ backslash, ünïcode ✓\nnew line' : '',
        })
      ).statusCode,
    ).toBe(201);
  const rev = await alice.post('/api/revision', {
    vehicleId: car,
    date: '2024-06-01',
    km: 9_000,
    price: 150.5,
  });
  expect(rev.statusCode).toBe(201);
  await alice.post('/api/revision', { vehicleId: car, date: '2024-12-01', km: 9_500, price: 80 });
  expect(
    (await alice.put(`/api/revision/${rev.data.id}/manual-reminder`, { reminderDate: '2025-06-01' }))
      .statusCode,
  ).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe.each(kinds)('GET $base/vehicle/{id}', ({ base, schema }) => {
  it('answers the same records, fields and order as the typed path, and only the schema fields', async () => {
    const res = await alice.get(`${base}/vehicle/${car}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const typed = await alice.get(`${base}?limit=100`);
    expect(typed.statusCode).toBe(200);
    expect(res.data.length).toBeGreaterThanOrEqual(2);
    expect(res.data).toEqual(typed.data.items);
    // Exactly the response schema's keys (no created_at, nothing else), and valid against it.
    for (const row of res.data) expect(Object.keys(row).sort()).toEqual(Object.keys(schema.shape).sort());
    expect(z.array(schema).safeParse(res.data).success).toBe(true);
  });

  it('answers [] for an own vehicle without records, 404 for another user (no data), and all to an admin', async () => {
    const empty = await alice.get(`${base}/vehicle/${emptyCar}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.data).toEqual([]);
    const foreign = await bob.get(`${base}/vehicle/${car}`);
    expectError(foreign, 404, 'NOT_FOUND');
    expect(foreign.body).not.toContain('Insurer');
    expectError(await bob.get(`${base}/vehicle/${emptyCar}`), 404, 'NOT_FOUND');
    expectError(await alice.get(`${base}/vehicle/999999`), 404, 'NOT_FOUND');
    const asAdmin = await admin.get(`${base}/vehicle/${car}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.data).toEqual((await alice.get(`${base}/vehicle/${car}`)).data);
  });
});

it('keeps the fuel date range (inclusive) and the consumption figures', async () => {
  const res = await alice.get(`/api/fuel-consumptions/vehicle/${car}?from=2025-01-10&to=2025-01-30`);
  expect(res.statusCode).toBe(200);
  expect(res.data.map((r: { date: string }) => r.date)).toEqual(['2025-01-30', '2025-01-20', '2025-01-10']);
  const last = res.data[0];
  expect(last).toMatchObject({ liters: 30, fuelPrice: 210, odometer: 10_700, fullTank: true });
  expect(typeof last.consumptionPer100km).toBe('number');
  const outside = await alice.get(`/api/fuel-consumptions/vehicle/${car}?from=2030-01-01`);
  expect(outside.data).toEqual([]);
});
