import { priceRating } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

// Issue 54: the market's list pages by keyset (limit, cursor, X-Next-Cursor, Link), sorts by rating,
// filters by a price band, and each filter is an index lookup; the plain request answers as before.

let t: TestApp;
let seller: TestClient;
let buyer: TestClient;
let other: TestClient;
const today = new Date().toISOString().slice(0, 10);
const RON_PER_EUR = 5;

let plate = 0;
async function listed(
  c: TestClient,
  car: Record<string, unknown>,
  price: number,
  { aiScore = 7 as number | null, currency = 'EUR' } = {},
) {
  const v = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2018,
    fuelType: 'PETROL',
    engineSize: 1.0,
    odometer: 90_000,
    registrationNumber: `PG-${++plate}-MK`,
    ...car,
  });
  expect(v.statusCode).toBe(201);
  await t.database.db.execute(sql`update vehicles set ai_score = ${aiScore} where id = ${v.data.id}`);
  const l = await c.post('/api/marketplace/list', { vehicleId: v.data.id, price, currency });
  expect(l.statusCode).toBe(201);
  return { id: l.data.id as number, vehicleId: v.data.id as number };
}

const ids = async (query: string) => {
  const res = await buyer.get(`/api/marketplace/listings${query}`);
  expect(res.statusCode).toBe(200);
  return (res.data as { id: number }[]).map((l) => l.id);
};

