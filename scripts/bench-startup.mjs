// `npm run bench:startup`: cold start of the built server to a healthy /api/health, on PGlite
// (new data dir, and again on an existing one) and on PostgreSQL (new database), plus argon2id
// verify time. Prints figures; never fails on timing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(join(root, 'apps/server/package.json'));
const RUNS = Number(process.env.RUNS ?? 5);
// SERVER_MAIN: another build to time (e.g. an older one kept for a before/after comparison).
const SERVER_MAIN = process.env.SERVER_MAIN ?? join(root, 'apps/server/dist/main.js');
// BASELINE_MAIN: a second build timed in the same runs, the two alternating (A-B, then B-A), so
// the machine's load hits both alike; keep it in apps/server/dist-* (git-ignored, its packages resolve).
const BASELINE_MAIN = process.env.BASELINE_MAIN;
const PG = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) =>
  `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;

async function startToHealthy(env, main = SERVER_MAIN, attempt = 1) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let gone = false;
  const exited = new Promise((r) => child.on('exit', r)).then(() => {
    gone = true;
  });
  try {
    for (;;) {
      if (performance.now() - started > 180_000) throw new Error('server did not become healthy in 180 s');
      // The random port was taken (the server says so and exits): again on another one.
      if (gone && attempt < 3) return await startToHealthy(env, main, attempt + 1);
      if (gone) throw new Error('server exited before it was healthy');
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function pgAvailable() {
  const pg = require('pg');
  const c = new pg.Client({ connectionString: PG });
  try {
    await c.connect();
    return c;
  } catch {
    return undefined;
  }
}

const builds = BASELINE_MAIN ? { baseline: BASELINE_MAIN, current: SERVER_MAIN } : { current: SERVER_MAIN };
const pglite = Object.fromEntries(Object.keys(builds).map((name) => [name, { fresh: [], existing: [] }]));
for (let i = 0; i < RUNS; i++) {
  const order = Object.keys(builds);
  if (i % 2) order.reverse();
  for (const name of order) {
    const dir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
    pglite[name].fresh.push(await startToHealthy({ DATA_DIR: dir }, builds[name]));
    pglite[name].existing.push(await startToHealthy({ DATA_DIR: dir }, builds[name]));
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const [name, main] of Object.entries(builds)) {
  if (BASELINE_MAIN) console.log(`${name}: ${main}`);
  console.log(`PGlite, new data dir (migrations included): ${fmt(pglite[name].fresh)}`);
  console.log(`PGlite, existing data dir:                   ${fmt(pglite[name].existing)}`);
}

const admin = await pgAvailable();
if (admin) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const name = `evdra_bench_${process.pid}_${i}`;
    await admin.query(`create database ${name}`);
    const url = new URL(PG);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
    times.push(await startToHealthy({ DATA_DIR: dir, DATABASE_URL: url.toString() }));
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database ${name} with (force)`);
  }
  await admin.end();
  console.log(`PostgreSQL, new database (migrations included): ${fmt(times)}`);
} else console.log(`PostgreSQL: not reachable at ${PG}; skipped`);

const argon2 = require('@node-rs/argon2');
const opts = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const hash = await argon2.hash('correct horse battery', opts);
const verifies = [];
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  await argon2.verify(hash, 'correct horse battery');
  verifies.push(performance.now() - t);
}
console.log(`argon2id verify (m=19456 KiB, t=2, p=1): ${fmt(verifies)}`);
