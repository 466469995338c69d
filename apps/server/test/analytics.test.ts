import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let car: number;
let empty: number;
let bobCar: number;

const vehicle = (reg: string, odometer = 50_000) => ({
  make: 'Renault',
  model: 'Clio',
  year: 2018,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 0.9,
  odometer,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  car = (await alice.post('/api/vehicles', vehicle('AN-1'))).data.id;
  empty = (await alice.post('/api/vehicles', vehicle('AN-2'))).data.id;
  bobCar = (await bob.post('/api/vehicles', { ...vehicle('BN-1'), make: 'Ford', model: 'Focus' })).data.id;
  const fuel = (date: string, odometer: number, liters: number, fuelPrice: number) =>
    alice.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters,
      fuelPrice,
      odometer,
      date,
    });
  // Hand-computed fixture across month and year boundaries.
  await fuel('2024-12-31', 40_000, 40, 300); // Dec 2024
  await fuel('2025-01-01', 40_600, 30.5, 220.1); // Jan 2025
  await alice.post('/api/expenses', {
    vehicleId: car,
    date: '2025-01-31',
    expenseType: 'Tyres',
    amount: 400,
  }); // Jan 2025
  // A policy starting on the 31st counts in the month it starts: January.
  await alice.post('/api/insurance', {
    vehicleId: car,
    provider: 'Allianz',
    startDate: '2025-01-31',
    endDate: '2026-01-30',
    price: 500,
  });
  await alice.post('/api/revision', { vehicleId: car, date: '2025-02-01', km: 41_000, price: 650 }); // Feb 2025
  await alice.post('/api/expenses', { vehicleId: car, date: '2025-12-31', expenseType: 'Wash', amount: 20 }); // Dec 2025
  await bob.post('/api/expenses', {
    vehicleId: bobCar,
    date: '2025-02-10',
    expenseType: 'Repair',
    amount: 99.99,
  });
});
afterAll(() => t.close());

