// A change's before/after on the kept scale database (`npm run bench:scale -- --keep` first): the
// server built from two commits (BEFORE, AFTER: HEAD), both running on the same data, loaded in
// alternating slices, each slice one route on one of them; prints each slice's p95 and the medians.
//   ROUTES  route names of routes.mjs, separated by '|' (each measured in turn)
//   BEFORE  the commit before the change (required); AFTER (HEAD)
//   SLICES (6 a side), DURATION (s per slice, 5), CONNECTIONS (10), SIZE (full | small), SCALE (1)
import { fmt, LOAD_CLIENT, load, median } from '../lib.mjs';
import { ACCOUNTS, login } from './accounts.mjs';
import { NAMES, privateServer, urlOf } from './databases.mjs';
import { pgClient, startServer, waitIdle } from './measure.mjs';
import { readRoutes } from './routes.mjs';
import { shape } from './shape.mjs';

const { ROUTES, BEFORE } = process.env;
if (!ROUTES || !BEFORE) throw new Error('ROUTES and BEFORE are required');
const AFTER = process.env.AFTER ?? 'HEAD';
const SLICES = Number(process.env.SLICES ?? 6);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const size = process.env.SIZE ?? 'full';
const scale = Number(process.env.SCALE ?? 1) / (size === 'small' ? 100 : 1);

const url = urlOf(NAMES[size]);
const client = await pgClient(url);
const builds = {
  before: privateServer(BEFORE, 'dist-ab-before'),
  after: privateServer(AFTER, 'dist-ab-after'),
};
const servers = {};
try {
  for (const side of ['before', 'after']) servers[side] = await startServer(builds[side].main, url);
  // Their start-up reminder scans: the database is measured idle.
  await waitIdle(client);
  const routesOn = async (base) =>
    readRoutes(
      {
        admin: await login(base, ACCOUNTS.admin),
        fleet: await login(base, ACCOUNTS.fleet),
        driver: await login(base, ACCOUNTS.driver),
      },
      shape(scale),
    );
  const routes = { before: await routesOn(servers.before.base), after: await routesOn(servers.after.base) };
  for (const name of ROUTES.split('|')) {
    const p95 = { before: [], after: [] };
    for (let i = 0; i < 2 * SLICES; i++) {
      const side = i % 2 === 0 ? 'before' : 'after';
      const route = routes[side].find((r) => r.name === name);
      if (!route) throw new Error(`no route named ${name}`);
      const r = await load(`${servers[side].base}${route.path}`, route.headers, {
        connections: CONNECTIONS,
        duration: DURATION,
      });
      p95[side].push(r.p95);
      console.log(
        `  ${name}, slice ${i + 1}, ${side.padEnd(6)}: p95 ${fmt(r.p95, 1)} ms, ${fmt(r.rps)} req/s`,
      );
    }
    console.log(
      `${name} (${size}, ${CONNECTIONS} conns, ${LOAD_CLIENT}): p95 median before (${BEFORE}) ${fmt(median(p95.before), 1)} ms, after (${AFTER}) ${fmt(median(p95.after), 1)} ms`,
    );
  }
} finally {
  for (const s of Object.values(servers)) await s.stop();
  await client.end();
}
