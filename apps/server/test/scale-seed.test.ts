// The scale bench's data set (bench/scale, issue 54) at a tiny SCALE, twice: the same rows each
// time, the issue's counts, and the named accounts' shapes. PostgreSQL only (hashint4, bulk SQL).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JS bench module without type declarations
import { seed } from '../bench/scale/seed.mjs';
// @ts-expect-error: a plain-JS bench module without type declarations
import { shape } from '../bench/scale/shape.mjs';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

const runs = process.env.EVDRA_TEST_DB === 'postgres';
const SCALE = 0.0005;
const s = shape(SCALE);

async function seeded(database: TestDatabase) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await seed(client, s, { seed: 54, passwordHash: '$argon2id$not-a-real-hash' });
  return client;
}

describe.runIf(runs)('scale bench seed', () => {
  const databases: TestDatabase[] = [];
  const clients: pg.Client[] = [];
  const first = () => clients[0] as pg.Client;
  const one = async (sql: string) => (await first().query(sql)).rows[0];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const database = await createTestDatabase();
      databases.push(database);
      clients.push(await seeded(database));
    }
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    for (const d of databases) await d.close();
  });

  it('gives the same rows for the same SCALE and seed', async () => {
    const digest = `select md5(string_agg(concat_ws('|', v.id, v.owner_id, v.make, v.model, v.year, v.fuel_type, f.n, f.sum), ',' order by v.id)) d
                      from vehicles v
                      left join (select vehicle_id, count(*) n, sum(fuel_price) sum from fuel_entries group by 1) f on f.vehicle_id = v.id`;
    const [a, b] = await Promise.all(clients.map(async (c) => (await c.query(digest)).rows[0].d));
    expect(a).toBe(b);
  });

  it('has the counts of its SCALE', async () => {
    const counts =
      await one(`select (select count(*) from users)::int users, (select count(*) from vehicles)::int vehicles,
      (select count(*) from fuel_entries)::int fills, (select count(*) from expenses)::int expenses,
      (select count(*) from revisions)::int services, (select count(*) from insurances)::int policies,
      (select count(*) from listings where active)::int listings, (select count(*) from notifications where not read)::int notifications,
      (select count(*) from vehicle_shares)::int shares`);
    expect(counts).toEqual({
      users: s.users,
      vehicles: s.vehicles,
      fills: s.fills,
      expenses: s.expenses,
      services: s.services,
      policies: s.policies,
      listings: s.listings,
      notifications: s.notifications,
      shares: s.shares,
    });
    // Every listing shows its two photos' rows.
    expect(await one('select count(*)::int n from files f join file_blobs b using (id)')).toEqual({
      n: 2 * s.listings,
    });
  });

  it('has the named accounts with their shapes', async () => {
    const accounts = await first().query(
      `select u.username, u.role, count(v.id)::int cars from users u left join vehicles v on v.owner_id = u.id
        where u.username in ('admin_scale', 'fleet_0001', 'driver_000001') group by 1, 2 order by 1`,
    );
    expect(accounts.rows).toEqual([
      { username: 'admin_scale', role: 'ADMIN', cars: 0 },
      { username: 'driver_000001', role: 'USER', cars: 1 },
      { username: 'fleet_0001', role: 'USER', cars: 200 },
    ]);
    expect(
      await one(
        'select max(n)::int n from (select count(*) n from fuel_entries f join vehicles v on v.id = f.vehicle_id join users u on u.id = v.owner_id where u.username = $$fleet_0001$$ group by f.vehicle_id) x',
      ),
    ).toEqual({ n: 5000 });
    const driver =
      await one(`select (max(f.date) - min(f.date))::int days from fuel_entries f join vehicles v on v.id = f.vehicle_id
                                join users u on u.id = v.owner_id where u.username = 'driver_000001'`);
    expect(driver.days).toBeGreaterThan(19 * 365);
  });

  it('gives most drivers one car, and keeps the rollups the triggers would', async () => {
    const owners = await one(
      `select count(*) filter (where n = 1)::float / count(*) one_car from (select count(*) n from vehicles group by owner_id) x`,
    );
    expect(owners.one_car).toBeGreaterThan(0.5);
    const rollup = await one(
      `select (select sum(fuel) from vehicle_month_costs) rolled, (select sum(fuel_price) from fuel_entries) summed`,
    );
    expect(rollup.rolled).toBe(rollup.summed);
    expect(await one('select sum(fuel_entries)::int n from vehicle_history')).toEqual({ n: s.fills });
    // The consumption's sum and count an insert adds to (migration 0042), as the fills say.
    expect(
      await one(`select count(*)::int n from vehicle_history h
                  left join (select vehicle_id, sum(consumption_per_100km) s, count(consumption_per_100km)::int c
                               from fuel_entries group by 1) f on f.vehicle_id = h.vehicle_id
                  where (h.consumption_sum, h.consumption_fills) is distinct from (coalesce(f.s, 0), coalesce(f.c, 0))`),
    ).toEqual({ n: 0 });
    expect(await one('select count(*)::int n from vehicle_record_versions')).toEqual({ n: s.vehicles });
    // The marketplace filters read the listings' search copies: every listing has them, as its car says.
    expect(
      await one(`select count(*)::int n from listings l join vehicles v on v.id = l.vehicle_id
                  where l.search_make = lower(btrim(v.make)) and l.search_year = v.year and l.price_eur is not null`),
    ).toEqual({ n: s.listings });
  });
});
