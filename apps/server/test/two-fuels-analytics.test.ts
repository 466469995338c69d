import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';

// Issue 51: the monthly, user and admin analytics split the fuel cost by fuel. A Romanian driver's
// Dacia Logan Eco-G (petrol first, LPG second) beside another user's petrol car in euros.
let t: TestApp;
let admin: TestClient;
let ro: TestClient;
let bob: TestClient;
let logan: number;
let golf: number;

const RON_PER_EUR = 4.9688;
const car = (reg: string, extra: Record<string, unknown> = {}) => ({
  make: 'Dacia',
  model: 'Logan Eco-G',
  year: 2022,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1,
  odometer: 49_000,
  ...extra,
});

type Row = {
  vehicleId: number;
  monthDate: string;
  totalFuelCost: number;
  totalExpensesCost: number;
  currency: string;
  byFuel: { fuelType: string; cost: number; fills: number }[];
};
const rowOf = (rows: Row[], vehicleId: number, month: string) =>
  rows.find((r) => r.vehicleId === vehicleId && r.monthDate === month);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client; // the first account is the admin
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-12-20', rate: RON_PER_EUR, source: 'ECB' },
  ]);
  ro = new TestClient(t.app);
  expect((await ro.post('/api/auth/register', { ...newAccount('gpla'), language: 'ro' })).statusCode).toBe(
    201,
  );
  bob = (await registered(t.app, 'bobfuel')).client;
  logan = (await ro.post('/api/vehicles', car('B-51-ANA', { secondaryFuelType: 'GPL' }))).data.id;
  golf = (await bob.post('/api/vehicles', car('M-51-BOB', { make: 'VW', model: 'Golf' }))).data.id;
  const fills = [
    { date: '2025-01-02', odometer: 50_000, fuelType: 'GPL', liters: 30, fuelPrice: 90 },
    { date: '2025-01-03', odometer: 50_050, fuelType: 'PETROL', liters: 20, fuelPrice: 140 },
    // 46 L of LPG over the 600 km since the last LPG fill: 7.67 L/100 km.
    { date: '2025-02-01', odometer: 50_600, fuelType: 'GPL', liters: 46, fuelPrice: 138 },
  ];
  for (const f of fills) {
    const res = await ro.post('/api/fuel-consumptions', { vehicleId: logan, ...f });
    expect(res.statusCode, res.body).toBe(201);
  }
  const expense = { vehicleId: logan, date: '2025-01-15', expenseType: 'Tyres', amount: 300 };
  expect((await ro.post('/api/expenses', expense)).statusCode).toBe(201);
  const bobFill = { vehicleId: golf, date: '2025-01-05', odometer: 49_500, liters: 40, fuelPrice: 50 };
  expect((await bob.post('/api/fuel-consumptions', bobFill)).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('the split by fuel in the monthly, user and admin analytics', () => {
  it('gives each month of the vehicle each fuel’s quantity, cost, fills and consumption', async () => {
    const months = (await ro.get(`/api/analytics/vehicle/${logan}/recompute`)).data;
    expect(months.map((m: { monthDate: string }) => m.monthDate)).toEqual(['2025-02-01', '2025-01-01']);
    expect(months[1]).toMatchObject({ totalFuelCost: 230, totalExpensesCost: 300, currency: 'RON' });
    expect(months[1].byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1, per100km: null },
      { fuelType: 'GPL', unit: 'L', quantity: 30, cost: 90, fills: 1, per100km: null },
    ]);
    expect(months[0].byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null },
      { fuelType: 'GPL', unit: 'L', quantity: 46, cost: 138, fills: 1, per100km: 7.67 },
    ]);
  });

  it('splits the user’s rows by fuel, in lei and in euros, and keeps the rest of the row', async () => {
    const rows = (await ro.get('/api/analytics/user')).data as Row[];
    expect(rows.map((r) => [r.vehicleId, r.monthDate])).toEqual([
      [logan, '2025-02-01'],
      [logan, '2025-01-01'],
    ]);
    expect(rowOf(rows, logan, '2025-01-01')).toMatchObject({
      totalFuelCost: 230,
      totalExpensesCost: 300,
      currency: 'RON',
      byFuel: [
        { fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1 },
        { fuelType: 'GPL', unit: 'L', quantity: 30, cost: 90, fills: 1 },
      ],
    });
    expect(rowOf(rows, logan, '2025-02-01')?.byFuel).toEqual([
      { fuelType: 'GPL', unit: 'L', quantity: 46, cost: 138, fills: 1 },
    ]);
    const eur = (await ro.get('/api/analytics/user?currency=EUR')).data as Row[];
    const jan = rowOf(eur, logan, '2025-01-01') as Row;
    expect(jan.currency).toBe('EUR');
    expect(jan.byFuel.map((f) => f.fuelType)).toEqual(['PETROL', 'GPL']);
    expect(jan.byFuel[1]?.cost).toBeCloseTo(90 / RON_PER_EUR, 2);
    const sum = jan.byFuel.reduce((s, f) => s + f.cost, 0);
    expect(Math.abs(sum - jan.totalFuelCost)).toBeLessThanOrEqual(0.01);
  });

  it('a second user sees only their own car’s split, none of the first user’s figures', async () => {
    const res = await bob.get('/api/analytics/user');
    const rows = res.data as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      vehicleId: golf,
      totalFuelCost: 50,
      currency: 'EUR',
      byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 40, cost: 50, fills: 1 }],
    });
    expect(res.body).not.toContain('GPL');
    expect(res.body).not.toContain(`"vehicleId":${logan},`);
  });

  it('the admin sees every owner’s split, in the currency asked for', async () => {
    const rows = (await admin.get('/api/analytics/admin/filter?start=2025-01&end=2025-01&currency=RON'))
      .data as Row[];
    expect(rows.map((r) => r.monthDate)).toEqual(['2025-01-01', '2025-01-01']);
    expect(rowOf(rows, logan, '2025-01-01')?.byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1 },
      { fuelType: 'GPL', unit: 'L', quantity: 30, cost: 90, fills: 1 },
    ]);
    // Bob's 50 euros in lei at the day's rate, as his row's fuel cost.
    const bobRow = rowOf(rows, golf, '2025-01-01') as Row;
    expect(bobRow.currency).toBe('RON');
    expect(bobRow.byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 40, cost: bobRow.totalFuelCost, fills: 1 },
    ]);
    expect(bobRow.totalFuelCost).toBeCloseTo(50 * RON_PER_EUR, 2);
    // A month outside the range brings no split either.
    const feb = (await admin.get('/api/analytics/admin/filter?start=2025-02&end=2025-02&currency=RON'))
      .data as Row[];
    expect(feb.map((r) => [r.vehicleId, r.byFuel.map((f) => f.fuelType)])).toEqual([[logan, ['GPL']]]);
  });

  it('a one-fuel car’s split is its month’s fuel, each currency without a rate on its own row', async () => {
    // Carol pays in euros, then in forints (no rate to euros known here), in the same month; her
    // other month has only an expense.
    const carol = await registered(t.app, 'carolhuf');
    const polo = (await carol.client.post('/api/vehicles', car('H-51-CAR', { make: 'VW', model: 'Polo' })))
      .data.id as number;
    const fill = (date: string, odometer: number, liters: number, fuelPrice: number) =>
      carol.client.post('/api/fuel-consumptions', { vehicleId: polo, date, odometer, liters, fuelPrice });
    expect((await fill('2025-03-02', 50_000, 30.5, 55.25)).statusCode).toBe(201);
    expect((await fill('2025-03-09', 50_400, 20, 35)).statusCode).toBe(201);
    const me = carol.account;
    const toHuf = await carol.client.put('/api/users/me', {
      username: me.username,
      email: me.email,
      currency: 'HUF',
    });
    expect(toHuf.statusCode, toHuf.body).toBe(200);
    expect((await fill('2025-03-20', 50_900, 25, 14_000)).statusCode).toBe(201);
    const expense = { vehicleId: polo, date: '2025-04-10', expenseType: 'Wash', amount: 4000 };
    expect((await carol.client.post('/api/expenses', expense)).statusCode).toBe(201);

    const rows = (await admin.get('/api/analytics/admin/filter?start=2025-03&end=2025-04&currency=EUR'))
      .data as Row[];
    const polos = rows.filter((r) => r.vehicleId === polo);
    expect(polos.map((r) => [r.monthDate, r.currency, r.totalFuelCost, r.byFuel])).toEqual([
      ['2025-04-01', 'HUF', 0, []],
      [
        '2025-03-01',
        'EUR',
        90.25,
        [{ fuelType: 'PETROL', unit: 'L', quantity: 50.5, cost: 90.25, fills: 2 }],
      ],
      [
        '2025-03-01',
        'HUF',
        14_000,
        [{ fuelType: 'PETROL', unit: 'L', quantity: 25, cost: 14_000, fills: 1 }],
      ],
    ]);
    // Her own view in forints: the euro row stays in euros (no rate), as its split does.
    const own = (await carol.client.get('/api/analytics/user')).data as Row[];
    expect(
      own.filter((r) => r.monthDate === '2025-03-01').map((r) => [r.currency, r.byFuel[0]?.fills]),
    ).toEqual([
      ['EUR', 2],
      ['HUF', 1],
    ]);
    // Another user reads none of it.
    expect((await bob.get('/api/analytics/user')).body).not.toContain(`"vehicleId":${polo},`);
  });
});
