import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionedCache } from '../src/lib/versioned-cache.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A vehicle's record lists are kept by each server process at the vehicle's records version, which
// triggers bump on every write. Whatever changes a list, through this process or past it, the next
// read shows it; and the kept list never reaches someone who may no longer see the car.

describe('VersionedCache', () => {
  it('answers a value only at the version it was kept at', () => {
    const cache = new VersionedCache(100);
    cache.set('a', 1, 'one');
    expect(cache.get('a', 1)).toBe('one');
    expect(cache.get('a', 2)).toBeUndefined();
    cache.set('a', 2, 'two');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('a', 2)).toBe('two');
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used values past its size, and never keeps one a quarter of it', () => {
    const cache = new VersionedCache(40);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 1, key.repeat(10));
    expect(cache.get('a', 1)).toBe('a'.repeat(10)); // now the most recently used
    cache.set('e', 1, 'e'.repeat(10));
    expect(cache.get('b', 1)).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => cache.get(k, 1)?.[0])).toEqual(['a', 'c', 'd', 'e']);
    cache.set('big', 1, 'x'.repeat(11));
    expect(cache.get('big', 1)).toBeUndefined();
    expect(cache.size).toBe(4);
  });

  it('gives a value read since it last came round a second chance, before older unread ones go', () => {
    const cache = new VersionedCache(40);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 1, key.repeat(10));
    cache.get('b', 1);
    cache.set('e', 1, 'e'.repeat(10)); // a (never read) goes
    cache.set('f', 1, 'f'.repeat(10)); // b was read: it goes round, and c (never read) goes
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => cache.get(k, 1)?.[0])).toEqual([
      undefined,
      'b',
      undefined,
      'd',
      'e',
      'f',
    ]);
    // Everything was just read: the oldest of them goes, never the value being kept.
    cache.set('g', 1, 'g'.repeat(10));
    expect(cache.size).toBe(4);
    expect(cache.get('g', 1)).toBe('g'.repeat(10));
  });

  it('loads a value asked for at once at one version once, and again at another version', async () => {
    const cache = new VersionedCache(100);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 20));
      return `value ${loads}`;
    };
    expect(await Promise.all([1, 2, 3].map(() => cache.through('k', 1, load)))).toEqual([
      'value 1',
      'value 1',
      'value 1',
    ]);
    expect(await Promise.all([cache.through('k', 1, load), cache.through('k', 2, load)])).toEqual([
      'value 1',
      'value 2',
    ]);
    expect(loads).toBe(2);
  });
});

let t: TestApp;
let owner: { client: TestClient; user: { id: number; username: string } };
let viewer: { client: TestClient; user: { id: number; username: string } };
let admin: TestClient;
let car: number;
let fill: number;

