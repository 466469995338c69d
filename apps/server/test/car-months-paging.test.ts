import { CAR_MONTHS_CAP } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { allPages } from './helpers/paging.js';

// Issue 54: the per-car rows, a row per car and month, of the admin (/api/analytics/admin/filter) and
// of a user's cars (/api/analytics/user: a fleet's 200 cars over 20 years are 8,000) page by keyset in
// their order, newest month first then by vehicle (limit, cursor, X-Next-Cursor, Link rel=next, the
// bare array). Without `limit` each route answers as before, up to CAR_MONTHS_CAP car-months, and
// then says where the rest starts.

let t: TestApp;
let admin: TestClient;
let ana: TestClient;
let anaName: string;
let ben: TestClient;

type Row = { vehicleId: number; monthDate: string; totalCost: number; byFuel: unknown[] };
const keyOf = (r: Row) => `${r.monthDate}|${r.vehicleId}`;

let plate = 0;
async function car(c: TestClient, extra: Record<string, unknown> = {}) {
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    engineSize: 1.0,
    odometer: 50_000,
    registrationNumber: `AP-${++plate}-RW`,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
}

async function expense(c: TestClient, vehicleId: number, date: string, amount: number) {
  const res = await c.post('/api/expenses', { vehicleId, date, expenseType: 'Parking', amount });
  expect(res.statusCode, res.body).toBe(201);
}

/**
 * One more car-month than the cap for `vehicleId`, centuries back, each costing 1, written in bulk by
 * SQL; then, as a record's write does, the kept answers are told to see them.
 */
async function bulkMonths(vehicleId: number) {
  await t.database.db.execute(sql`
    insert into vehicle_month_costs (vehicle_id, month, currency, expenses)
    select ${vehicleId}, (date '1000-01-01' + n * interval '1 month')::date, 'EUR', 1
    from generate_series(0, ${CAR_MONTHS_CAP}) n`);
  await t.database.db.execute(sql`select evdra_bump_analytics(array[${vehicleId}]::int[])`);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'aprowsadmin')).client; // the first account is the admin
  const anaAccount = await registered(t.app, 'aprowsana');
  ana = anaAccount.client;
  anaName = anaAccount.user.username;
  ben = (await registered(t.app, 'aprowsben')).client;
  // Five cars over four months: months with one car, with several, and a car with two fuels.
  const cars = [await car(ana), await car(ana), await car(ben), await car(ben)];
  const twoFuels = await car(ana, { secondaryFuelType: 'GPL' });
  for (const [i, v] of cars.entries()) {
    await expense(i < 2 ? ana : ben, v, '2025-03-10', 10 + i);
    if (i % 2 === 0) await expense(i < 2 ? ana : ben, v, '2025-02-10', 20 + i);
  }
  await expense(ben, cars[3] as number, '2025-01-05', 33);
  await expense(ana, cars[0] as number, '2024-12-24', 44);
  for (const [fuelType, liters, date] of [
    ['PETROL', 40, '2025-03-01'],
    ['GPL', 50, '2025-03-08'],
  ] as const) {
    const fill = await ana.post('/api/fuel-consumptions', {
      vehicleId: twoFuels,
      fuelType,
      liters,
      fuelPrice: liters * 1.5,
      odometer: 50_000 + liters * 10,
      date,
      fullTank: true,
    });
    expect(fill.statusCode, fill.body).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/analytics/admin/filter pages', () => {
  it('gives, page by page, every row of the plain answer once and in its order', async () => {
    const whole = await admin.get('/api/analytics/admin/filter');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    const rows = whole.data as Row[];
    // March of the four cars and the two-fuel one, February of two, Ben's January, Ana's December.
    expect(rows).toHaveLength(9);
    expect(rows.map((r) => r.monthDate)).toEqual([...rows.map((r) => r.monthDate)].sort().reverse());
    for (const limit of [1, 3, 4, 1000]) {
      const paged = await allPages<Row>(admin, '/api/analytics/admin/filter', limit);
      expect(paged.items, `limit ${limit}`).toEqual(rows);
      expect(paged.pages).toBe(Math.ceil(rows.length / limit) || 1);
    }
    // The two-fuel car's split comes with its page.
    const march = await allPages<Row>(admin, '/api/analytics/admin/filter?start=2025-03&end=2025-03', 2);
    const split = march.items.find((r) => r.byFuel.length === 2);
    expect(split?.byFuel).toEqual([
      expect.objectContaining({ fuelType: 'PETROL', quantity: 40, cost: 60, fills: 1 }),
      expect.objectContaining({ fuelType: 'GPL', quantity: 50, cost: 75, fills: 1 }),
    ]);
  });

  it('pages within a range of months and in another currency', async () => {
    const plain = await admin.get('/api/analytics/admin/filter?start=2025-01&end=2025-02&currency=EUR');
    const paged = await allPages<Row>(
      admin,
      '/api/analytics/admin/filter?start=2025-01&end=2025-02&currency=EUR',
      1,
    );
    expect(paged.items).toEqual(plain.data);
    expect(paged.items.map((r) => r.monthDate)).toEqual(['2025-02-01', '2025-02-01', '2025-01-01']);
    expect(paged.items.map((r) => r.totalCost)).toEqual([20, 22, 33]);
  });

  it('a cursor from the page before starts right after its last car-month', async () => {
    const first = await admin.get('/api/analytics/admin/filter?limit=2');
    const cursor = first.headers['x-next-cursor'] as string;
    const [m, v] = cursor.split('_');
    const last = first.data.at(-1) as Row;
    expect(`${m}-01|${v}`).toBe(keyOf(last));
    const next = await admin.get(`/api/analytics/admin/filter?limit=2&cursor=${cursor}`);
    const keys = (next.data as Row[]).map(keyOf);
    expect(keys).not.toContain(keyOf(last));
    expect(keys).toHaveLength(2);
  });

  it('refuses a bad limit or cursor with 400 naming it, and a user (403) with no rows', async () => {
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=2025-13_4', 'cursor'],
      ['cursor=2025-03', 'cursor'],
      ['cursor=2025-03_0', 'cursor'],
      ['cursor=2025-03_99999999999', 'cursor'],
    ] as const)
      expectInvalid(await admin.get(`/api/analytics/admin/filter?${q}`), field);
    const denied = await ana.get('/api/analytics/admin/filter?limit=2');
    expectError(denied, 403, 'FORBIDDEN');
    expect(denied.body).not.toContain('monthDate');
    expect(denied.headers['x-next-cursor']).toBeUndefined();
  });

  it(`answers at most ${CAR_MONTHS_CAP} car-months, and then says where the rest starts`, async () => {
    // One more car-month than the cap, for a car of Ben's.
    const old = await car(ben);
    await bulkMonths(old);
    const res = await admin.get('/api/analytics/admin/filter');
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(CAR_MONTHS_CAP);
    const cursor = res.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^\d{4}-\d{2}_\d+$/);
    expect(res.headers.link).toBe(`</api/analytics/admin/filter?cursor=${cursor}>; rel="next"`);
    const rest = await admin.get(`/api/analytics/admin/filter?cursor=${cursor}`);
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    // The nine real rows and the bulk car's months, each once; its oldest month last.
    const all = [...res.data, ...rest.data] as Row[];
    expect(all).toHaveLength(9 + CAR_MONTHS_CAP + 1);
    expect(new Set(all.map(keyOf)).size).toBe(all.length);
    expect(all.at(-1)).toMatchObject({ vehicleId: old, monthDate: '1000-01-01', totalCost: 1 });
  }, 120_000);
});