/** Every page of `query` by `limit`, following X-Next-Cursor, and the Link of the first. */
async function allPages(query: string, limit: number) {
  const seen: number[] = [];
  let cursor: string | undefined;
  let firstLink: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const sep = query ? '&' : '?';
    const res = await buyer.get(
      `/api/marketplace/listings${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.data.map((l: { id: number }) => l.id));
    firstLink ??= res.headers.link as string | undefined;
    cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return { seen, pages: pages + 1, firstLink };
  }
  throw new Error('no last page');
}

type Listed = { id: number; vehicleId: number };
let cars: Record<'cheapLogan' | 'fairLogan' | 'dearGolf' | 'unrated' | 'lpgLogan' | 'ronLogan', Listed>;

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: today, rate: RON_PER_EUR, source: 'ECB' },
  ]);
  seller = (await registered(t.app, 'pgseller')).client;
  buyer = (await registered(t.app, 'pgbuyer')).client;
  other = (await registered(t.app, 'pgother')).client;
  // Estimates (spec §9): a 2018 Dacia Logan 1.0 at 90,000 km with score 7 is 9,850 €.
  cars = {
    cheapLogan: await listed(seller, {}, 5000),
    fairLogan: await listed(seller, { year: 2012 }, 9000),
    dearGolf: await listed(seller, { make: 'Volkswagen', model: 'Golf', fuelType: 'DIESEL' }, 30_000),
    unrated: await listed(seller, { make: 'Mercedes-Benz', model: 'C 200' }, 12_000, { aiScore: null }),
    lpgLogan: await listed(
      seller,
      { model: 'Logan MCV', fuelType: 'PETROL', secondaryFuelType: 'GPL' },
      7000,
    ),
    ronLogan: await listed(seller, { year: 2020 }, 40_000, { currency: 'RON' }), // 8,000 €
  };
}, 300_000); // six cars listed through the API, on a loaded machine
afterAll(() => t.close());

describe('the market list, a page at a time', () => {
  it('the plain request answers every listing newest first, without paging headers', async () => {
    const res = await buyer.get('/api/marketplace/listings');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-next-cursor']).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
    const all = res.data.map((l: { id: number }) => l.id);
    expect(all).toEqual(
      Object.values(cars)
        .map((c) => c.id)
        .sort((a, b) => b - a),
    );
  });

  it('pages by limit and cursor: the same listings once each, in order, with Link rel=next', async () => {
    const whole = await ids('');
    const { seen, pages, firstLink } = await allPages('', 4);
    expect(seen).toEqual(whole);
    expect(pages).toBe(2);
    expect(firstLink).toMatch(/^<\/api\/marketplace\/listings\?limit=4&cursor=\d+>; rel="next"$/);
    // A listing added meanwhile neither repeats nor shifts the next page.
    const first = await buyer.get('/api/marketplace/listings?limit=3');
    const fresh = await listed(other, { make: 'Fiat' }, 4000);
    const second = await buyer.get(
      `/api/marketplace/listings?limit=3&cursor=${first.headers['x-next-cursor']}`,
    );
    expect(second.data.map((l: { id: number }) => l.id)).toEqual(whole.slice(3, 6));
    await other.delete(`/api/marketplace/delete-permanent/${fresh.id}`);
  });

  it('sorts by rating: the lowest price against the estimate first, unrated last; pages the same way', async () => {
    const res = await buyer.get('/api/marketplace/listings?sort=rating');
    const order = res.data.map((l: { id: number }) => l.id);
    const differences = res.data
      .filter((l: { priceRating: { level: number } }) => l.priceRating.level > 0)
      .map((l: { priceRating: { difference: number } }) => l.priceRating.difference);
    expect(differences).toEqual([...differences].sort((a, b) => a - b));
    expect(order.at(-1)).toBe(cars.unrated.id);
    expect(order[0]).toBe(cars.cheapLogan.id);
    const { seen } = await allPages('?sort=rating', 2);
    expect(seen).toEqual(order);
  });

  it('filters: make and model contain the text in any case (spec §5), fuel by name, year by digits, km, price band', async () => {
    const { cheapLogan, fairLogan, dearGolf, unrated, lpgLogan, ronLogan } = cars;
    const newest = (...cs: { id: number }[]) => cs.map((c) => c.id).sort((a, b) => b - a);
    expect(await ids('?make=dac')).toEqual(newest(cheapLogan, fairLogan, lpgLogan, ronLogan));
    expect(await ids('?make=MERCEDES')).toEqual(newest(unrated));
    expect(await ids('?model=logan%20m')).toEqual(newest(lpgLogan));
    expect(await ids('?model=mcv')).toEqual(newest(lpgLogan)); // contains, not starts with
    expect(await ids('?make=ACI')).toEqual(newest(cheapLogan, fairLogan, lpgLogan, ronLogan));
    expect(await ids('?make=%25')).toEqual([]); // a literal %, not a wildcard
    expect(await ids('?make=_acia')).toEqual([]);
    expect(await ids('?fuelType=lpg')).toEqual(newest(lpgLogan)); // the second fuel, by its common name
    expect(await ids('?fuelType=dies')).toEqual(newest(dearGolf));
    expect(await ids('?fuelType=hydrogen')).toEqual([]);
    expect(await ids('?year=201')).toEqual(newest(cheapLogan, fairLogan, dearGolf, unrated, lpgLogan));
    expect(await ids('?year=2020')).toEqual(newest(ronLogan));
    // The band compares euros: 40,000 lei is 8,000 €.
    expect(await ids('?priceMin=7000&priceMax=9000')).toEqual(newest(fairLogan, lpgLogan, ronLogan));
    expect(await ids('?priceMin=35000&priceMax=45000&currency=RON')).toEqual(
      newest(fairLogan, lpgLogan, ronLogan),
    );
    expect(await ids('?priceMax=6000&make=dacia&sort=rating')).toEqual([cheapLogan.id]);
  });

  it('follows the vehicle and the rates: a changed make, km or AI score and a new rate show at once', async () => {
    const { cheapLogan, ronLogan } = cars;
    await t.database.db.execute(
      sql`update vehicles set make = 'Renault', odometer = 20000 where id = ${cheapLogan.vehicleId}`,
    );
    expect(await ids('?make=renault')).toEqual([cheapLogan.id]);
    expect(await ids('?maxOdometer=20000')).toEqual([cheapLogan.id]);
    await new FxRepo(t.database.db).upsert([{ currency: 'RON', date: today, rate: 4, source: 'ECB' }]);
    expect(await ids('?priceMin=9999&priceMax=10001')).toEqual([ronLogan.id]); // 40,000 lei = 10,000 €
    const [card] = (await buyer.get('/api/marketplace/listings?priceMin=9999&priceMax=10001')).data;
    expect(card.priceRating.difference).toBe(
      priceRating(10_000, {
        make: 'Dacia',
        year: 2020,
        engineSize: 1,
        odometer: 90_000,
        fuelType: 'PETROL',
        aiScore: 7,
      }).difference,
    );
  });

  it('the database’s estimate is the domain’s (spec §9) for every brand, age, engine, km and fuel', async () => {
    const makes = [
      'Porsche',
      ' bmw X',
      'Mercedes-Benz',
      'Audi',
      'Volkswagen',
      'Dacia',
      'Renault',
      'Fiat',
      'Skoda',
    ];
    for (const [i, make] of makes.entries()) {
      const v = {
        make,
        year: 1995 + i * 4,
        engineSize: 1 + i * 0.35,
        odometer: i * 37_123,
        fuelType: i % 3 === 0 ? 'ELECTRIC' : 'DIESEL',
        aiScore: (i * 1.3) % 10,
      } as const;
      const [row] = rowsOf<{ estimate: string }>(
        await t.database.db.execute(
          sql`select evdra_price_estimate(${v.make}, ${v.year}, ${v.engineSize}::numeric(4,2), ${v.odometer},
                                          ${v.fuelType}, ${v.aiScore}::numeric(3,1)) as estimate`,
        ),
      );
      const domain = priceRating(0, {
        ...v,
        engineSize: Math.round(v.engineSize * 100) / 100,
        aiScore: Math.round(v.aiScore * 10) / 10,
      });
      // The domain rounds the estimate to cents; the database's is exact (the sort needs no rounding).
      expect(Math.abs(Number(row?.estimate) - (domain.estimate ?? Number.NaN))).toBeLessThanOrEqual(
        0.005 + 1e-9,
      );
    }
  });

  it('refuses bad parameters with 400 naming the field', async () => {
    expectInvalid(await buyer.get('/api/marketplace/listings?limit=0'), 'limit');
    expectInvalid(await buyer.get('/api/marketplace/listings?limit=201'), 'limit');
    expectInvalid(await buyer.get('/api/marketplace/listings?cursor=abc'), 'cursor');
    expectInvalid(await buyer.get('/api/marketplace/listings?cursor=99999999999'), 'cursor');
    expectInvalid(await buyer.get('/api/marketplace/listings?sort=rating&cursor=12'), 'cursor');
    expectInvalid(await buyer.get('/api/marketplace/listings?cursor=5.5_12'), 'cursor');
    expectInvalid(await buyer.get('/api/marketplace/listings?sort=cheapest'), 'sort');
    expectInvalid(await buyer.get('/api/marketplace/listings?priceMin=-1'), 'priceMin');
    expectInvalid(await buyer.get('/api/marketplace/listings?priceMin=abc'), 'priceMin');
    expectInvalid(await buyer.get('/api/marketplace/listings?priceMin=10&priceMax=5'), 'priceMax');
    expectInvalid(await buyer.get('/api/marketplace/listings?currency=XXX'), 'currency');
    // A currency without a known rate cannot be compared.
    expectInvalid(await buyer.get('/api/marketplace/listings?priceMax=5&currency=MDL'), 'currency');
  });
});

describe('one listing', () => {
  it('an active listing is anyone’s to read; one no longer active only its seller’s (404 for others)', async () => {
    const { id } = await listed(seller, { model: 'Sandero' }, 6000);
    const shown = await buyer.get(`/api/marketplace/listings/${id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.data).toEqual((await buyer.get('/api/marketplace/listings?model=sandero')).data[0]);
    await t.database.db.execute(sql`update listings set active = false where id = ${id}`);
    expectError(await buyer.get(`/api/marketplace/listings/${id}`), 404, 'NOT_FOUND');
    expect(await ids('?model=sandero')).toEqual([]);
    const own = await seller.get(`/api/marketplace/listings/${id}`);
    expect(own.statusCode).toBe(200);
    expect(own.data).toMatchObject({ id, vehicleModel: 'Sandero' });
    expectError(await buyer.get('/api/marketplace/listings/999999'), 404, 'NOT_FOUND');
  });
});
