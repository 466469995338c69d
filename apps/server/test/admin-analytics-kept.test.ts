import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// The admin's per-car analytics (/api/analytics/admin/filter) are kept once written and handed out
// again only while the analytics generation (migration 0038) is unchanged: every write the rows show
// (a record, a car's make or fuels or owner, an owner's rename, a car's delete) must be seen by the
// next read, and a non-admin never gets the kept answer.

let t: TestApp;
let admin: TestClient;
let owner: TestClient;
let other: TestClient;
let otherId: number;
let ownerName: string;
let otherName: string;
let car: number;

type Row = {
  vehicleId: number;
  vehicleMake: string;
  ownerUsername: string;
  monthDate: string;
  totalCost: number;
  byFuel: { fuelType: string; cost: number; fills: number }[];
};
const rows = async (query = '') => (await admin.get(`/api/analytics/admin/filter${query}`)).data as Row[];
const rowOf = async (query = '') => (await rows(query)).find((r) => r.vehicleId === car);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'keptadmin')).client;
  const w = await registered(t.app, 'keptowner');
  owner = w.client;
  ownerName = w.user.username;
  const o = await registered(t.app, 'keptother');
  other = o.client;
  otherId = o.user.id;
  otherName = o.user.username;
  car = (
    await owner.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      secondaryFuelType: 'GPL',
      registrationNumber: 'KA-1',
      engineSize: 1.0,
      odometer: 60_000,
    })
  ).data.id;
  const fill = await owner.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'PETROL',
    liters: 40,
    fuelPrice: 280,
    odometer: 60_500,
    date: '2025-03-02',
    fullTank: true,
  });
  expect(fill.statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('kept admin analytics', () => {
  it('a record written or deleted after a read is in the next read', async () => {
    expect((await rowOf())?.totalCost).toBe(280); // written and kept
    expect((await rowOf())?.totalCost).toBe(280); // handed out again
    const expense = await owner.post('/api/expenses', {
      vehicleId: car,
      date: '2025-03-20',
      expenseType: 'Wash',
      amount: 20,
    });
    expect(expense.statusCode).toBe(201);
    expect((await rowOf())?.totalCost).toBe(300);
    expect((await rowOf('?start=2025-03&end=2025-03'))?.totalCost).toBe(300);
    await owner.delete(`/api/expenses/${expense.data.id}`);
    expect((await rowOf())?.totalCost).toBe(280);
    expect((await rowOf('?start=2025-03&end=2025-03'))?.totalCost).toBe(280);
  });

  it('a fill moved to the second fuel moves its cost in the split, the totals unchanged', async () => {
    const before = await rowOf();
    expect(before?.byFuel.map((f) => [f.fuelType, f.cost])).toEqual([['PETROL', 280]]);
    const [fill] = (await owner.get(`/api/fuel-consumptions/vehicle/${car}`)).data;
    const moved = await owner.put(`/api/fuel-consumptions/${fill.id}`, { ...fill, fuelType: 'GPL' });
    expect(moved.statusCode).toBe(200);
    const after = await rowOf();
    expect(after?.totalCost).toBe(280);
    expect(after?.byFuel.map((f) => [f.fuelType, f.cost])).toEqual([['GPL', 280]]);
  });

  it("a car's new make and its owner's new name show in the next read", async () => {
    expect((await rowOf())?.vehicleMake).toBe('Dacia');
    const v = (await owner.get(`/api/vehicles/${car}`)).data;
    expect((await owner.put(`/api/vehicles/${car}`, { ...v, make: 'Renault' })).statusCode).toBe(200);
    expect((await rowOf())?.vehicleMake).toBe('Renault');
    expect((await rowOf())?.ownerUsername).toBe(ownerName);
    // However a name changes (an admin's tool, a future route), the rows follow it.
    await t.database.db.execute(
      sql`update users set username = ${`${ownerName}2`} where username = ${ownerName}`,
    );
    expect((await rowOf())?.ownerUsername).toBe(`${ownerName}2`);
    // A car handed to another owner (as a sale does) is theirs in the next read.
    await t.database.db.execute(sql`update vehicles set owner_id = ${otherId} where id = ${car}`);
    expect((await rowOf())?.ownerUsername).toBe(otherName);
  });

  it('answers each currency and range apart, and gives a non-admin 403 with no rows', async () => {
    const eur = await admin.get('/api/analytics/admin/filter?currency=EUR');
    expect(eur.data.find((r: Row & { currency: string }) => r.vehicleId === car)?.currency).toBe('EUR');
    expect(await rows('?start=2024-01&end=2024-12')).toEqual([]);
    expect((await rowOf())?.totalCost).toBe(280);
    const refused = await other.get('/api/analytics/admin/filter');
    expect(refused.statusCode).toBe(403);
    expect(JSON.stringify(refused.data)).not.toContain('Renault');
  });

  it("a deleted car's rows are gone from the next read", async () => {
    expect(await rowOf()).toBeDefined();
    expect((await other.delete(`/api/vehicles/${car}`)).statusCode).toBe(204);
    expect(await rowOf()).toBeUndefined();
  });
});
