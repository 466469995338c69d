import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

// The all-vehicles lists (/fuel, /expenses, /insurance, /revision without an id): one paged request
// per kind over the caller's vehicles, or every vehicle for an admin.

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
const aliceCars: number[] = [];
let bobCar: number;

const vehicle = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.0,
  odometer: 50_000,
});
const expense = (vehicleId: number, date: string, amount: number) => ({
  vehicleId,
  date,
  expenseType: 'Parking',
  amount,
  description: '',
});
const ids = (res: { data: { items: { id: number }[] } }) => res.data.items.map((r) => r.id);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  for (const reg of ['L-1', 'L-2']) aliceCars.push((await alice.post('/api/vehicles', vehicle(reg))).data.id);
  bobCar = (await bob.post('/api/vehicles', vehicle('B-1'))).data.id;
  // Alice: 5 expenses over two cars, two on the same day; Bob: 1.
  const [a, b] = aliceCars as [number, number];
  for (const [v, d, amt] of [
    [a, '2025-01-05', 1],
    [b, '2025-02-10', 2],
    [a, '2025-02-10', 3],
    [b, '2025-03-01', 4],
    [a, '2024-12-31', 5],
  ] as const)
    expect((await alice.post('/api/expenses', expense(v, d, amt))).statusCode).toBe(201);
  expect((await bob.post('/api/expenses', expense(bobCar, '2025-06-01', 9))).statusCode).toBe(201);
  expect(
    (
      await bob.post('/api/fuel-consumptions', {
        vehicleId: bobCar,
        fuelType: 'PETROL',
        liters: 30,
        fuelPrice: 200,
        date: '2025-06-02',
      })
    ).statusCode,
  ).toBe(201);
});
afterAll(() => t.close());

describe('all-vehicles record lists', () => {
  it("gives a user every record of their own vehicles, newest first, and nobody else's", async () => {
    const res = await alice.get('/api/expenses');
    expect(res.statusCode).toBe(200);
    expect(res.data.items.map((r: { amount: number }) => r.amount)).toEqual([4, 3, 2, 1, 5]);
    expect(res.data.nextCursor).toBeNull();
    expect(res.data.items.every((r: { vehicleId: number }) => aliceCars.includes(r.vehicleId))).toBe(true);

    const bobs = await bob.get('/api/expenses');
    expect(bobs.data.items.map((r: { amount: number }) => r.amount)).toEqual([9]);
    expect((await alice.get('/api/fuel-consumptions')).data.items).toEqual([]);
  });

  it('pages with nextCursor: no record twice or left out, even on the same date', async () => {
    const all = ids(await alice.get('/api/expenses'));
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await alice.get(`/api/expenses?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      expect(res.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      cursor = res.data.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(3);
  });

  it('pages over more cars than a page: each car newest-first to a bound, none left out (issue 54)', async () => {
    const carol = (await registered(t.app, 'carol')).client;
    const cars: number[] = [];
    for (const reg of ['C-1', 'C-2', 'C-3', 'C-4'])
      cars.push((await carol.post('/api/vehicles', vehicle(reg))).data.id);
    // One expense a car on its own day, newest on the first car, which also has two older ones.
    const [c1, c2, c3, c4] = cars as [number, number, number, number];
    for (const [v, d, amt] of [
      [c1, '2025-05-01', 1],
      [c2, '2025-04-01', 2],
      [c3, '2025-03-01', 3],
      [c4, '2025-02-01', 4],
      [c1, '2025-01-01', 5],
      [c1, '2024-12-01', 6],
    ] as const)
      expect((await carol.post('/api/expenses', expense(v, d, amt))).statusCode).toBe(201);
    for (const limit of [1, 2, 3, 4]) {
      const amounts: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await carol.get(`/api/expenses?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        amounts.push(...res.data.items.map((r: { amount: number }) => r.amount));
        cursor = res.data.nextCursor;
      } while (cursor);
      expect(amounts, `limit ${limit}`).toEqual([1, 2, 3, 4, 5, 6]);
    }
    // The other tests here count every record an admin sees.
    for (const id of cars) expect((await carol.delete(`/api/vehicles/${id}`)).statusCode).toBe(204);
  });

  it('filters by date range', async () => {
    const res = await alice.get('/api/expenses?from=2025-01-01&to=2025-02-28');
    expect(res.data.items.map((r: { amount: number }) => r.amount)).toEqual([3, 2, 1]);
  });

  it("gives an admin every vehicle's records", async () => {
    const res = await admin.get('/api/expenses?limit=100');
    expect(res.data.items.map((r: { amount: number }) => r.amount)).toEqual([9, 4, 3, 2, 1, 5]);
    expect(ids(await admin.get('/api/fuel-consumptions'))).toHaveLength(1);
  });

  it('answers every kind', async () => {
    for (const path of ['/api/insurance', '/api/revision', '/api/fuel-consumptions', '/api/expenses'])
      expect((await alice.get(path)).statusCode).toBe(200);
  });

  it('refuses a bad page request and a visitor who is not logged in', async () => {
    expectError(await alice.get('/api/expenses?limit=0'), 400, 'VALIDATION_FAILED');
    expectError(await alice.get('/api/expenses?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await alice.get('/api/expenses?cursor=nonsense'), 400, 'VALIDATION_FAILED');
    expectError(await new TestClient(t.app).get('/api/expenses'), 401, 'UNAUTHENTICATED');
  });
});
