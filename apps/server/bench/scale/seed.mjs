// Seeds one database with the country-scale set (shape.mjs) in bulk SQL: INSERT … SELECT over
// generate_series, values from hashint4 of the row's number and the seed, so the same SCALE and
// SEED give the same rows. Triggers and foreign-key checks are off while loading
// (session_replication_role = replica); the rollups the triggers keep are then built in one pass each.
import { BIG_CAR_FILLS, DATA_END, DRIVER_CAR, FLEET_SIZE, MODELS } from './shape.mjs';

const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const textArray = (xs) => `array[${xs.map(q).join(',')}]::text[]`;

/** The model list expanded by weight, as three SQL arrays indexed by plan.mi. */
function modelArrays() {
  const makes = [];
  const models = [];
  const fuels = [];
  for (const [make, model, weight, fuel] of MODELS)
    for (let i = 0; i < weight; i++) {
      makes.push(make);
      models.push(model);
      fuels.push(fuel ?? '');
    }
  return { makes: textArray(makes), models: textArray(models), fuels: textArray(fuels), count: makes.length };
}

/** `h(expr)`: a non-negative deterministic hash of an integer expression and the seed. */
const hashOf =
  (seed) =>
  (expr, salt = 0) =>
    `(hashint4((${expr})::int + ${seed * 7 + salt}) & 2147483647)`;

