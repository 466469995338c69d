import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

// Issue 54: the admin's global analytics by month come from a rollup kept across all cars
// (global_month_costs): each month must hold what the per-car rows of that month add up to, to the
// cent, after records are added, changed, moved to another month and deleted, and a car is deleted.

let t: TestApp;
let admin: TestClient;
let owners: TestClient[];
let user: TestClient;
const RON_PER_EUR = 4.9771;

const KEYS = [
  'totalFuelCost',
  'totalExpensesCost',
  'totalInsuranceCost',
  'totalRevisionCost',
  'totalCost',
] as const;
type Totals = Record<(typeof KEYS)[number], number>;
const cents = (v: number) => Math.round(v * 100);

/** The per-car rows of /admin/filter added up by month and currency, in cents. */
function addedUp(rows: (Totals & { monthDate: string; currency: string })[]) {
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.monthDate}|${r.currency}`;
    const sum = out.get(key) ?? KEYS.map(() => 0);
    KEYS.forEach((k, i) => {
      sum[i] = (sum[i] as number) + cents(r[k]);
    });
    out.set(key, sum);
  }
  return out;
}

async function expectSameAsRows(query: string) {
  const rows = await admin.get(`/api/analytics/admin/filter${query}`);
  const months = await admin.get(`/api/analytics/admin/months${query}`);
  expect(rows.statusCode).toBe(200);
  expect(months.statusCode).toBe(200);
  const expected = addedUp(rows.data);
  const answered = new Map<string, number[]>(
    (months.data as (Totals & { monthDate: string; currency: string })[]).map((m) => [
      `${m.monthDate}|${m.currency}`,
      KEYS.map((k) => cents(m[k])),
    ]),
  );
  expect(answered).toEqual(expected);
  return months.data as (Totals & { monthDate: string; currency: string; totalFuelLiters: number })[];
}

async function newCar(client: TestClient, registrationNumber: string) {
  const res = await client.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2018,
    fuelType: 'DIESEL',
    registrationNumber,
    engineSize: 1.5,
    odometer: 50_000,
  });
  expect(res.statusCode).toBe(201);
  return res.data.id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  // Lei have a rate (read before any answer: the day's rates are kept a minute); forints none.
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-05-03', rate: RON_PER_EUR, source: 'ECB' },
  ]);
  admin = (await registered(t.app, 'admin')).client;
  user = (await registered(t.app, 'glob')).client;
  owners = [(await registered(t.app, 'glob')).client, (await registered(t.app, 'glob')).client];
});
afterAll(() => t.close());

describe('GET /api/analytics/admin/months', () => {
  it('holds what the per-car rows add up to, month by month, through writes, moves and deletes', async () => {
    const [a, b] = owners as [TestClient, TestClient];
    const carA = await newCar(a, 'B-54-AAA');
    const carB = await newCar(b, 'B-54-BBB');
    const gone = await newCar(b, 'B-54-CCC');
    const made = [];
    for (const [client, car] of [
      [a, carA],
      [b, carB],
      [b, gone],
    ] as const) {
      for (const [date, price] of [
        ['2024-01-10', 70.13],
        ['2024-02-11', 65.07],
        ['2024-03-12', 80.01],
      ] as const)
        made.push(
          await client.post('/api/fuel-consumptions', {
            vehicleId: car,
            fuelType: 'DIESEL',
            liters: 41.37,
            fuelPrice: price,
            date,
            fullTank: false,
          }),
        );
      made.push(
        await client.post('/api/expenses', {
          vehicleId: car,
          date: '2024-02-03',
          expenseType: 'Wash',
          amount: 12.34,
        }),
        await client.post('/api/insurance', {
          vehicleId: car,
          provider: 'Allianz',
          startDate: '2024-01-15',
          endDate: '2025-01-14',
          price: 301.99,
        }),
        await client.post('/api/revision', {
          vehicleId: car,
          date: '2024-03-20',
          km: 55_000,
          price: 410.5,
          description: 'Oil',
        }),
      );
    }
    for (const res of made) expect(res.statusCode).toBe(201);
    const before = await expectSameAsRows('?start=2024-01&end=2024-03');
    expect(before.map((m) => m.monthDate)).toEqual(['2024-03-01', '2024-02-01', '2024-01-01']);
    expect(before[2]).toMatchObject({ currency: 'EUR', totalFuelCost: 210.39, totalInsuranceCost: 905.97 });

    // A fill changed and moved to another month, an expense deleted, a car deleted with its records.
    const fill = made[0]?.data;
    const moved = await a.put(`/api/fuel-consumptions/${fill.id}`, {
      ...fill,
      fuelPrice: 99.99,
      date: '2024-02-28',
    });
    expect(moved.statusCode).toBe(200);
    expect((await a.delete(`/api/expenses/${made[3]?.data.id}`)).statusCode).toBe(204);
    expect((await b.delete(`/api/vehicles/${gone}`)).statusCode).toBe(204);

    const after = await expectSameAsRows('?start=2024-01&end=2024-03');
    expect(after.find((m) => m.monthDate === '2024-01-01')).toMatchObject({ totalFuelCost: 70.13 });
    expect(after.find((m) => m.monthDate === '2024-02-01')).toMatchObject({
      totalFuelCost: 230.13,
      totalExpensesCost: 12.34,
      totalFuelLiters: 124.11,
    });
    await expectSameAsRows('');
    await expectSameAsRows('?start=2024-02&end=2024-02');
    expect((await admin.get('/api/analytics/admin/months?start=2023-01&end=2023-12')).data).toEqual([]);
  });

  it('converts a currency with a known rate and keeps one without in a row of its own', async () => {
    for (const [currency, amount] of [
      ['RON', 497.77],
      ['HUF', 25_000],
    ] as const) {
      const { client, account } = await registered(t.app, 'glob');
      const me = { username: account.username, email: account.email, currency };
      expect((await client.put('/api/users/me', me)).statusCode).toBe(200);
      const car = await newCar(client, `B-54-${currency}`);
      const res = await client.post('/api/expenses', {
        vehicleId: car,
        date: '2024-05-05',
        expenseType: 'Tyres',
        amount,
      });
      expect(res.statusCode).toBe(201);
    }
    // One car a currency: its row's rounding is the month's, so even converted the two agree.
    const months = await expectSameAsRows('?start=2024-05&end=2024-05');
    expect(months).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        totalExpensesCost: Math.round((497.77 / RON_PER_EUR) * 100) / 100,
      }),
      expect.objectContaining({ currency: 'HUF', totalExpensesCost: 25_000 }),
    ]);
    const inLei = await expectSameAsRows('?start=2024-05&end=2024-05&currency=RON');
    expect(inLei.map((m) => m.currency)).toEqual(['HUF', 'RON']);
  });

  it('refuses a bad month or currency with 400 naming it, and anyone but an admin with 403 and no data', async () => {
    expectInvalid(await admin.get('/api/analytics/admin/months?start=2024-13'), 'start');
    expectInvalid(await admin.get('/api/analytics/admin/months?start=2024-05&end=2024-01'), 'start');
    expectInvalid(await admin.get('/api/analytics/admin/months?currency=lei'), 'currency');
    const res = await user.get('/api/analytics/admin/months');
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body).not.toContain('totalCost');
    expectError(await new TestClient(t.app).get('/api/analytics/admin/months'), 401, 'UNAUTHENTICATED');
  });
});
