import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A page of the records over all of a user's cars (/api/expenses?limit=…) is kept while the cars they
// reach and each car's records version are the same (issue 54). Every change the page shows must be
// in the next read, and one user's kept page is never another's.

type Page = { items: { id: number; vehicleId: number; amount: number; createdBy: string | null }[] };

let t: TestApp;
let owner: { client: TestClient; user: { id: number; username: string } };
let viewer: { client: TestClient; user: { id: number; username: string } };
let ownCar: number;
let sharedCar: number;

const car = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.0,
  odometer: 50_000,
});
const spend = async (c: TestClient, vehicleId: number, date: string, amount: number) => {
  const res = await c.post('/api/expenses', { vehicleId, date, expenseType: 'Parking', amount });
  expect(res.statusCode).toBe(201);
  return res.data.id as number;
};
const page = async (c: TestClient, query = '?limit=10') => {
  const res = await c.get(`/api/expenses${query}`);
  expect(res.statusCode).toBe(200);
  return (res.data as Page).items;
};

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'pageadmin'); // the first account is the admin, who reads every car
  owner = await registered(t.app, 'pageowner');
  viewer = await registered(t.app, 'pageviewer');
  ownCar = (await viewer.client.post('/api/vehicles', car('PV-1'))).data.id;
  sharedCar = (await owner.client.post('/api/vehicles', car('PO-1'))).data.id;
  await spend(viewer.client, ownCar, '2025-01-02', 1);
  await spend(owner.client, sharedCar, '2025-01-03', 2);
});
afterAll(() => t.close());

describe("kept pages over a user's cars", () => {
  it('a record added or deleted is in the next read, and each page and cursor is its own', async () => {
    expect((await page(viewer.client)).map((r) => r.amount)).toEqual([1]);
    expect((await page(viewer.client)).map((r) => r.amount)).toEqual([1]);
    const id = await spend(viewer.client, ownCar, '2025-01-04', 3);
    expect((await page(viewer.client)).map((r) => r.amount)).toEqual([3, 1]);
    expect((await page(viewer.client, '?limit=1')).map((r) => r.amount)).toEqual([3]);
    const first = await viewer.client.get('/api/expenses?limit=1');
    const cursor = first.data.nextCursor as string;
    expect((await page(viewer.client, `?limit=1&cursor=${cursor}`)).map((r) => r.amount)).toEqual([1]);
    expect((await viewer.client.delete(`/api/expenses/${id}`)).statusCode).toBe(204);
    expect((await page(viewer.client)).map((r) => r.amount)).toEqual([1]);
  });

  it("a car shared is in the next read with its records, and gone once the share ends; another's page is never handed out", async () => {
    expect((await page(viewer.client)).map((r) => r.vehicleId)).toEqual([ownCar]);
    const share = await owner.client.post(`/api/vehicles/${sharedCar}/shares`, {
      username: viewer.user.username,
      role: 'VIEWER',
    });
    expect(share.statusCode).toBe(201);
    expect((await page(viewer.client)).map((r) => r.vehicleId)).toEqual([sharedCar, ownCar]);
    // `own` asks for the caller's own cars: kept apart from the page with shares.
    expect((await page(viewer.client, '?limit=10&own=true')).map((r) => r.vehicleId)).toEqual([ownCar]);
    // The same query from the owner: their car only, not the viewer's kept page.
    expect((await page(owner.client)).map((r) => r.vehicleId)).toEqual([sharedCar]);
    expect(
      (await owner.client.delete(`/api/vehicles/${sharedCar}/shares/${viewer.user.id}`)).statusCode,
    ).toBe(204);
    const after = await viewer.client.get('/api/expenses?limit=10');
    expect((after.data as Page).items.map((r) => r.vehicleId)).toEqual([ownCar]);
    expect(after.body).not.toContain('"amount":2');
  });

  it("a writer's new name is in the next read", async () => {
    expect((await page(owner.client))[0]?.createdBy).toBe(owner.user.username);
    await t.database.db.execute(
      sql`update users set username = ${`${owner.user.username}_new`} where id = ${owner.user.id}`,
    );
    expect((await page(owner.client))[0]?.createdBy).toBe(`${owner.user.username}_new`);
  });

  it('a car given to another user leaves its old owner’s next read', async () => {
    expect((await page(owner.client)).map((r) => r.vehicleId)).toEqual([sharedCar]);
    await t.database.db.execute(
      sql`update vehicles set owner_id = ${viewer.user.id} where id = ${sharedCar}`,
    );
    expect(await page(owner.client)).toEqual([]);
    expect((await page(viewer.client)).map((r) => r.vehicleId)).toEqual([sharedCar, ownCar]);
  });

  it('a record of any car of a fleet is in the next read, and a deleted car’s are gone from it', async () => {
    const fleet = await registered(t.app, 'pagefleet');
    const cars: number[] = [];
    for (const reg of ['PF-1', 'PF-2', 'PF-3'])
      cars.push((await fleet.client.post('/api/vehicles', car(reg))).data.id);
    const [first, second, third] = cars as [number, number, number];
    await spend(fleet.client, first, '2025-02-01', 10);
    expect((await page(fleet.client)).map((r) => r.amount)).toEqual([10]);
    // The third car had no records (no version yet): its first one shows.
    await spend(fleet.client, third, '2025-02-02', 30);
    expect((await page(fleet.client)).map((r) => r.amount)).toEqual([30, 10]);
    await spend(fleet.client, second, '2025-02-03', 20);
    expect((await page(fleet.client)).map((r) => r.amount)).toEqual([20, 30, 10]);
    expect((await fleet.client.delete(`/api/vehicles/${third}`)).statusCode).toBe(204);
    expect((await page(fleet.client)).map((r) => r.amount)).toEqual([20, 10]);
  });
});
