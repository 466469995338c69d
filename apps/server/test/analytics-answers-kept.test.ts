import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { AnswersKept } from '../src/modules/analytics/answers-kept.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A vehicle's analytics answer is kept once written and handed out again only while its stamp (the
// context, the vehicle's version and odometer) and the reader's access are unchanged: every read
// after a change must see the change, and a reader who lost the car must not get the kept answer.

let t: TestApp;
let owner: TestClient;
let viewer: TestClient;
let viewerId: number;
let car: number;

const vehicle = {
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: 'AK-1',
  engineSize: 1.0,
  odometer: 60_000,
};
const routes = ['recompute', 'total', 'yearly'] as const;
const read = async (c: TestClient, route: (typeof routes)[number]) =>
  c.get(`/api/analytics/vehicle/${car}/${route}`);

beforeAll(async () => {
  t = await createTestApp();
  owner = (await registered(t.app, 'akowner')).client;
  const v = await registered(t.app, 'akviewer');
  viewer = v.client;
  viewerId = v.user.id;
  car = (await owner.post('/api/vehicles', vehicle)).data.id;
  await owner.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'PETROL',
    liters: 40,
    fuelPrice: 280,
    odometer: 60_500,
    date: '2025-03-02',
    fullTank: true,
  });
  expect(
    (await owner.post(`/api/vehicles/${car}/shares`, { username: v.account.username, role: 'VIEWER' }))
      .statusCode,
  ).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('kept analytics answers', () => {
  it('a record written after a read shows in every answer read after it', async () => {
    for (const route of routes) await read(owner, route); // written and kept
    const before = (await read(owner, 'total')).data;
    expect(before.totalCost).toBe(280);
    const expense = await owner.post('/api/expenses', {
      vehicleId: car,
      date: '2025-03-20',
      expenseType: 'Wash',
      amount: 20,
    });
    expect(expense.statusCode).toBe(201);
    expect((await read(owner, 'total')).data.totalCost).toBe(300);
    expect((await read(owner, 'yearly')).data['2025'].totalExpensesCost).toBe(20);
    const march = (await read(owner, 'recompute')).data.find(
      (m: { monthDate: string }) => m.monthDate === '2025-03-01',
    );
    expect(march.totalCost).toBe(300);
    // The viewer reads the same change (its own kept answers were never written before it).
    expect((await read(viewer, 'total')).data.totalCost).toBe(300);
    await owner.delete(`/api/expenses/${expense.data.id}`);
    expect((await read(owner, 'total')).data.totalCost).toBe(280);
    expect((await read(viewer, 'total')).data.totalCost).toBe(280);
  });

  it("the car's odometer raised after a read counts in the km driven read after it", async () => {
    // One fill-up at 60,500 km, the car's own reading the same: nothing driven yet.
    expect((await read(owner, 'total')).data.totalKm).toBe(0);
    const v = (await owner.get(`/api/vehicles/${car}`)).data;
    const put = await owner.put(`/api/vehicles/${car}`, { ...vehicle, odometer: 61_000, version: v.version });
    expect(put.statusCode).toBe(200);
    expect((await read(owner, 'total')).data.totalKm).toBe(500);
  });

  it('a viewer whose share is taken away after reading gets 404 and no figures, not the kept answer', async () => {
    for (const route of routes) expect((await read(viewer, route)).statusCode).toBe(200);
    expect((await owner.delete(`/api/vehicles/${car}/shares/${viewerId}`)).statusCode).toBe(204);
    for (const route of routes) {
      const res = await read(viewer, route);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('totalCost');
    }
    // The owner still reads it, from the kept answer or not.
    expect((await read(owner, 'total')).data.totalCost).toBe(280);
  });
});

describe("kept answers of a user's analytics", () => {
  type Row = { vehicleId: number; ownerUsername: string; totalCost: number; currency: string };
  const rows = async (c: TestClient, query = '') =>
    (await c.get(`/api/analytics/user${query}`)).data as Row[];
  const costOf = (list: Row[]) =>
    list.filter((r) => r.vehicleId === car).reduce((sum, r) => sum + r.totalCost, 0);

  it('a record written, a share given or taken and an owner renamed after a read all show in the next read', async () => {
    let seen = await rows(owner);
    const cost = costOf(seen);
    await owner.post('/api/expenses', {
      vehicleId: car,
      date: '2025-04-02',
      expenseType: 'Wash',
      amount: 15,
    });
    expect(costOf(await rows(owner))).toBe(cost + 15);
    // The viewer lost the car in the test above: its rows hold none of it; shared again, they do.
    expect(costOf(await rows(viewer))).toBe(0);
    const v = (await viewer.get('/api/users/me')).data;
    expect(
      (await owner.post(`/api/vehicles/${car}/shares`, { username: v.username, role: 'VIEWER' })).statusCode,
    ).toBe(201);
    seen = await rows(viewer);
    expect(costOf(seen)).toBe(cost + 15);
    const me = (await owner.get('/api/users/me')).data;
    const renamed = `${me.username}x`;
    expect((await owner.put('/api/users/me', { username: renamed, email: me.email })).statusCode).toBe(200);
    expect((await rows(viewer)).find((r) => r.vehicleId === car)?.ownerUsername).toBe(renamed);
    // Only own vehicles: the viewer owns none.
    expect(await rows(viewer, '?own=true')).toEqual([]);
  });

  it("an owner renamed shows in their own kept rows, though the car's records were written by another", async () => {
    // Records written by the owner change with a rename anyway (their writer's name is shown): here
    // only the editor wrote, so only the owner's own name in the stamp can tell.
    const { client: fleetOwner } = await registered(t.app, 'akfleet');
    const theirCar = (await fleetOwner.post('/api/vehicles', { ...vehicle, registrationNumber: 'AK-2' })).data
      .id;
    const v = (await viewer.get('/api/users/me')).data;
    await fleetOwner.post(`/api/vehicles/${theirCar}/shares`, { username: v.username, role: 'EDITOR' });
    const wrote = await viewer.post('/api/expenses', {
      vehicleId: theirCar,
      date: '2025-05-02',
      expenseType: 'Wash',
      amount: 12,
    });
    expect(wrote.statusCode).toBe(201);
    const ownerName = async () =>
      (await rows(fleetOwner)).find((r) => r.vehicleId === theirCar)?.ownerUsername;
    const me = (await fleetOwner.get('/api/users/me')).data;
    expect(await ownerName()).toBe(me.username);
    const renamed = `${me.username}y`;
    const rename = await fleetOwner.put('/api/users/me', { username: renamed, email: me.email });
    expect(rename.statusCode).toBe(200);
    expect(await ownerName()).toBe(renamed);
  });

  it('a car changing hands takes its records version to its new owner, and each fleet’s next read follows', async () => {
    const seller = await registered(t.app, 'akseller');
    const buyer = await registered(t.app, 'akbuyer');
    const expense = (c: TestClient, vehicleId: number, amount: number) =>
      c.post('/api/expenses', { vehicleId, date: '2025-06-02', expenseType: 'Wash', amount });
    const newCar = async (registrationNumber: string): Promise<number> =>
      (await seller.client.post('/api/vehicles', { ...vehicle, registrationNumber })).data.id;
    const sold = await newCar('AK-3');
    const kept = await newCar('AK-4');
    expect((await expense(seller.client, sold, 40)).statusCode).toBe(201);
    const costs = async (c: TestClient) => {
      const byCar = new Map<number, number>();
      for (const r of await rows(c)) byCar.set(r.vehicleId, (byCar.get(r.vehicleId) ?? 0) + r.totalCost);
      return Object.fromEntries(byCar);
    };
    expect(await costs(seller.client)).toEqual({ [sold]: 40 });
    // A record of the other car, after a read: the seller's next read shows it.
    expect((await expense(seller.client, kept, 7)).statusCode).toBe(201);
    expect(await costs(seller.client)).toEqual({ [sold]: 40, [kept]: 7 });
    expect(await costs(buyer.client)).toEqual({});
    // The car changes hands (as a sale does), written by another process.
    await t.database.db.execute(sql`update vehicles set owner_id = ${buyer.user.id} where id = ${sold}`);
    const [row] = rowsOf<{ ownerId: number }>(
      await t.database.db.execute(
        sql`select owner_id as "ownerId" from vehicle_record_versions where vehicle_id = ${sold}`,
      ),
    );
    expect(row?.ownerId).toBe(buyer.user.id);
    expect(await costs(seller.client)).toEqual({ [kept]: 7 });
    expect(await costs(buyer.client)).toEqual({ [sold]: 40 });
    expect((await expense(buyer.client, sold, 5)).statusCode).toBe(201);
    expect(await costs(buyer.client)).toEqual({ [sold]: 45 });
    expect(await costs(seller.client)).toEqual({ [kept]: 7 });
  });
});

describe('AnswersKept', () => {
  it('drops the least recently read answer once the text passes the budget', () => {
    const kept = new AnswersKept(10);
    kept.set('a', 's1', 'aaaa');
    kept.set('b', 's1', 'bbbb');
    expect(String(kept.get('a')?.json)).toBe('aaaa'); // a read: now the most recent
    kept.set('c', 's1', 'cccc'); // 12 bytes: b goes
    expect(kept.get('b')).toBeUndefined();
    expect(String(kept.get('a')?.json)).toBe('aaaa');
    expect(String(kept.get('c')?.json)).toBe('cccc');
  });

  it('replaces an answer under the same key with its new stamp, and never keeps one over the budget', () => {
    const kept = new AnswersKept(10);
    kept.set('a', 's1', 'aaaa');
    kept.set('a', 's2', 'aaaaaa');
    expect(kept.get('a')).toEqual({ stamp: 's2', json: Buffer.from('aaaaaa') });
    kept.set('b', 's1', 'bbbb'); // 6 + 4: both fit
    expect(kept.get('a')?.stamp).toBe('s2');
    kept.set('big', 's1', 'x'.repeat(11));
    expect(kept.get('big')).toBeUndefined();
    expect(String(kept.get('b')?.json)).toBe('bbbb');
    // The budget counts bytes: 'é' is two of them, so five of them (10 bytes) push 'b' out.
    kept.set('accents', 's1', 'ééééé');
    expect(kept.get('b')).toBeUndefined();
    expect(String(kept.get('accents')?.json)).toBe('ééééé');
  });

  it('writes an answer asked for at once under one stamp once, and again under another stamp', async () => {
    const kept = new AnswersKept(100);
    let writings = 0;
    const write = async () => {
      writings += 1;
      await new Promise((r) => setTimeout(r, 20));
      return { json: `answer ${writings}`, next: null };
    };
    const together = await Promise.all([1, 2, 3].map(() => kept.through('k', 's1', write)));
    expect(together.map((a) => String(a.json))).toEqual(['answer 1', 'answer 1', 'answer 1']);
    // One Buffer for all: sent again, the compression plugin compresses it once.
    expect(together[1]?.json).toBe(together[0]?.json);
    expect(writings).toBe(1);
    expect(String((await kept.through('k', 's1', write)).json)).toBe('answer 1'); // kept
    const [older, newer] = await Promise.all([
      kept.through('k', 's1', write),
      kept.through('k', 's2', write),
    ]);
    expect(String(older.json)).toBe('answer 1');
    expect(String(newer.json)).toBe('answer 2');
    expect(writings).toBe(2);
    // A writing that fails fails its readers, and the next reader writes again.
    const failing = () => Promise.reject(new Error('database gone'));
    await expect(
      Promise.all([kept.through('f', 's1', failing), kept.through('f', 's1', failing)]),
    ).rejects.toThrow('database gone');
    expect(String((await kept.through('f', 's1', write)).json)).toBe('answer 3');
  });
});
