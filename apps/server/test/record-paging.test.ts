import { VEHICLE_LIST_CAP } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

// Issue 54: a vehicle's record list pages (?limit, ?cursor; the next cursor in X-Next-Cursor and Link)
// while its plain answer stays what it was: the bare array, whole up to VEHICLE_LIST_CAP records.

let t: TestApp;
let alice: TestClient;
let aliceName: string;
let bob: TestClient;
let car: number;
let bigCar: number;

const vehicle = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'DIESEL',
  registrationNumber: reg,
  engineSize: 1.5,
  odometer: 1_000,
});

type Fill = { id: number; date: string; consumptionPer100km: number | null };

/** Every page of `url` at `limit`, following X-Next-Cursor, with the headers of each. */
async function allPages(client: TestClient, url: string, limit: number) {
  const pages: { rows: Fill[]; next?: string; link?: string }[] = [];
  let cursor: string | undefined;
  do {
    const res = await client.get(`${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode).toBe(200);
    cursor = res.headers['x-next-cursor'] as string | undefined;
    pages.push({ rows: res.data, next: cursor, link: res.headers.link as string | undefined });
  } while (cursor && pages.length < 100);
  return pages;
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await registered(t.app, 'alice');
  alice = a.client;
  aliceName = a.user.username;
  bob = (await registered(t.app, 'bob')).client;
  car = (await alice.post('/api/vehicles', vehicle('P-1'))).data.id;
  bigCar = (await alice.post('/api/vehicles', vehicle('P-2'))).data.id;
  // 23 fills, three a day on some days (the same date: the id breaks the tie), one partial, one missed:
  // consumption runs over chains that cross every page boundary at limit 5.
  for (let i = 0; i < 23; i++) {
    const res = await alice.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'DIESEL',
      date: `2025-0${1 + Math.floor(i / 6)}-${String(10 + Math.floor((i % 6) / 3)).padStart(2, '0')}`,
      liters: 30 + (i % 7),
      fuelPrice: 200 + i,
      odometer: 1_000 + 450 * (i + 1) + (i % 4) * 10,
      fullTank: i % 5 !== 3,
      missedPrevious: i === 11,
    });
    expect(res.statusCode).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/fuel-consumptions/vehicle/{id}, a page at a time', () => {
  it('pages through every fill once, in the plain order, each with the consumption of the whole chain', async () => {
    const plain = await alice.get(`/api/fuel-consumptions/vehicle/${car}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['x-next-cursor']).toBeUndefined();
    expect(plain.headers.link).toBeUndefined();
    const whole = plain.data as Fill[];
    expect(whole).toHaveLength(23);
    expect(whole.filter((f) => f.consumptionPer100km !== null).length).toBeGreaterThan(10);

    const pages = await allPages(alice, `/api/fuel-consumptions/vehicle/${car}`, 5);
    expect(pages.map((p) => p.rows.length)).toEqual([5, 5, 5, 5, 3]);
    // No duplicate, no gap, same order, same figures (consumption included) as the unpaged answer.
    expect(pages.flatMap((p) => p.rows)).toEqual(whole);
    // Each page but the last says where the next starts: its last fill, in the header and the Link URL.
    for (const p of pages.slice(0, -1)) {
      const last = p.rows.at(-1) as Fill;
      expect(p.next).toBe(`${last.date}_${last.id}`);
      expect(p.link).toBe(`</api/fuel-consumptions/vehicle/${car}?limit=5&cursor=${p.next}>; rel="next"`);
    }
    expect(pages.at(-1)?.next).toBeUndefined();
  });

  it('a page that ends the list exactly has no next page', async () => {
    const pages = await allPages(alice, `/api/fuel-consumptions/vehicle/${car}`, 23);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.next).toBeUndefined();
  });

  it('keeps the date filter across pages, and a write between pages neither repeats nor skips a fill', async () => {
    const url = `/api/fuel-consumptions/vehicle/${car}`;
    const filtered = (await alice.get(`${url}?from=2025-02-01&to=2025-03-31`)).data as Fill[];
    const first = await alice.get(`${url}?from=2025-02-01&to=2025-03-31&limit=4`);
    expect(first.data).toEqual(filtered.slice(0, 4));
    const next = first.headers['x-next-cursor'] as string;
    expect(first.headers.link).toBe(
      `<${url}?from=2025-02-01&to=2025-03-31&limit=4&cursor=${next}>; rel="next"`,
    );
    // A newer fill arrives meanwhile: it sorts before the cursor, so the next page is unchanged.
    const added = await alice.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'DIESEL',
      date: '2025-03-31',
      liters: 20,
      fuelPrice: 150,
      odometer: 9_300, // between March's last fill and April's first
    });
    expect(added.statusCode).toBe(201);
    const second = await alice.get(`${url}?from=2025-02-01&to=2025-03-31&limit=4&cursor=${next}`);
    expect(second.data).toEqual(filtered.slice(4, 8));
    expect((await alice.delete(`/api/fuel-consumptions/${added.data.id}`)).statusCode).toBe(204);
  });

  it('refuses a bad limit or cursor with 400 and the shared error shape', async () => {
    const url = `/api/fuel-consumptions/vehicle/${car}`;
    for (const limit of ['0', '501', 'ten', '2.5'])
      expectInvalid(await alice.get(`${url}?limit=${limit}`), 'limit');
    for (const cursor of ['nope', '2025-13-45_1', '2025-01-10_99999999999', '2025-01-10', '2025-01-10_-1'])
      expectInvalid(await alice.get(`${url}?cursor=${cursor}`), 'cursor');
    // The all-vehicles list shares the cursor's rule: a date that is no day is a 400, not a 500.
    expectInvalid(await alice.get('/api/fuel-consumptions?cursor=2025-02-30_1'), 'cursor');
  });

  it('answers a stranger 404 with no data on a paged request, as on the plain one', async () => {
    for (const q of ['', '?limit=5', '?limit=5&cursor=2025-02-10_9']) {
      const res = await bob.get(`/api/fuel-consumptions/vehicle/${car}${q}`);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.headers['x-next-cursor']).toBeUndefined();
      expect(res.body).not.toContain('consumptionPer100km');
    }
  });
});