const fuelList = async (who: TestClient = owner.client, query = '') =>
  (await who.get(`/api/fuel-consumptions/vehicle/${car}${query}`)).data as {
    id: number;
    fuelPrice: number;
    createdBy: string | null;
  }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  owner = await registered(t.app, 'owner');
  viewer = await registered(t.app, 'viewer');
  car = (
    await owner.client.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'LC-1',
      engineSize: 1.0,
      odometer: 50_000,
    })
  ).data.id;
  const res = await owner.client.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'PETROL',
    date: '2025-03-01',
    liters: 40,
    fuelPrice: 280,
    odometer: 50_500,
  });
  fill = res.data.id;
  const shared = await owner.client.post(`/api/vehicles/${car}/shares`, {
    username: viewer.user.username,
    role: 'VIEWER',
  });
  expect(shared.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('a kept record list', () => {
  it('shows every write through the API: add, change, delete', async () => {
    expect((await fuelList()).map((f) => f.id)).toEqual([fill]);
    const added = await owner.client.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      date: '2025-03-20',
      liters: 30,
      fuelPrice: 210,
      odometer: 50_900,
    });
    expect((await fuelList()).map((f) => f.id)).toEqual([added.data.id, fill]);
    const changed = await owner.client.put(`/api/fuel-consumptions/${added.data.id}`, {
      ...added.data,
      fuelPrice: 215.5,
    });
    expect(changed.statusCode).toBe(200);
    expect((await fuelList())[0]?.fuelPrice).toBe(215.5);
    expect((await owner.client.delete(`/api/fuel-consumptions/${added.data.id}`)).statusCode).toBe(204);
    expect((await fuelList()).map((f) => f.id)).toEqual([fill]);
  });

  it('shows a change written past this process (another server, a script on the database)', async () => {
    expect((await fuelList())[0]?.fuelPrice).toBe(280);
    await t.database.db.execute(sql`update fuel_entries set fuel_price = 281.25 where id = ${fill}`);
    expect((await fuelList())[0]?.fuelPrice).toBe(281.25);
  });

  it('keeps each date range apart', async () => {
    expect(await fuelList(owner.client, '?from=2025-04-01')).toEqual([]);
    expect((await fuelList(owner.client, '?from=2025-03-01')).map((f) => f.id)).toEqual([fill]);
  });

  it("shows the writer's new name after a rename, and none once the writer is deleted", async () => {
    expect((await fuelList())[0]?.createdBy).toBe(owner.user.username);
    const writer = await registered(t.app, 'writer');
    await owner.client.put(`/api/vehicles/${car}/shares/${viewer.user.id}`, { role: 'EDITOR' });
    const byViewer = await viewer.client.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      date: '2025-05-01',
      liters: 20,
      fuelPrice: 150,
      odometer: 51_200,
    });
    expect(byViewer.statusCode).toBe(201);
    expect((await fuelList())[0]?.createdBy).toBe(viewer.user.username);
    await t.database.db.execute(
      sql`update users set username = ${`${viewer.user.username}_new`} where id = ${viewer.user.id}`,
    );
    expect((await fuelList())[0]?.createdBy).toBe(`${viewer.user.username}_new`);
    await t.database.db.execute(
      sql`update fuel_entries set created_by = ${writer.user.id} where id = ${byViewer.data.id}`,
    );
    expect((await fuelList())[0]?.createdBy).toBe(writer.user.username);
    expect((await admin.delete(`/api/admin/users/${writer.user.id}`)).statusCode).toBe(204);
    expect((await fuelList())[0]?.createdBy).toBeNull();
    await owner.client.put(`/api/vehicles/${car}/shares/${viewer.user.id}`, { role: 'VIEWER' });
  });

  it('reaches a viewer while shared, and nobody once the share ends or the car is gone: 404, no data', async () => {
    expect((await fuelList(viewer.client)).length).toBeGreaterThan(0);
    expect((await owner.client.delete(`/api/vehicles/${car}/shares/${viewer.user.id}`)).statusCode).toBe(204);
    const revoked = await viewer.client.get(`/api/fuel-consumptions/vehicle/${car}`);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.body).not.toContain('fuelPrice');
    expect((await owner.client.delete(`/api/vehicles/${car}`)).statusCode).toBe(204);
    expect((await owner.client.get(`/api/fuel-consumptions/vehicle/${car}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/fuel-consumptions/vehicle/${car}`)).statusCode).toBe(404);
  });
});

describe("a vehicle's kept AI aggregates", () => {
  it('follow its records written anywhere, and its own columns at once', async () => {
    const body = {
      make: 'Seat',
      model: 'Ibiza',
      year: 2018,
      fuelType: 'PETROL',
      registrationNumber: 'LC-2',
      engineSize: 1.2,
      odometer: 80_000,
      aiEvaluationConsent: true,
    };
    const seat = (await owner.client.post('/api/vehicles', body)).data;
    const summary = async () => (await owner.client.get(`/ai-feedback/vehicle/${seat.id}/performance`)).body;
    expect(await summary()).toContain('There are no costs recorded for the Seat Ibiza yet.');
    await t.database.db.execute(
      sql`insert into expenses (vehicle_id, expense_type, amount, date) values (${seat.id}, 'PARKING', 120, '2025-06-01')`,
    );
    expect(await summary()).toMatch(/cost €120\.00 in total/);
    const renamed = await owner.client.put(`/api/vehicles/${seat.id}`, {
      ...body,
      model: 'Leon',
      version: seat.version,
    });
    expect(renamed.statusCode).toBe(200);
    expect(await summary()).toMatch(/Seat Leon.*cost €120\.00 in total/s);
    expect((await viewer.client.get(`/ai-feedback/vehicle/${seat.id}/performance`)).statusCode).toBe(404);
  });
});
