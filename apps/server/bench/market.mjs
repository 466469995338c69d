// `npm run bench:market`: 10,000 active listings (2,000 sellers × 5 cars, each with services and
// fill-ups so every card has a history), then p50/p95 of GET /api/marketplace/listings?make=…
// (SQL filter) and of the full list, over HTTP against the built server on PostgreSQL. Nothing is
// cached per route: every call runs the statement and builds the JSON; the "right after a change"
// rows time the first read after a write to a listing, as a user sees it after editing.
// Targets: filtered p95 ≤ 30 ms, full list p95 ≤ 300 ms. Figures only; it never fails on timing.
// MARKET_BENCH_DB=<name> reuses a database kept by BENCH_KEEP=1 (no 40 s generation), e.g. to
// compare two builds (SERVER_MAIN=<other dist/main.js>) on the same data in the same conditions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { fmt, PG_URL, pgAvailable, serverMain, startProcess } from './lib.mjs';

const LISTINGS = Number(process.env.LISTINGS ?? 10_000);
const PER_SELLER = 5;
const PASSWORD = 'bench-password-1';
const PORT = Number(process.env.BENCH_PORT ?? 8325);
const MAKES = [
  'Dacia',
  'Skoda',
  'BMW',
  'Ford',
  'Audi',
  'Volkswagen',
  'Renault',
  'Fiat',
  'Toyota',
  'Opel',
  'Peugeot',
  'Kia',
  'Hyundai',
  'Mazda',
  'Volvo',
  'Seat',
  'Honda',
  'Nissan',
  'Porsche',
  'Tesla',
];

async function generate(query) {
  const sellers = Math.ceil(LISTINGS / PER_SELLER);
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  await query(
    `insert into users (username, email, password_hash, role, status, gdpr_consent)
     select 'bench' || g, 'bench' || g || '@bench.test', '${passwordHash}', 'USER', 'Active', true
       from generate_series(1, ${sellers + 1}) g`,
  );
  const makes = `array[${MAKES.map((m) => `'${m}'`).join(',')}]`;
  await query(
    `insert into vehicles (owner_id, make, model, year, fuel_type, registration_number, engine_size, odometer, ai_score)
     select u.id, (${makes})[1 + (u.id * 7 + n) % ${MAKES.length}], 'Model ' || n, 2005 + (u.id + n) % 20,
            (array['PETROL','DIESEL','GPL','ELECTRIC'])[1 + (u.id + n) % 4], 'MKT-' || u.id || '-' || n,
            1 + ((u.id + n) % 20) / 10.0, 20000 + ((u.id * 7919 + n * 104729) % 250000),
            case when (u.id + n) % 5 = 0 then null else (u.id + n) % 10 end
       from users u cross join generate_series(1, ${PER_SELLER}) n
      where u.id > 1`,
  );
  // Two services and six fill-ups per car: the history on each card.
  await query(
    `insert into revisions (vehicle_id, date, km, price, description)
     select v.id, current_date - (d * 200), v.odometer - d * 15000, 400, 'service'
       from vehicles v cross join generate_series(1, 2) d`,
  );
  await query(
    `insert into fuel_entries (vehicle_id, fuel_type, liters, fuel_price, odometer, date, full_tank, consumption_per_100km)
     select v.id, v.fuel_type, 40, 60, v.odometer - d * 600, current_date - d * 20, true, 5 + (v.id % 30) / 10.0
       from vehicles v cross join generate_series(1, 6) d`,
  );
  await query(
    `insert into listings (vehicle_id, seller_id, price, description, created_at)
     select v.id, v.owner_id, 3000 + (v.id * 37 % 20000), 'Bench listing ' || v.id, now() - (v.id || ' seconds')::interval
       from vehicles v order by v.id limit ${LISTINGS}`,
  );
  await query('analyze');
}

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function timed(base, headers, paths, before) {
  const ms = [];
  let rows = 0;
  let bytes = 0;
  for (const path of paths) {
    if (before) await before();
    const t = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const body = await res.text();
    ms.push(performance.now() - t);
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    rows += JSON.parse(body).length;
    bytes += body.length;
  }
  return {
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    n: ms.length,
    rows: rows / ms.length,
    bytes: bytes / ms.length,
  };
}