describe('GET /api/analytics/user pages', () => {
  let shared: number;
  beforeAll(async () => {
    // One of Ben's cars shared with Ana: hers to read, not hers with own=true.
    shared = await car(ben);
    await expense(ben, shared, '2025-02-20', 7);
    const res = await ben.post(`/api/vehicles/${shared}/shares`, { username: anaName, role: 'VIEWER' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("gives, page by page, every row of the caller's plain answer once and in its order", async () => {
    const whole = await ana.get('/api/analytics/user');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    const rows = whole.data as Row[];
    // Ana's March (her two cars and the two-fuel one), February (her first car, Ben's shared one), December.
    expect(rows.map((r) => r.monthDate)).toEqual([
      '2025-03-01',
      '2025-03-01',
      '2025-03-01',
      '2025-02-01',
      '2025-02-01',
      '2024-12-01',
    ]);
    expect(rows.filter((r) => r.vehicleId === shared).map((r) => r.totalCost)).toEqual([7]);
    for (const limit of [1, 2, 4, 1000]) {
      const paged = await allPages<Row>(ana, '/api/analytics/user', limit);
      expect(paged.items, `limit ${limit}`).toEqual(rows);
      expect(paged.pages).toBe(Math.ceil(rows.length / limit));
    }
    const own = await allPages<Row>(ana, '/api/analytics/user?own=true', 2);
    expect(own.items).toEqual(rows.filter((r) => r.vehicleId !== shared));
  });

  it("a cursor shows no one else's cars: Ben's from Ana's page are only his", async () => {
    const first = await ana.get('/api/analytics/user?limit=1');
    const cursor = first.headers['x-next-cursor'] as string;
    const his = await ben.get(`/api/analytics/user?limit=1000&cursor=${cursor}`);
    expect(his.statusCode).toBe(200);
    const anas = new Set(
      ((await ana.get('/api/analytics/user?own=true')).data as Row[]).map((r) => r.vehicleId),
    );
    expect((his.data as Row[]).some((r) => anas.has(r.vehicleId))).toBe(false);
    expect((his.data as Row[]).map((r) => r.totalCost)).toContain(7);
  });

  it(`answers a fleet at most ${CAR_MONTHS_CAP} car-months, and then says where the rest starts`, async () => {
    const fleet = (await registered(t.app, 'aprowsfleet')).client;
    const old = await car(fleet);
    await expense(fleet, old, '2025-03-01', 5);
    await bulkMonths(old);
    const res = await fleet.get('/api/analytics/user');
    expect(res.data).toHaveLength(CAR_MONTHS_CAP);
    expect(res.data[0]).toMatchObject({ monthDate: '2025-03-01', totalCost: 5 });
    const cursor = res.headers['x-next-cursor'] as string;
    expect(res.headers.link).toBe(`</api/analytics/user?cursor=${cursor}>; rel="next"`);
    const rest = await fleet.get(`/api/analytics/user?cursor=${cursor}`);
    expect(rest.data).toHaveLength(2);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    expect(rest.data.at(-1)).toMatchObject({ vehicleId: old, monthDate: '1000-01-01', totalCost: 1 });
  }, 120_000);

  it('refuses a bad limit or cursor with 400 naming it, and a visitor (401)', async () => {
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['cursor=2025-03', 'cursor'],
      ['cursor=2025-03_0', 'cursor'],
    ] as const)
      expectInvalid(await ana.get(`/api/analytics/user?${q}`), field);
    expectError(await new TestClient(t.app).get('/api/analytics/user?limit=2'), 401, 'UNAUTHENTICATED');
  });
});