describe('vehicle analytics', () => {
  it('gives monthly totals newest first, with each record in its own month', async () => {
    const res = await alice.get(`/api/analytics/vehicle/${car}/recompute`);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual([
      {
        id: 202512,
        monthDate: '2025-12-01',
        totalFuelLiters: 0,
        totalFuelCost: 0,
        totalExpensesCost: 20,
        totalInsuranceCost: 0,
        totalRevisionCost: 0,
        totalCost: 20,
        currency: 'EUR',
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null }],
      },
      {
        id: 202502,
        monthDate: '2025-02-01',
        totalFuelLiters: 0,
        totalFuelCost: 0,
        totalExpensesCost: 0,
        totalInsuranceCost: 0,
        totalRevisionCost: 650,
        totalCost: 650,
        currency: 'EUR',
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null }],
      },
      {
        id: 202501,
        monthDate: '2025-01-01',
        totalFuelLiters: 30.5,
        totalFuelCost: 220.1,
        totalExpensesCost: 400,
        totalInsuranceCost: 500,
        totalRevisionCost: 0,
        totalCost: 1120.1,
        currency: 'EUR',
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 30.5, cost: 220.1, fills: 1, per100km: 5.08 }],
      },
      {
        id: 202412,
        monthDate: '2024-12-01',
        totalFuelLiters: 40,
        totalFuelCost: 300,
        totalExpensesCost: 0,
        totalInsuranceCost: 0,
        totalRevisionCost: 0,
        totalCost: 300,
        currency: 'EUR',
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 40, cost: 300, fills: 1, per100km: null }],
      },
    ]);
  });

  it('gives yearly totals keyed by year', async () => {
    const res = await alice.get(`/api/analytics/vehicle/${car}/yearly`);
    expect(res.data).toEqual({
      '2024': {
        totalFuelLiters: 40,
        totalFuelCost: 300,
        totalExpensesCost: 0,
        totalInsuranceCost: 0,
        totalRevisionCost: 0,
        totalCost: 300,
        currency: 'EUR',
        // A single-fuel vehicle: one entry (issue 51). The first fill has no consumption yet.
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 40, cost: 300, fills: 1, per100km: null }],
      },
      '2025': {
        totalFuelLiters: 30.5,
        totalFuelCost: 220.1,
        totalExpensesCost: 420,
        totalInsuranceCost: 500,
        totalRevisionCost: 650,
        totalCost: 1790.1,
        currency: 'EUR',
        // 30.5 L over 40,600 − 40,000 km = 5.08 L/100 km.
        byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 30.5, cost: 220.1, fills: 1, per100km: 5.08 }],
      },
    });
  });

  it('gives all-time totals, km driven from the odometer readings and cost per km', async () => {
    const res = await alice.get(`/api/analytics/vehicle/${car}/total`);
    // 2,090.10 € over 50,000 − 40,000 km.
    expect(res.data).toEqual({
      totalFuelLiters: 70.5,
      totalFuelCost: 520.1,
      totalExpensesCost: 420,
      totalInsuranceCost: 500,
      totalRevisionCost: 650,
      totalCost: 2090.1,
      currency: 'EUR',
      totalKm: 10_000,
      costPerKm: 0.209,
      byFuel: [{ fuelType: 'PETROL', unit: 'L', quantity: 70.5, cost: 520.1, fills: 2, per100km: 5.08 }],
    });
  });

  it('answers an empty list, zero totals and no cost per km for a vehicle without records', async () => {
    expect((await alice.get(`/api/analytics/vehicle/${empty}/recompute`)).data).toEqual([]);
    expect((await alice.get(`/api/analytics/vehicle/${empty}/yearly`)).data).toEqual({});
    const total = (await alice.get(`/api/analytics/vehicle/${empty}/total`)).data;
    expect(total).toMatchObject({ totalCost: 0, totalKm: 0, costPerKm: null });
  });

  it('gives another user 404 and no data on every vehicle analytics call; an admin reaches them', async () => {
    for (const path of ['recompute', 'total', 'yearly']) {
      const res = await bob.get(`/api/analytics/vehicle/${car}/${path}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('1120.1');
      expect((await admin.get(`/api/analytics/vehicle/${car}/${path}`)).statusCode).toBe(200);
    }
    expect((await alice.get(`/api/analytics/vehicle/abc/total`)).statusCode).toBe(400);
  });
});

describe('monthly rollup', () => {
  it('follows edits, moves and deletes of records, and forgets a deleted vehicle', async () => {
    const v = (await alice.post('/api/vehicles', vehicle('AN-3'))).data.id;
    const month = async () =>
      (
        (await alice.get(`/api/analytics/vehicle/${v}/recompute`)).data as {
          monthDate: string;
          totalCost: number;
        }[]
      ).map((m) => [m.monthDate, m.totalCost]);
    const exp = (
      await alice.post('/api/expenses', {
        vehicleId: v,
        date: '2025-03-10',
        expenseType: 'Repair',
        amount: 400,
      })
    ).data;
    const rev = (
      await alice.post('/api/revision', { vehicleId: v, date: '2025-03-20', km: 51_000, price: 300 })
    ).data;
    expect(await month()).toEqual([['2025-03-01', 700]]);
    await alice.put(`/api/expenses/${exp.id}`, {
      vehicleId: v,
      date: '2025-04-02',
      expenseType: 'Repair',
      amount: 150.5,
    });
    expect(await month()).toEqual([
      ['2025-04-01', 150.5],
      ['2025-03-01', 300],
    ]);
    await alice.delete(`/api/revision/${rev.id}`);
    expect(await month()).toEqual([['2025-04-01', 150.5]]);
    // Moving the expense to another vehicle moves its cost too.
    await alice.put(`/api/expenses/${exp.id}`, {
      vehicleId: empty,
      date: '2025-04-02',
      expenseType: 'Repair',
      amount: 150.5,
    });
    expect(await month()).toEqual([]);
    expect((await alice.get(`/api/analytics/vehicle/${empty}/recompute`)).data).toHaveLength(1);
    await alice.delete(`/api/expenses/${exp.id}`);
    await alice.post('/api/expenses', { vehicleId: v, date: '2025-05-05', expenseType: 'Wash', amount: 12 });
    await alice.delete(`/api/vehicles/${v}`);
    const rows = (await admin.get('/api/analytics/admin/filter?start=2025-05&end=2025-05')).data;
    expect(rows).toEqual([]);
  });
});

describe('user analytics', () => {
  it("lists only the caller's vehicles by vehicle and month, named", async () => {
    const rows = (await alice.get('/api/analytics/user')).data as {
      vehicleId: number;
      monthDate: string;
      totalCost: number;
      vehicleMake: string;
    }[];
    expect(rows.map((r) => [r.monthDate, r.totalCost])).toEqual([
      ['2025-12-01', 20],
      ['2025-02-01', 650],
      ['2025-01-01', 1120.1],
      ['2024-12-01', 300],
    ]);
    expect(new Set(rows.map((r) => r.vehicleId))).toEqual(new Set([car]));
    expect(rows[0]).toMatchObject({
      vehicleMake: 'Renault',
      vehicleModel: 'Clio',
      ownerUsername: alice.user?.username,
    });
    const bobs = (await bob.get('/api/analytics/user')).data;
    expect(bobs).toEqual([
      expect.objectContaining({ vehicleId: bobCar, totalCost: 99.99, totalExpensesCost: 99.99 }),
    ]);
  });
});

describe('admin analytics', () => {
  it('lists every owner, bounded by start and end months (both inclusive)', async () => {
    const all = (await admin.get('/api/analytics/admin/filter')).data as {
      ownerUsername: string;
      monthDate: string;
    }[];
    expect(new Set(all.map((r) => r.ownerUsername))).toEqual(
      new Set([alice.user?.username, bob.user?.username]),
    );
    expect(all).toHaveLength(5);
    const feb = (await admin.get('/api/analytics/admin/filter?start=2025-01&end=2025-02')).data as {
      monthDate: string;
      totalCost: number;
    }[];
    expect(feb.map((r) => [r.monthDate, r.totalCost])).toEqual([
      ['2025-02-01', 650],
      ['2025-02-01', 99.99],
      ['2025-01-01', 1120.1],
    ]);
    expect((await admin.get('/api/analytics/admin/filter?start=2025-12')).data).toHaveLength(1);
    expect((await admin.get('/api/analytics/admin/filter?end=2024-12')).data).toHaveLength(1);
  });

  it('refuses a malformed month or a start after the end (400), and non-admins (403)', async () => {
    for (const q of ['start=2025-13', 'end=2025-1', 'start=January', 'start=2025-03&end=2025-02']) {
      const res = await admin.get(`/api/analytics/admin/filter?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.data.code).toBe('VALIDATION_FAILED');
    }
    const denied = await alice.get('/api/analytics/admin/filter');
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('Focus');
  });
});