/** The statements, in order, each with a label for the timing log. */
export function seedStatements(s, { seed, passwordHash }) {
  const h = hashOf(seed);
  const m = modelArrays();
  const D = s.driverCar;
  const end = `date ${q(DATA_END)}`;
  // Records of a kind spread over the ordinary cars by weight (their age in years), exactly `total`
  // in all: each car gets floor(total·cum/W) − floor(total·(cum−w)/W).
  const share = (total, weight) =>
    `(floor(${total}::numeric * sum(${weight}) over (order by id) / sum(${weight}) over ())
      - floor(${total}::numeric * (sum(${weight}) over (order by id) - ${weight}) / sum(${weight}) over ()))::int`;
  const ordinary = (special) => `case when ${special} then 0 else years end`;
  const fillsLeft = s.fills - BIG_CAR_FILLS - DRIVER_CAR.fills;
  const left = (k) => s[k] - DRIVER_CAR[k];
  const listingStride = Math.floor((s.vehicles - D) / s.listings);
  const users = `
    insert into users (id, username, email, password_hash, role, status, gdpr_consent)
    select g, name, name || '@scale.test', ${q(passwordHash)}, case when g = 1 then 'ADMIN' else 'USER' end, 'Active', true
      from (select g, case when g = 1 then 'admin_scale'
                           when g = 2 then 'fleet_0001'
                           when g = 3 then 'driver_000001'
                           when g < ${s.firstDriver} then 'fleet_' || lpad((g - 2)::text, 4, '0')
                           else 'user_' || lpad(g::text, 6, '0') end as name
              from generate_series(1, ${s.users}) g) u`;
  const plan = `
    create temp table plan as
    with base as (
      select g as id,
             case when g <= ${FLEET_SIZE * s.fleets} then case when g <= ${FLEET_SIZE} then 2 else 3 + (g - 1) / ${FLEET_SIZE} end
                  when g = ${D} then 3
                  else ${s.firstDriver} + (g - ${D} - 1) % ${s.drivers} end as owner_id,
             ${h('g')} as h
        from generate_series(1, ${s.vehicles}) g
    ), aged as (
      select b.*, 1 + h % ${m.count} as mi,
             case when id in (1, ${D}) then ${DRIVER_CAR.years} else 1 + (h >> 8) % 20 end as years
        from base b
    ), counted as (
      select a.*,
             case when id = 1 then ${BIG_CAR_FILLS} when id = ${D} then ${DRIVER_CAR.fills}
                  else ${share(fillsLeft, ordinary(`id in (1, ${D})`))} end as nf,
             case when id = ${D} then ${DRIVER_CAR.expenses} else ${share(left('expenses'), ordinary(`id = ${D}`))} end as ne,
             case when id = ${D} then ${DRIVER_CAR.services} else ${share(left('services'), ordinary(`id = ${D}`))} end as ns,
             case when id = ${D} then ${DRIVER_CAR.policies} else ${share(left('policies'), ordinary(`id = ${D}`))} end as np
        from aged a
    )
    select c.*,
           coalesce(nullif((${m.fuels})[mi], ''), case when (h >> 12) % 100 < 55 then 'DIESEL' else 'PETROL' end) as fuel,
           -- 8 petrol cars in 100 also run on LPG (fitted at the factory or later): two fuels.
           case when (${m.fuels})[mi] = '' and (h >> 12) % 100 >= 92 then 'GPL' end as second,
           ${end} - years * 365 as start_date, years * 365 as span,
           round(4000 / (4.5 + (h % 50) / 10.0))::int as step,
           sum(nf) over w - nf as f0, sum(ne) over w - ne as e0, sum(ns) over w - ns as s0, sum(np) over w - np as p0
      from counted c window w as (order by id)`;
  const vehicles = `
    insert into vehicles (id, owner_id, make, model, year, fuel_type, secondary_fuel_type, registration_number, engine_size, odometer,
                          ai_evaluation_consent)
    select id, owner_id, (${m.makes})[mi], (${m.models})[mi], greatest(1995, 2026 - years - (h >> 3) % 4), fuel, second,
           'SC-' || id, case when fuel = 'ELECTRIC' then 0 else 1 + ((h >> 5) % 16) / 10.0 end, 10000 + nf * step,
           -- The named accounts' cars consent to AI evaluation: the AI summaries' routes answer for them.
           id in (1, ${D}) or (h >> 9) % 3 = 0
      from plan order by id`;
  const fills = `
    insert into fuel_entries (id, vehicle_id, fuel_type, liters, fuel_price, price_per_liter, odometer, date, full_tank,
                              distance_on_this_fuel, consumption_per_100km, created_by, created_at)
    select p.f0 + k + 1, p.id, case when p.second is not null and k % 2 = 1 then p.second else p.fuel end, x.lit, round(x.lit * x.ppl, 2), x.ppl, 10000 + k * p.step,
           p.start_date + (k::bigint * p.span / p.nf)::int, true,
           case when k > 0 then p.step end, case when k > 0 then round(x.lit * 100 / p.step, 2) end,
           p.owner_id, (p.start_date + (k::bigint * p.span / p.nf)::int)::timestamptz
      from plan p cross join lateral generate_series(0, p.nf - 1) k
      cross join lateral (select (25 + (p.h + k * 7) % 30)::numeric as lit, round(1.2 + ((p.h + k * 31) % 60) / 100.0, 4) as ppl) x
     order by p.id, k`;
  const expenses = `
    insert into expenses (id, vehicle_id, date, expense_type, amount, description, created_by, created_at)
    select p.e0 + k + 1, p.id, p.start_date + (k::bigint * p.span / p.ne)::int,
           (array['Parking','Wash','Tolls','Repair','Tyres','Maintenance'])[1 + (p.h + k) % 6],
           10 + (p.h + k * 13) % 300, 'Scale bench', p.owner_id, (p.start_date + (k::bigint * p.span / p.ne)::int)::timestamptz
      from plan p cross join lateral generate_series(0, p.ne - 1) k
     order by p.id, k`;
  // Every car's last service is older than a year here (records spread evenly over its years), so
  // with reminders on for all, every car would be due at once: on for 1 car in 20 (≈30,000 at
  // SCALE=1, the issue's night of due items) and for driver_000001's.
  const remindsOn = `(p.id = ${D} or (p.h >> 16) % 20 = 0)`;
  const services = `
    insert into revisions (id, vehicle_id, date, km, price, description, reminder_enabled, created_by, created_at)
    select p.s0 + k + 1, p.id, p.start_date + (k::bigint * p.span / p.ns)::int, 10000 + (k::bigint * p.nf / p.ns)::int * p.step,
           150 + (p.h + k * 17) % 600, 'Oil and filters', ${remindsOn}, p.owner_id,
           (p.start_date + (k::bigint * p.span / p.ns)::int)::timestamptz
      from plan p cross join lateral generate_series(0, p.ns - 1) k
     order by p.id, k`;
  const policies = `
    insert into insurances (id, vehicle_id, provider, policy_number, coverage_type, start_date, end_date, price, created_by, created_at)
    select p.p0 + k + 1, p.id, (array['Allianz-Tiriac','Groupama','Omniasig','Generali','Asirom'])[1 + (p.h + k) % 5],
           'P-' || p.id || '-' || k, case when (p.h + k) % 4 = 0 then 'CASCO' else 'RCA' end,
           p.start_date + (k::bigint * p.span / p.np)::int, p.start_date + (k::bigint * p.span / p.np)::int + 364,
           200 + (p.h + k * 19) % 400, p.owner_id, (p.start_date + (k::bigint * p.span / p.np)::int)::timestamptz
      from plan p cross join lateral generate_series(0, p.np - 1) k
     order by p.id, k`;
  const listedAt = `(${end} - i % 90)::timestamptz`;
  const listings = `
    insert into listings (id, vehicle_id, seller_id, price, description, photo_ids, active, created_at, updated_at)
    select i, p.id, p.owner_id, 1500 + (p.h >> 4) % 25000, 'Well kept, full service book.',
           array['scale-' || i || '-a', 'scale-' || i || '-b'], true, ${listedAt}, ${listedAt}
      from generate_series(1, ${s.listings}) i join plan p on p.id = ${D} + 1 + (i - 1) * ${listingStride}`;
  // A tiny JPEG (start, JFIF header, end): the rows are what the scale is about, not the bytes.
  const jpeg = `'\\xffd8ffe000104a46494600010100000100010000ffd9'::bytea`;
  const photoIds = `select 'scale-' || i || '-' || x as id, (${end} - i % 90)::timestamptz as at
                      from generate_series(1, ${s.listings}) i cross join unnest(array['a','b']) x`;
  const files = `insert into files (id, content_type, size, created_at) select id, 'image/jpeg', 22, at from (${photoIds}) f`;
  const blobs = `insert into file_blobs (id, bytes, created_at) select id, ${jpeg}, at from (${photoIds}) f`;
  const notifications = `
    insert into notifications (id, user_id, type, title, content, read, created_at)
    select g, case when g <= 30 then 3 when g <= 130 then 2 else 1 + ${h('g', 3)} % ${s.users} end,
           (array['REVISION_REMINDER','INSURANCE_REMINDER','MARKET_MESSAGE'])[1 + g % 3],
           'Reminder', 'Your car needs attention soon.', false, ${end}::timestamptz - (g % 365) * interval '1 day'
      from generate_series(1, ${s.notifications}) g`;
  // driver_000001 sees two shared cars; the others go to the next driver along.
  const shares = `
    insert into vehicle_shares (vehicle_id, user_id, role)
    select p.id, case when i <= 2 then 3 when p.owner_id >= ${s.users} then ${s.firstDriver} else p.owner_id + 1 end,
           case when i % 3 = 0 then 'EDITOR' else 'VIEWER' end
      from generate_series(1, ${s.shares}) i join plan p on p.id = ${D} + i`;
  // driver_000001 is the buyer of the first five conversations; the others, drivers after the seller.
  const interests = `
    insert into interests (id, listing_id, seller_id, buyer_id, created_at, updated_at)
    select j, l.id, l.seller_id,
           case when j <= 5 then 3
                else ${s.firstDriver} + (l.seller_id - ${s.firstDriver} + 1 + (j - 1) / ${s.listings}) % ${s.drivers} end,
           ${end}::timestamptz - (j % 60) * interval '1 day', ${end}::timestamptz - (j % 60) * interval '1 day'
      from generate_series(1, ${s.interests}) j join listings l on l.id = (j - 1) % ${s.listings} + 1`;
  const messages = `
    insert into market_messages (id, interest_id, sender_id, content, created_at)
    select (i.id - 1) * 6 + k + 1, i.id, case when k % 2 = 0 then i.buyer_id else l.seller_id end,
           case when k % 2 = 0 then 'Is it still available?' else 'Yes, come and see it.' end,
           i.created_at + k * interval '1 hour'
      from interests i join listings l on l.id = i.listing_id cross join generate_series(0, 5) k`;
  // The rollups the record triggers keep, built as migration 0025 and 0011 build them.
  const monthCosts = `
    insert into vehicle_month_costs (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
    select vehicle_id, m, cur, sum(l), sum(f), sum(e), sum(i), sum(r) from (
      select vehicle_id, date_trunc('month', date)::date as m, rate_currency as cur, liters as l,
             evdra_owner_amount(fuel_price, exchange_rate) as f, 0 as e, 0 as i, 0 as r from fuel_entries
      union all select vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, evdra_owner_amount(amount, exchange_rate), 0, 0 from expenses
      union all select vehicle_id, date_trunc('month', start_date)::date, rate_currency, 0, 0, 0, evdra_owner_amount(price, exchange_rate), 0 from insurances
      union all select vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, 0, 0, evdra_owner_amount(price, exchange_rate) from revisions
    ) x group by vehicle_id, m, cur`;
  // Every car's months added up (migration 0036), as its trigger keeps them from the rollup above.
  const globalMonthCosts = `
    insert into global_month_costs (month, currency, bucket, liters, fuel, expenses, insurance, revisions)
    select month, currency, vehicle_id % 16, sum(liters), sum(fuel), sum(expenses), sum(insurance), sum(revisions)
      from vehicle_month_costs group by 1, 2, 3`;
  const history = `
    insert into vehicle_history (vehicle_id, services, last_service_date, last_service_km, records_since, fuel_entries, consumption,
                                 consumption_sum, consumption_fills)
    select p.id, coalesce(r.n, 0), ls.date, ls.km, least(r.since, f.since, e.since, i.since), coalesce(f.n, 0), f.c,
           coalesce(f.s, 0), coalesce(f.cn, 0)
      from plan p
      left join (select vehicle_id, count(*) n, min(date) since from revisions group by 1) r on r.vehicle_id = p.id
      left join (select distinct on (vehicle_id) vehicle_id, date, km from revisions order by vehicle_id, date desc, id desc) ls
             on ls.vehicle_id = p.id
      left join (select vehicle_id, count(*) n, min(date) since, round(avg(consumption_per_100km), 2) c,
                        sum(consumption_per_100km) s, count(consumption_per_100km) cn from fuel_entries group by 1) f
             on f.vehicle_id = p.id
      left join (select vehicle_id, min(date) since from expenses group by 1) e on e.vehicle_id = p.id
      left join (select vehicle_id, min(start_date) since from insurances group by 1) i on i.vehicle_id = p.id`;
  // Each car's records version, as the record triggers (migration 0020) leave it once it was written.
  const versions = `insert into vehicle_record_versions (vehicle_id, owner_id, version) select id, owner_id, nextval('record_version_seq') from plan order by id`;
  const sequences = [
    'users',
    'vehicles',
    'fuel_entries',
    'expenses',
    'revisions',
    'insurances',
    'listings',
    'notifications',
    'interests',
    'market_messages',
  ]
    .map(
      (t) =>
        `select setval(pg_get_serial_sequence('${t}', 'id'), (select coalesce(max(id), 0) + 1 from ${t}), false)`,
    )
    .join(' union all ');
  return [
    ['users', users],
    ['plan', plan],
    ['vehicles', vehicles],
    ['fuel_entries', fills],
    ['expenses', expenses],
    ['revisions', services],
    ['insurances', policies],
    ['listings', listings],
    ['files', files],
    ['file_blobs', blobs],
    ['notifications', notifications],
    ['vehicle_shares', shares],
    ['interests', interests],
    ['market_messages', messages],
    ['vehicle_month_costs', monthCosts],
    ['global_month_costs', globalMonthCosts],
    ['vehicle_history', history],
    ['vehicle_record_versions', versions],
    ['sequences', sequences],
  ];
}

/** Runs the statements on `client` (a pg.Client on the target database), then ANALYZE. */
export async function seed(client, s, options, log = () => {}) {
  await client.query("set session_replication_role = 'replica'");
  await client.query("set work_mem = '256MB'");
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query('set synchronous_commit = off');
  for (const [label, sql] of seedStatements(s, options)) {
    const t = performance.now();
    const r = await client.query(sql);
    log(label, r.rowCount, performance.now() - t);
  }
  await client.query("set session_replication_role = 'origin'");
  // The listings' search copies (migration 0034) are kept by a trigger the replica role skipped: one
  // rewrite of every listing fills them, as the migration does for existing ones.
  const tl = performance.now();
  const listings = await client.query('update listings set vehicle_id = vehicle_id');
  log('listing search copies', listings.rowCount, performance.now() - tl);
  // Vacuumed as autovacuum keeps a live database's tables (not only analysed): the visibility map
  // it sets lets the index-only scans of the keyset pages skip the table's pages.
  const t = performance.now();
  await client.query('vacuum (analyze)');
  log('vacuum, analyze', 0, performance.now() - t);
}
