// `npm run bench:scale` (issue 54): seeds evdra_scale at SCALE (1 = the country: 500,000
// users, 20M fill-ups…) and evdra_scale_small at SCALE/100, then measures every read route of the
// issue on both, side by side, at 10 and 50 connections, with EXPLAIN (ANALYZE, BUFFERS) of each
// route's statements; prints the table and `scale: N of M targets met`, writes
// bench-results/scale.json and bench-results/scale-explain/. `--keep` leaves both databases.
// Env: SCALE (1), SEED (54), DURATION (s per slice of load, 2; 0: EXPLAIN only), SLICES (3 a size,
// alternated; the median counts), REUSE=1 (measure the kept databases, no seed),
// ONLY (a regular expression: the routes whose name matches; the writes when it matches 'writes'),
// ACCEPT_ENCODING (the reads' coding: a browser's by default, 'identity' for none; routes.mjs),
// BENCH_CLIENT (wrk when on the PATH, else autocannon; ../lib.mjs).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, LOAD_CLIENT } from '../lib.mjs';
import { ACCOUNTS, login, passwordHash } from './accounts.mjs';
import { createDatabase, dropDatabase, migrate, NAMES, privateServer, urlOf } from './databases.mjs';
import {
  loadSlice,
  measureRoute,
  medianOf,
  medianSlice,
  pgClient,
  startServer,
  waitIdle,
} from './measure.mjs';
import { checkTargets, printTable, printTargets, writeJson } from './report.mjs';
import { ASKED_CODING, readRoutes, writes } from './routes.mjs';
import { seed } from './seed.mjs';
import { shape } from './shape.mjs';

const SCALE = Number(process.env.SCALE ?? 1);
const SEED = Number(process.env.SEED ?? 54);
const DURATION = Number(process.env.DURATION ?? 2);
const SLICES = Number(process.env.SLICES ?? 3);
const CONNECTIONS = [10, 50];
const WRITES = 20;
const WRITES_WARMUP = 5;
const keep = process.argv.includes('--keep');
const reuse = process.env.REUSE === '1';
const only = process.env.ONLY ? new RegExp(process.env.ONLY, 'i') : undefined;
const out = new URL('../../../../bench-results/', import.meta.url).pathname;
const sizes = { full: shape(SCALE), small: shape(SCALE / 100) };

