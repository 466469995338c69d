// An index's before/after on the kept scale database (`npm run bench:scale -- --keep` first, which
// also leaves the server it built in apps/server/dist-scale-src):
// alternating slices on the same data and the same running server, the index dropped in one and
// created in the next, each slice loading one route; prints each slice's p95 and the medians.
//   ROUTE  a route's name in routes.mjs (e.g. 'notifications')
//   INDEX  the index's name; CREATE  its CREATE INDEX statement (the migration's)
//   SLICES (6), DURATION (s per slice, 5), CONNECTIONS (10), SIZE (full | small)
import { fmt, load, median } from '../lib.mjs';
import { ACCOUNTS, login } from './accounts.mjs';
import { NAMES, urlOf } from './databases.mjs';
import { pgClient, startServer, waitIdle } from './measure.mjs';
import { readRoutes } from './routes.mjs';
import { shape } from './shape.mjs';

const { ROUTE, INDEX, CREATE } = process.env;
if (!ROUTE || !INDEX || !CREATE) throw new Error('ROUTE, INDEX and CREATE are required');
const SLICES = Number(process.env.SLICES ?? 6);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const size = process.env.SIZE ?? 'full';
const scale = Number(process.env.SCALE ?? 1) / (size === 'small' ? 100 : 1);

const url = urlOf(NAMES[size]);
const client = await pgClient(url);
const server = await startServer(new URL('../../dist-scale-src/dist/main.js', import.meta.url).pathname, url);
try {
  await waitIdle(client);
  const sessions = {
    admin: await login(server.base, ACCOUNTS.admin),
    fleet: await login(server.base, ACCOUNTS.fleet),
    driver: await login(server.base, ACCOUNTS.driver),
  };
  const route = readRoutes(sessions, shape(scale)).find((r) => r.name === ROUTE);
  if (!route) throw new Error(`no route named ${ROUTE}`);
  const p95 = { with: [], without: [] };
  for (let i = 0; i < SLICES; i++) {
    const withIndex = i % 2 === 1;
    await client.query(withIndex ? CREATE : `drop index if exists ${INDEX}`);
    const r = await load(`${server.base}${route.path}`, route.headers, {
      connections: CONNECTIONS,
      duration: DURATION,
    });
    p95[withIndex ? 'with' : 'without'].push(r.p95);
    console.log(
      `slice ${i + 1} ${withIndex ? 'with   ' : 'without'} ${INDEX}: p95 ${fmt(r.p95, 1)} ms, ${fmt(r.rps)} req/s`,
    );
  }
  console.log(
    `${ROUTE} (${size}, ${CONNECTIONS} conns): p95 median without ${fmt(median(p95.without), 1)} ms, with ${fmt(median(p95.with), 1)} ms`,
  );
} finally {
  // The index stays as the migration leaves it.
  await client.query(CREATE);
  await server.stop();
  await client.end();
}