/** A listing change, then a pause (as a user would leave between saving and reading the list). */
const change = (db) => async () => {
  await db.query(`update listings set updated_at = now() where id = (select min(id) from listings)`);
  await new Promise((r) => setTimeout(r, 100));
};

async function measure(base, db) {
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
  const byMake = Array.from(
    { length: 100 },
    (_, i) => `/api/marketplace/listings?make=${MAKES[i % MAKES.length].toLowerCase()}`,
  );
  await timed(base, headers, byMake.slice(0, 20)); // warm-up
  const filtered = await timed(base, headers, byMake);
  const combined = await timed(
    base,
    headers,
    Array.from(
      { length: 50 },
      (_, i) => `/api/marketplace/listings?make=${MAKES[i % MAKES.length]}&year=201&maxOdometer=150000`,
    ),
  );
  await timed(base, headers, ['/api/marketplace/listings', '/api/marketplace/listings']); // warm-up
  const full = await timed(base, headers, Array(20).fill('/api/marketplace/listings'));
  // The same calls right after a change to a listing.
  const filteredCold = await timed(base, headers, byMake.slice(0, 40), change(db));
  const fullCold = await timed(base, headers, Array(10).fill('/api/marketplace/listings'), change(db));
  return { filtered, combined, full, filteredCold, fullCold };
}

if (!(await pgAvailable())) {
  console.log(`PostgreSQL is not reachable at ${PG_URL}: nothing measured.`);
  process.exit(0);
}
const reuse = process.env.MARKET_BENCH_DB;
const name = reuse ?? `evdra_bench_market_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
if (!reuse) await admin.query(`create database ${name}`);
const url = new URL(PG_URL);
url.pathname = `/${name}`;
const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
try {
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: url.toString(),
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  };
  const base = `http://127.0.0.1:${PORT}`;
  let proc = await startProcess(serverMain, env, `${base}/api/health`); // migrates
  await proc.stop();
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const t = performance.now();
  if (!reuse) await generate((q) => db.query(q));
  const { rows } = await db.query('select count(*)::int as n from listings where active');
  console.log(
    reuse
      ? `PostgreSQL: reusing ${name} (${fmt(rows[0].n)} listings)`
      : `PostgreSQL: generated ${fmt(rows[0].n)} listings in ${fmt((performance.now() - t) / 1000, 1)} s`,
  );
  proc = await startProcess(serverMain, env, `${base}/api/health`);
  try {
    const r = await measure(base, db);
    console.log(`\n${fmt(rows[0].n)} active listings; sequential HTTP calls, ms (shared 2-core machine)`);
    console.log('call                                        p50      p95     n   rows/answer   KB/answer');
    const labels = {
      filtered: 'listings?make=… (target p95 ≤ 30)',
      combined: 'listings?make&year&maxOdometer',
      full: 'listings, all (target p95 ≤ 300)',
      filteredCold: 'listings?make=…, right after a change',
      fullCold: 'listings, all, right after a change',
    };
    for (const [key, label] of Object.entries(labels)) {
      const m = r[key];
      console.log(
        `${label.padEnd(40)} ${fmt(m.p50, 1).padStart(7)} ${fmt(m.p95, 1).padStart(8)} ${String(m.n).padStart(5)} ${fmt(m.rows).padStart(13)} ${fmt(m.bytes / 1024).padStart(11)}`,
      );
    }
  } finally {
    await proc.stop();
    await db.end();
  }
} finally {
  if (process.env.BENCH_KEEP || reuse) console.log(`kept database ${name}`);
  else await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
