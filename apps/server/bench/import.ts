// `npm run bench:import`: a 20,000-row history (a Fuelio backup in miles and US gallons: 17,000
// fill-ups and 3,000 costs of every kind) imported into one vehicle through the real API
// (app.inject: multipart, parse, duplicates, bulk rules, one transaction), on PGlite and, when it
// answers, PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
// Prints seconds per step against the target (≤ 10 s for the confirm); never fails on time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 20_000);
const TARGET_S = 10;

function fuelioBackup(rows: number): Buffer {
  const fills = Math.round(rows * 0.85);
  const costs = rows - fills;
  const q = (cells: (string | number)[]) => cells.map((c) => `"${c}"`).join(',');
  const day = (i: number) => new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const lines = [
    '"## Vehicle"',
    q(['Name', 'Description', 'DistUnit', 'FuelUnit']),
    q(['Bench', '', 1, 1]),
    '"## Log"',
    q([
      'Data',
      'Odo (mi)',
      'Fuel (us gallons)',
      'Full',
      'Price (optional)',
      'l/100km (optional)',
      'Missed',
      'VolumePrice',
    ]),
  ];
  let odo = 1000;
  for (let i = 0; i < fills; i++) {
    odo += 250 + (i % 7) * 10;
    const gallons = (9 + (i % 5) * 0.5).toFixed(3);
    const full = i % 6 === 3 ? 0 : 1;
    const missed = i % 50 === 49 ? 1 : 0;
    lines.push(q([day(i), odo, gallons, full, (Number(gallons) * 3.459).toFixed(2), 0, missed, '3.459']));
  }
  lines.push('"## CostCategories"', q(['CostTypeID', 'Name']));
  for (const [id, name] of [
    [1, 'Service'],
    [2, 'Registration'],
    [3, 'Parking'],
    [4, 'Insurance'],
    [5, 'Tolls'],
  ])
    lines.push(q([id as number, name as string]));
  lines.push('"## Costs"', q(['CostTitle', 'Date', 'Odo', 'CostTypeID', 'Notes', 'Cost', 'RepeatMonths']));
  for (let i = 0; i < costs; i++) {
    const type = (i % 5) + 1;
    lines.push(
      q([
        `Cost ${i}`,
        day(i * 5),
        1000 + i * 1500,
        type,
        '',
        (20 + (i % 90)).toFixed(2),
        type === 4 ? 12 : 0,
      ]),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

function multipart(bytes: Buffer) {
  const boundary = '----evdrabench';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fuelio.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function run(kind: string, database: Database) {
  await database.migrate();
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-import-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://evdra.bench',
    JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    WEB_DIST: join(dataDir, 'none'),
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        username: `bench${process.pid}`,
        email: `bench${process.pid}@example.com`,
        password: 'correct horse 1',
        gdprConsent: true,
      },
    });
    if (reg.statusCode !== 201) throw new Error(`register: ${reg.statusCode} ${reg.body}`);
    const cookie = reg.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = { cookie, 'x-csrf-token': reg.json().csrfToken as string };
    const car = await app.inject({
      method: 'POST',
      url: '/api/vehicles',
      headers,
      payload: {
        make: 'Bench',
        model: 'Car',
        year: 2010,
        fuelType: 'PETROL',
        registrationNumber: 'B-1',
        engineSize: 1.6,
        odometer: 0,
        aiEvaluationConsent: false,
      },
    });
    const id = car.json().id as number;
    const file = fuelioBackup(ROWS);
    const call = async (step: 'preview' | 'confirm') => {
      const body = multipart(file);
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/import/${step}/${id}`,
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      const s = (performance.now() - t0) / 1000;
      if (res.statusCode !== 200) throw new Error(`${step}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { s, data: res.json() };
    };
    const preview = await call('preview');
    const confirm = await call('confirm');
    const again = await call('confirm');
    const added = Object.values(confirm.data.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    const ok = confirm.s <= TARGET_S ? 'meets' : 'MISSES';
    console.log(
      `${kind.padEnd(9)} ${ROWS} rows (${(file.length / 1e6).toFixed(1)} MB): preview ${preview.s.toFixed(2)} s · ` +
        `confirm ${confirm.s.toFixed(2)} s (${added} records added, ${ok} ≤ ${TARGET_S} s) · ` +
        `same file again ${again.s.toFixed(2)} s (${again.data.duplicates} duplicates, ${Object.values(again.data.counts as Record<string, number>).reduce((a, b) => a + b, 0)} added)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`\nImport of a ${ROWS}-row Fuelio backup into one vehicle, through the API (wall time):`);
const lite = await openPglite();
try {
  await run('pglite', lite);
} finally {
  await lite.close();
}
const admin = new pg.Client({ connectionString: PG_URL });
if (
  await admin.connect().then(
    () => true,
    () => false,
  )
) {
  const name = `evdra_bench_import_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 4);
  try {
    await run('postgres', database);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else console.log('postgres  skipped: no server at BENCH_DATABASE_URL');
process.exit(0);
