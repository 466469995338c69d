// `npm run bench:scale:reminders` (issue 54): the reminder job on a night with ≈30,000 due items,
// and the read routes' p95 while it runs against without it.
// The database evdra_scale_reminders is the scale set at SCALE (0.05: 30,000 cars) with every car's
// service reminder on (every car's last service there is over a year old: every car is due, plus a
// reminder per grantee of a shared car): at SCALE=0.05, 32,500 reminders, a full-scale night's
// ≈30,000. Seeded once; REUSE=1 measures the kept one. Before each run the job's output is removed
// (its notifications, sent_reminders, the push and webhook outboxes).
// At full size: DB=evdra_scale SCALE=1 EVERY=20 REUSE=1 runs it on bench:scale's kept full set, with
// 1 car's reminder in 20 on (30,000 of 600,000 cars).
// Env: DB (evdra_scale_reminders), SCALE (0.05), EVERY (1: every car's reminder on; 20: 1 car in 20, the seed's own), DURATION
// (s of reads without the job, 10), CONNECTIONS (per route, 4), JOB_SRC (the job module to run: another
// checkout's src/jobs/reminders.ts gives the before figure).
// Prints the job's seconds and notifications, and each route's p95 without and during the job;
// writes bench-results/scale-reminders.json.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, port, startProcess } from '../lib.mjs';
import { ACCOUNTS, login, passwordHash } from './accounts.mjs';
import { createDatabase, migrate, urlOf } from './databases.mjs';
import { pgClient, waitIdle } from './measure.mjs';
import { seed } from './seed.mjs';
import { DATA_END, shape } from './shape.mjs';

const NAME = process.env.DB ?? 'evdra_scale_reminders';
const SCALE = Number(process.env.SCALE ?? 0.05);
const EVERY = Number(process.env.EVERY ?? 1);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const JOB_SRC = process.env.JOB_SRC ?? new URL('../../src/jobs/reminders.ts', import.meta.url).pathname;
/** The night the job runs: every seeded car's service is due by then. */
const NIGHT = new Date(`${DATA_END}T03:00:00Z`);
const url = urlOf(NAME);

// The job alone, in a process of its own (so the load's timing shares no event loop with it).
if (process.argv[2] === '--job') {
  const { openPostgres } = await import('../../src/db/client.ts');
  const { runReminderScan } = await import(JOB_SRC);
  const database = await openPostgres(url);
  const started = performance.now();
  const created = await runReminderScan(database.db, NIGHT);
  console.log(JSON.stringify({ created, ms: performance.now() - started }));
  await database.close();
  process.exit(0);
}

/** Removes what a run of the job wrote, so the next finds the same items due. */
async function resetJob(client) {
  await client.query('delete from notifications where created_at = $1', [NIGHT]);
  await client.query('truncate sent_reminders, push_outbox, webhook_deliveries');
}

function runJob() {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--job'], {
    env: { ...process.env, JOB_SRC },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`job exited ${code}`)),
    ),
  );
}

/** Loads each route with CONNECTIONS at once until `until` settles (or `seconds` pass); each route's p95. */
async function readP95(base, routes, { seconds, until }) {
  const runs = routes.map((r) => {
    const times = [];
    const run = autocannon({
      url: `${base}${r.path}`,
      headers: r.headers,
      connections: CONNECTIONS,
      duration: seconds ?? 3600,
    });
    run.on('response', (_c, status, _b, ms) => {
      if (status !== 200) throw new Error(`${r.path}: ${status}`);
      times.push(ms);
    });
    return { name: r.name, run, times, done: new Promise((resolve) => run.on('done', resolve)) };
  });
  if (until)
    await until.finally(() => {
      for (const r of runs) r.run.stop();
    });
  await Promise.all(runs.map((r) => r.done));
  return Object.fromEntries(
    runs.map((r) => {
      const t = r.times.sort((a, b) => a - b);
      return [r.name, { p95: t[Math.min(t.length - 1, Math.floor(0.95 * t.length))] ?? null, n: t.length }];
    }),
  );
}

if (process.env.REUSE !== '1') {
  const s = shape(SCALE);
  await createDatabase(NAME);
  await migrate(url);
  const c = await pgClient(url);
  await seed(c, s, { seed: 54, passwordHash: await passwordHash() }, (label, rows, ms) =>
    console.log(`  ${label}: ${fmt(rows)} rows, ${fmt(ms / 1000, 1)} s`),
  );
  await c.end();
} else await migrate(url);

const client = await pgClient(url);
// Only the rows that differ: on the kept full set (EVERY=20), a few tens of thousands of 1.5 million.
await client.query(
  'update revisions set reminder_enabled = (vehicle_id % $1 = 0) where reminder_enabled is distinct from (vehicle_id % $1 = 0)',
  [EVERY],
);
// The server, from this tree's source: its own start-up scan (at today's date) runs first, and is undone.
const p = port();
const dataDir = join(tmpdir(), `evdra-reminders-${process.pid}`);
mkdirSync(dataDir, { recursive: true });
const base = `http://127.0.0.1:${p}`;
const server = await startProcess(
  new URL('../../src/main.ts', import.meta.url).pathname,
  {
    PORT: String(p),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    PUSH_POLL_MS: '0',
  },
  `${base}/api/health`,
  ['--import', 'tsx'],
);
try {
  await waitIdle(client);
  await resetJob(client);
  const driver = await login(base, ACCOUNTS.driver);
  const fleet = await login(base, ACCOUNTS.fleet);
  const car = shape(SCALE).driverCar;
  const routes = [
    { name: 'notifications', path: '/api/notifications', headers: driver },
    { name: 'vehicles (fleet, 200)', path: '/api/vehicles', headers: fleet },
    { name: 'fuel of a car (20 y)', path: `/api/fuel-consumptions/vehicle/${car}`, headers: driver },
    { name: 'services of a car', path: `/api/revision/vehicle/${car}`, headers: driver },
  ];
  const [{ n: due }] = (
    await client.query(
      `select count(*)::int as n from vehicles v join vehicle_access a on a.vehicle_id = v.id
        where exists (select 1 from revisions r where r.vehicle_id = v.id and r.reminder_enabled)`,
    )
  ).rows;
  console.log(`${NAME} (SCALE=${SCALE}, a car in ${EVERY} due): ≈${fmt(due)} reminders due, job ${JOB_SRC}`);
  const without = await readP95(base, routes, { seconds: DURATION });
  const job = runJob();
  const during = await readP95(base, routes, { until: job });
  const { created, ms } = await job;
  const row = (name, a, b) =>
    `  ${name.padEnd(24)} ${fmt(a.p95, 1).padStart(8)} ${fmt(b.p95, 1).padStart(8)} ${fmt(b.p95 / a.p95, 2).padStart(6)}×`;
  console.log(`job: ${fmt(created)} notifications in ${fmt(ms / 1000, 1)} s (target ≤ 60 s at ≈30,000)`);
  console.log(
    `  ${'route (p95 ms)'.padEnd(24)} ${'without'.padStart(8)} ${'during'.padStart(8)}  ratio (target ≤ 2×)`,
  );
  for (const r of routes) console.log(row(r.name, without[r.name], during[r.name]));
  const out = new URL('../../../../bench-results/', import.meta.url).pathname;
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'scale-reminders.json'),
    `${JSON.stringify({ scale: SCALE, every: EVERY, due, created, jobMs: ms, jobSrc: JOB_SRC, connections: CONNECTIONS, without, during }, null, 2)}\n`,
  );
  await resetJob(client);
} finally {
  await server.stop();
  await client.end();
  rmSync(dataDir, { recursive: true, force: true });
}
