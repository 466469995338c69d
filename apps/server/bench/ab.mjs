// `npm run bench:ab -- <before/main.js> [after/main.js]`: two builds of the server side by side on
// one PostgreSQL database, the same GET routes measured on each in short alternated slices, so that
// the machine's drift (2-3x between sessions, ±10% from one minute to the next) hits both alike.
// Prints each route's median CPU per answer (/proc), req/s and bytes per answer, and in how many slice pairs the
// second build spent less CPU than the first. The second build defaults to apps/server/dist.
//
// A "before" build: `git stash && npm run build -w apps/server && cp -r apps/server/dist
// apps/server/dist-before && git stash pop` (inside the repository, so its packages resolve; dist-*
// is ignored by git). It must still find the packages it imports in node_modules.
//
//   ROUNDS=8      slice pairs per route        SLICE=1.5   seconds per slice
//   CONNECTIONS=10                             PATHS=/api/notifications/count,...  (":v" = the vehicle)
//   VERBOSE=1     also each pair's CPU µs, A/B (a median hides a bimodal route)
//   FILLS=24      fill-ups seeded on the car (the fuel list and analytics routes read them)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  addCar,
  fmt,
  insurancePolicy,
  load,
  median,
  PG_URL,
  pgAvailable,
  port,
  post,
  session,
  startProcess,
} from './lib.mjs';

const [before, after = new URL('../dist/main.js', import.meta.url).pathname] = process.argv.slice(2);
if (!before) throw new Error('usage: npm run bench:ab -- <before/main.js> [after/main.js]');
if (!(await pgAvailable())) throw new Error(`PostgreSQL does not answer at ${PG_URL}`);
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const SLICE = Number(process.env.SLICE ?? 1.5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const PATHS = (
  process.env.PATHS ?? '/api/notifications/count,/api/auth/me,/api/vehicles/:v,/api/insurance/vehicle/:v'
).split(',');

const adminQuery = async (sql) => {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(sql).finally(() => c.end());
};
const name = `evdra_ab_${process.pid}`;
const databaseUrl = Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString();
await adminQuery(`create database ${name}`);
const dataDirs = [];

/** One build on the shared database; both sign with the same secret, so one session works on both. */
async function start(label, main) {
  const p = port();
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-ab-'));
  dataDirs.push(dataDir);
  const base = `http://127.0.0.1:${p}`;
  const env = {
    PORT: String(p),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'bench-ab-secret-shared-by-both-builds-0123',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    PUSH_POLL_MS: '0',
  };
  const proc = await startProcess(resolve(main), env, `${base}/api/health`);
  return { label, main, base, ...proc };
}

const servers = [];
try {
  // One after the other: the second finds the database migrated.
  servers.push(await start('A', before));
  servers.push(await start('B', after));
  const [a] = servers;
  const user = await session(a.base, 'ab_user');
  const vehicle = await addCar(a.base, user, { registrationNumber: 'B-10-ABX' });
  for (let i = 0; i < 5; i++)
    await post(a.base, '/api/insurance', user, insurancePolicy(vehicle.id, i, 2020));
  // FILLS full-tank fill-ups a fortnight apart, so the fuel list and the analytics have work to do.
  for (let i = 0; i < Number(process.env.FILLS ?? 24); i++)
    await post(a.base, '/api/fuel-consumptions', user, {
      vehicleId: vehicle.id,
      fuelType: 'PETROL',
      liters: 38 + (i % 5),
      fuelPrice: 260 + i,
      date: new Date(Date.UTC(2023, 0, 1 + 14 * i)).toISOString().slice(0, 10),
      odometer: 50_100 + 550 * i,
      fullTank: true,
    });
  const { 'content-type': _json, ...headers } = user;
  const paths = PATHS.map((p) => p.replaceAll(':v', String(vehicle.id)));
  const measure = (s, path, duration) =>
    load(`${s.base}${path}`, headers, { connections: CONNECTIONS, duration, pid: s.pid });

  for (const path of paths) for (const s of servers) await measure(s, path, 1); // warm both
  console.log(`A = ${before}\nB = ${after}`);
  console.log(
    `${ROUNDS} alternated pairs of ${SLICE} s slices per route, ${CONNECTIONS} connections; medians.`,
  );
  console.log(
    `${'route'.padEnd(36)}${'A CPU µs'.padStart(10)}${'B CPU µs'.padStart(10)}${'B/A'.padStart(7)}${'A req/s'.padStart(10)}${'B req/s'.padStart(10)}${'A bytes'.padStart(9)}${'B bytes'.padStart(9)}  B cheaper`,
  );
  for (const path of paths) {
    const cpu = { A: [], B: [] };
    const rps = { A: [], B: [] };
    const bytes = {};
    for (let r = 0; r < ROUNDS; r++) {
      // A then B, then B then A: neither always gets the warmer second.
      for (const s of r % 2 ? [...servers].reverse() : servers) {
        const m = await measure(s, path, SLICE);
        cpu[s.label].push(m.cpuUs);
        rps[s.label].push(m.rps);
        bytes[s.label] = m.bytes;
      }
    }
    const cheaper = cpu.A.filter((a, i) => cpu.B[i] < a).length;
    if (process.env.VERBOSE)
      console.log(cpu.A.map((a, i) => `${a.toFixed(0)}/${cpu.B[i].toFixed(0)}`).join(' '));
    console.log(
      `${path.padEnd(36)}${fmt(median(cpu.A), 1).padStart(10)}${fmt(median(cpu.B), 1).padStart(10)}${fmt(median(cpu.B) / median(cpu.A), 3).padStart(7)}${fmt(median(rps.A)).padStart(10)}${fmt(median(rps.B)).padStart(10)}${fmt(bytes.A).padStart(9)}${fmt(bytes.B).padStart(9)}  ${cheaper}/${ROUNDS}`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
  await adminQuery(`drop database if exists ${name} with (force)`);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