async function seedSize(size, hash) {
  const s = sizes[size];
  const url = urlOf(NAMES[size]);
  const started = performance.now();
  await createDatabase(NAMES[size]);
  await migrate(url);
  const client = await pgClient(url);
  try {
    await seed(client, s, { seed: SEED, passwordHash: hash }, (label, rows, ms) =>
      console.log(`  ${size} ${label}: ${fmt(rows)} rows, ${fmt(ms / 1000, 1)} s`),
    );
  } finally {
    await client.end();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${NAMES[size]} (SCALE=${s.scale}) in ${fmt(seconds, 1)} s`);
  return seconds;
}

/** Both servers of one size (the built one measured, one from source traced), signed in. */
async function openSize(size) {
  const url = urlOf(NAMES[size]);
  const client = await pgClient(url);
  const server = await startServer(main, url);
  const tracer = await startServer(source, url, true);
  // The reminder scan runs at start on PostgreSQL: measured routes must not share the database with it.
  const startupScanMs = await waitIdle(client);
  console.log(`  ${size}: the start-up reminder scan (two servers) took ${fmt(startupScanMs / 1000, 1)} s`);
  const sessionsOn = async (base) => ({
    admin: await login(base, ACCOUNTS.admin),
    fleet: await login(base, ACCOUNTS.fleet),
    driver: await login(base, ACCOUNTS.driver),
  });
  const explainDir = join(out, 'scale-explain', size);
  mkdirSync(explainDir, { recursive: true });
  // A session's access lasts 15 minutes and a run of both sizes longer: signed in again every 5.
  let signedAt = Number.NEGATIVE_INFINITY;
  let current;
  return {
    size,
    server,
    tracer,
    client,
    startupScanMs,
    explainDir,
    /** The accounts' sessions on the measured server, and the routes as each server's sessions ask them. */
    async signedIn() {
      if (performance.now() - signedAt > 5 * 60_000) {
        const sessions = await sessionsOn(server.base);
        current = {
          sessions,
          routes: readRoutes(sessions, sizes[size]),
          traced: readRoutes(await sessionsOn(tracer.base), sizes[size]),
        };
        signedAt = performance.now();
      }
      return current;
    },
    async close() {
      await server.stop();
      await tracer.stop();
      await client.end();
    },
  };
}

/**
 * Every route on both sizes, the full set's load then the small set's, route by route: the two
 * figures a target compares are taken minutes apart at most, under the same load on the machine.
 */
async function measureBoth(opened) {
  const results = Object.fromEntries(
    opened.map((o) => [o.size, { routes: {}, writes: {}, startupScanMs: o.startupScanMs }]),
  );
  for (const [i, route] of readRoutes({}, sizes.full).entries()) {
    if (only && !only.test(route.name)) continue;
    const slug = route.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
    const at = {};
    for (const o of opened) {
      const { routes, traced } = await o.signedIn();
      at[o.size] = { ...routes[i], tracerHeaders: traced[i].headers };
      results[o.size].routes[route.name] = await measureRoute(o, at[o.size], {
        explainFile: join(o.explainDir, `${slug}.txt`),
      });
    }
    // Both sizes loaded in alternated slices (full, small, full, small…), each figure its slices'
    // median: a moment of the machine falls on both alike. One 5 s run a size made 10 ms routes'
    // ratios flip over 1.5× from one run to the next, a different route each time.
    for (const c of DURATION > 0 ? CONNECTIONS : []) {
      const slices = { full: [], small: [] };
      for (let s = 0; s < SLICES; s++)
        for (const o of opened) slices[o.size].push(await loadSlice(o, at[o.size], c, DURATION));
      for (const o of opened) results[o.size].routes[route.name].loads[c] = medianSlice(slices[o.size]);
    }
    for (const o of opened) {
      const r = results[o.size].routes[route.name];
      const l = r.loads[CONNECTIONS[0]] ?? {};
      console.log(
        `  ${o.size} ${route.name}: p95 ${l.p95 == null ? '–' : fmt(l.p95, 1)} ms @${CONNECTIONS[0]}, ${r.rows} rows`,
      );
    }
  }
  if ((!only || only.test('writes')) && DURATION > 0)
    for (const o of opened) {
      const { run, cleanUp } = await writes(o.server.base, (await o.signedIn()).sessions, o.client);
      for (const [name, fn] of Object.entries(run))
        results[o.size].writes[name] = await medianOf(WRITES, fn, WRITES_WARMUP);
      await cleanUp();
    }
  return results;
}

const { main, source } = privateServer();
const seedSeconds = {};
if (!reuse) {
  const hash = await passwordHash();
  for (const size of ['full', 'small']) seedSeconds[size] = await seedSize(size, hash);
}
const opened = [];
let results;
try {
  for (const size of ['full', 'small']) opened.push(await openSize(size));
  results = await measureBoth(opened);
} finally {
  for (const o of opened) await o.close();
}

if (DURATION === 0) {
  // EXPLAIN only: each route's seq scans of a big table, no load, no targets.
  for (const [name, r] of Object.entries(results.full.routes))
    console.log(`${name}: ${r.statements} statements, seq scans: ${r.seqScans.join(', ') || 'none'}`);
  process.exit(0);
}
const routes = readRoutes({}, sizes.full).filter((r) => !only || only.test(r.name));
console.log(`reads asked with accept-encoding: ${ASKED_CODING['accept-encoding']}, loaded by ${LOAD_CLIENT}`);
printTable(results, ['full', 'small'], CONNECTIONS);
const checked = checkTargets(results, routes, CONNECTIONS);
printTargets(checked);
writeJson(join(out, 'scale.json'), {
  scale: SCALE,
  seed: SEED,
  durationSeconds: DURATION,
  slices: SLICES,
  acceptEncoding: ASKED_CODING['accept-encoding'],
  client: LOAD_CLIENT,
  sizes,
  seedSeconds,
  results,
  ...checked,
});
if (!keep) for (const size of ['full', 'small']) await dropDatabase(NAMES[size]);