describe('the plain list, as before paging', () => {
  it('answers a small car byte for byte as before: the bare array the database writes', async () => {
    const small = (await alice.post('/api/vehicles', vehicle('P-3'))).data.id;
    const e1 = await alice.post('/api/expenses', {
      vehicleId: small,
      date: '2025-01-15',
      expenseType: 'Repair',
      amount: 12.3,
      description: 'Wipers',
    });
    const e2 = await alice.post('/api/expenses', {
      vehicleId: small,
      date: '2025-02-15',
      expenseType: 'Parking',
      amount: 4,
      description: '',
    });
    const res = await alice.get(`/api/expenses/vehicle/${small}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-next-cursor']).toBeUndefined();
    // What this route answered before paging (run on the commit before it): json_agg of the schema's
    // fields, newest first, numerics as the database writes them.
    const row = (id: number, date: string, type: string, amount: string, description: string) =>
      `{"date":"${date}","expenseType":"${type}","amount":${amount},"description":"${description}",` +
      `"currency":"EUR","exchangeRate":1.000000000000,"rateDate":"${date}","rateSource":"ECB",` +
      `"id":${id},"vehicleId":${small},"version":0,"createdBy":"${aliceName}"}`;
    expect(res.body).toBe(
      `[${row(e2.data.id, '2025-02-15', 'Parking', '4.00', '')}, \n ${row(e1.data.id, '2025-01-15', 'Repair', '12.30', 'Wipers')}]`,
    );
  });

  it(`answers at most ${VEHICLE_LIST_CAP} records, and then says where the rest starts`, async () => {
    // Written in bulk by SQL: the cap is about how many rows, not how they came.
    await t.database.db.execute(sql`
      insert into expenses (vehicle_id, date, expense_type, amount)
      select ${bigCar}, date '2000-01-01' + (n / 3), 'Parking', 1 from generate_series(0, ${VEHICLE_LIST_CAP}) n`);
    const res = await alice.get(`/api/expenses/vehicle/${bigCar}`);
    expect(res.statusCode).toBe(200);
    const rows = res.data as { id: number; date: string }[];
    expect(rows).toHaveLength(VEHICLE_LIST_CAP);
    const last = rows.at(-1) as { id: number; date: string };
    expect(res.headers['x-next-cursor']).toBe(`${last.date}_${last.id}`);
    expect(res.headers.link).toBe(
      `</api/expenses/vehicle/${bigCar}?cursor=${last.date}_${last.id}>; rel="next"`,
    );
    const rest = await alice.get(`/api/expenses/vehicle/${bigCar}?cursor=${res.headers['x-next-cursor']}`);
    expect(rest.data).toHaveLength(1);
    expect(rest.data[0].date).toBe('2000-01-01');
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    expect(new Set([...rows, ...rest.data].map((r) => r.id)).size).toBe(VEHICLE_LIST_CAP + 1);
  });
});
