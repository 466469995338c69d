// `npm run bench:analytics`: 200 users × 3 vehicles × 5 years (≈500k records), then p50/p95 of the
// vehicle analytics calls and of the admin filter (whole range, one year), over HTTP against the
// built server, on PGlite and on PostgreSQL. Targets on PostgreSQL: vehicle calls p95 ≤ 20 ms,
// admin filter over everything p95 ≤ 500 ms. Figures only; it never fails on timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { fmt, PG_URL, pgAvailable, port, serverMain, startProcess } from './lib.mjs';

const USERS = Number(process.env.USERS ?? 200);
const YEARS = 5;
const PASSWORD = 'bench-password-1';

/** Generates the data set in SQL (fast on both engines). `query` runs one statement. */
async function generate(query) {
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const start = `current_date - interval '${YEARS} years'`;
  await query(
    `insert into users (username, email, password_hash, role, status, gdpr_consent)
     select 'bench' || g, 'bench' || g || '@bench.test', '${passwordHash}', case when g = 1 then 'ADMIN' else 'USER' end, 'Active', true
       from generate_series(1, ${USERS}) g`,
  );
  await query(
    `insert into vehicles (owner_id, make, model, year, fuel_type, registration_number, engine_size, odometer)
     select u.id, (array['Dacia','Skoda','BMW','Ford'])[1 + n % 4], 'Model ' || n, 2010 + n, 'PETROL', 'BEN-' || u.id || '-' || n, 1.4, 200000
       from users u cross join generate_series(1, 3) n`,
  );
  // Every 3 days a fill-up, every 9 days an expense, twice a year a service, once a year a policy.
  await query(
    `insert into fuel_entries (vehicle_id, fuel_type, liters, fuel_price, price_per_liter, odometer, date, full_tank, consumption_per_100km)
     select v.id, 'PETROL', 35 + (d % 10), round((35 + (d % 10)) * 1.5, 2), 1.5, 20000 + d * 40, (${start})::date + d, true, 6.5
       from vehicles v cross join generate_series(0, ${YEARS * 365}, 3) d`,
  );
  await query(
    `insert into expenses (vehicle_id, date, expense_type, amount, description)
     select v.id, (${start})::date + d, (array['Parking','Wash','Tolls','Repair'])[1 + d % 4], 10 + d % 90, 'bench'
       from vehicles v cross join generate_series(1, ${YEARS * 365}, 9) d`,
  );
  await query(
    `insert into revisions (vehicle_id, date, km, price, description)
     select v.id, (${start})::date + d, 20000 + d * 40, 450, 'service'
       from vehicles v cross join generate_series(5, ${YEARS * 365}, 180) d`,
  );
  await query(
    `insert into insurances (vehicle_id, provider, start_date, end_date, price)
     select v.id, 'Allianz', (${start})::date + d, (${start})::date + d + 364, 300
       from vehicles v cross join generate_series(0, ${YEARS * 365 - 1}, 365) d`,
  );
  await query('analyze');
}

async function withServer(env, fn) {
  const p = port();
  const base = `http://127.0.0.1:${p}`;
  const proc = await startProcess(
    serverMain,
    { PORT: String(p), HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MINUTE: '100000', ...env },
    `${base}/api/health`,
  );
  try {
    return await fn(base);
  } finally {
    await proc.stop();
  }
}

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function timed(base, headers, paths) {
  const ms = [];
  for (const path of paths) {
    const t = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), n: ms.length };
}

async function measure(base) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench1', password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login: ${login.status}`);
  const headers = {
    cookie: login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
  const vehicles = USERS * 3;
  const ids = Array.from({ length: 150 }, (_, i) => 1 + ((i * 37) % vehicles));
  const year = new Date().getFullYear() - 1;
  await timed(
    base,
    headers,
    ids.slice(0, 20).map((id) => `/api/analytics/vehicle/${id}/recompute`),
  ); // warm-up
  return {
    monthly: await timed(
      base,
      headers,
      ids.map((id) => `/api/analytics/vehicle/${id}/recompute`),
    ),
    yearly: await timed(
      base,
      headers,
      ids.map((id) => `/api/analytics/vehicle/${id}/yearly`),
    ),
    total: await timed(
      base,
      headers,
      ids.map((id) => `/api/analytics/vehicle/${id}/total`),
    ),
    adminAll: await timed(base, headers, Array(20).fill('/api/analytics/admin/filter')),
    adminYear: await timed(
      base,
      headers,
      Array(20).fill(`/api/analytics/admin/filter?start=${year}-01&end=${year}-12`),
    ),
  };
}

async function countRecords(query) {
  const n = await query(
    'select (select count(*) from fuel_entries) + (select count(*) from expenses) + (select count(*) from revisions) + (select count(*) from insurances) as n',
  );
  return Number(n.rows[0].n);
}

const results = [];

{
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
  try {
    await withServer({ DATA_DIR: dataDir }, async () => {}); // migrate
    const db = await PGlite.create(join(dataDir, 'pglite'));
    const t = performance.now();
    await generate((q) => db.exec(q));
    const records = await countRecords((q) => db.query(q));
    await db.close();
    console.log(`PGlite: generated ${fmt(records)} records in ${fmt((performance.now() - t) / 1000, 1)} s`);
    results.push({ kind: 'pglite', records, ...(await withServer({ DATA_DIR: dataDir }, measure)) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (await pgAvailable()) {
  const name = `evdra_bench_analytics_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
    await withServer(env, async () => {}); // migrate
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const t = performance.now();
    await generate((q) => db.query(q));
    const records = await countRecords((q) => db.query(q));
    await db.end();
    console.log(
      `PostgreSQL: generated ${fmt(records)} records in ${fmt((performance.now() - t) / 1000, 1)} s`,
    );
    results.push({ kind: 'postgres', records, ...(await withServer(env, measure)) });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`\n${USERS} users × 3 vehicles × ${YEARS} years; sequential HTTP calls, ms`);
console.log('database    call                                  p50      p95     n');
const labels = {
  monthly: 'vehicle /recompute (monthly)',
  yearly: 'vehicle /yearly',
  total: 'vehicle /total',
  adminAll: 'admin filter, everything',
  adminYear: 'admin filter, one year',
};
for (const r of results) {
  for (const [key, label] of Object.entries(labels)) {
    const m = r[key];
    console.log(
      `${r.kind.padEnd(11)} ${label.padEnd(36)} ${fmt(m.p50, 1).padStart(7)} ${fmt(m.p95, 1).padStart(8)} ${String(m.n).padStart(5)}`,
    );
  }
}
const pgr = results.find((r) => r.kind === 'postgres');
if (pgr) {
  const vehicleP95 = Math.max(pgr.monthly.p95, pgr.yearly.p95, pgr.total.p95);
  console.log(
    `\nTargets on PostgreSQL: vehicle calls p95 ≤ 20 ms → ${fmt(vehicleP95, 1)} ms (${vehicleP95 <= 20 ? 'met' : 'NOT met'}); ` +
      `admin filter over everything p95 ≤ 500 ms → ${fmt(pgr.adminAll.p95, 1)} ms (${pgr.adminAll.p95 <= 500 ? 'met' : 'NOT met'})`,
  );
}
