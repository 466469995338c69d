// Runs the built server against a seeded database and measures each route: its SQL (traced on the
// first call, then EXPLAIN (ANALYZE, BUFFERS) of each statement through bare pg), and slices of load
// at a connection count (index.mjs alternates them between the two sizes).
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, port, startProcess } from '../lib.mjs';

const TRACE = new URL('./trace-preload.mjs', import.meta.url).pathname;

/** Tables big enough that a sequential scan of one on a user route is a defect (issue 54). */
export const BIG_TABLES = [
  'users',
  'vehicles',
  'fuel_entries',
  'expenses',
  'revisions',
  'insurances',
  'listings',
  'files',
  'file_blobs',
  'notifications',
  'vehicle_shares',
  'vehicle_month_costs',
  'vehicle_history',
  'interests',
  'market_messages',
];

/**
 * The server `main` on `databaseUrl`; `traced`: with the SQL trace preloaded (off until asked). The
 * trace patches node_modules/pg, which the build bundles into dist (issue 49): only a server run from
 * source (a .ts `main` under tsx) sends its statements through it, so the bench traces on that one
 * and loads the built one.
 */
export async function startServer(main, databaseUrl, traced = false) {
  const p = port();
  const dataDir = join(tmpdir(), `evdra-scale-${process.pid}-${p}`);
  mkdirSync(dataDir, { recursive: true });
  const traceFile = join(dataDir, 'sql.jsonl');
  const traceFlag = join(dataDir, 'tracing');
  writeFileSync(traceFile, '');
  const base = `http://127.0.0.1:${p}`;
  const proc = await startProcess(
    main,
    {
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      PUSH_POLL_MS: '0',
      SQL_TRACE_FILE: traceFile,
      SQL_TRACE_FLAG: traceFlag,
    },
    `${base}/api/health`,
    traced ? ['--import', 'tsx', '--import', TRACE] : [],
  );
  let read = 0;
  return {
    base,
    pid: proc.pid,
    /** Calls `fn` with the trace on; returns the statements the server sent meanwhile. */
    async trace(fn) {
      writeFileSync(traceFlag, '');
      try {
        await fn();
      } finally {
        unlinkSync(traceFlag);
      }
      const text = readFileSync(traceFile, 'utf8');
      const lines = text.slice(read).split('\n').filter(Boolean);
      read = text.length;
      return lines.map((l) => JSON.parse(l));
    },
    stop: async () => {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until no other session has run a statement on the database for 2 s (the start-up reminder
 * scan: many short statements, idle between them); returns how long that took.
 */
export async function waitIdle(client, maxMs = 600_000) {
  const started = Date.now();
  let quietSince = Date.now();
  for (;;) {
    const { rows } = await client.query(
      `select count(*)::int n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and (state <> 'idle' or state_change > now() - interval '200 milliseconds')`,
    );
    if (rows[0].n > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 2_000) return quietSince - started;
    if (Date.now() - started > maxMs) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A GET with the session; the answer's row count (array length, else 1) and bytes. */
export async function getOnce(base, route) {
  const res = await fetch(`${base}${route.path}`, { headers: route.headers });
  const body = await res.text();
  if (!res.ok) throw new Error(`GET ${route.path}: ${res.status} ${body.slice(0, 200)}`);
  let rows = 1;
  try {
    const json = JSON.parse(body);
    if (Array.isArray(json)) rows = json.length;
  } catch {}
  return { rows, bytes: body.length };
}

const explainable = (text) => /^\s*(select|with)\b/i.test(text);

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each read statement in `statements`, written to `file`; returns the
 * big tables scanned sequentially.
 */
export async function explain(client, statements, file) {
  const out = [];
  const seqScans = new Set();
  for (const [i, st] of statements.entries()) {
    if (!explainable(st.text)) continue;
    try {
      const { rows } = await client.query(`explain (analyze, buffers) ${st.text}`, st.values);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      for (const [, table] of plan.matchAll(/Seq Scan on (\w+)/g))
        if (BIG_TABLES.includes(table)) seqScans.add(table);
      out.push(`-- statement ${i + 1}\n${st.text}\n-- values: ${JSON.stringify(st.values)}\n${plan}\n`);
    } catch (err) {
      out.push(`-- statement ${i + 1}\n${st.text}\n-- explain failed: ${err.message}\n`);
    }
  }
  writeFileSync(file, out.join('\n') || '-- no read statement (answered from the server cache)\n');
  return [...seqScans];
}

/**
 * One route: its first call traced on `tracer` (the server from source, same database) and each
 * read statement explained. `route.tracerHeaders` carry the same account's session on `tracer`.
 */
export async function measureRoute({ tracer, client }, route, { explainFile }) {
  let first;
  const statements = await tracer.trace(async () => {
    first = await getOnce(tracer.base, { ...route, headers: route.tracerHeaders });
  });
  const seqScans = await explain(client, statements, explainFile);
  return { rows: first.rows, bytes: first.bytes, statements: statements.length, seqScans, loads: {} };
}

/** One slice of load on `server` (`route.headers` carry the session there) at `connections`. */
export async function loadSlice({ server, client }, route, connections, duration) {
  const r = await load(`${server.base}${route.path}`, route.headers, {
    connections,
    duration,
    pid: server.pid,
  });
  // What the load left queued in the server (statements of a slow route) ends before the next.
  await waitIdle(client);
  // No answer within the slice (each slower than `duration`): no percentile, a target not met.
  return r.rps > 0
    ? { rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99 }
    : { rps: 0, p50: null, p95: null, p99: null };
}

/**
 * Each figure's median over the slices. Sorted best first, so of an even count the worse middle one
 * counts; a slice with no answer is the slowest: most of them without one, no figure.
 */
export function medianSlice(slices) {
  const middle = (xs) => xs[xs.length >> 1];
  const latency = (k) => {
    const m = middle(slices.map((s) => s[k] ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b));
    return Number.isFinite(m) ? m : null;
  };
  return {
    rps: middle(slices.map((s) => s.rps).sort((a, b) => b - a)),
    p50: latency('p50'),
    p95: latency('p95'),
    p99: latency('p99'),
  };
}

/**
 * Median ms of `n` sequential calls of `fn(i)` (each a write through the API), after `warmup` calls
 * not counted: the server has served reads only, and a write's first statements are planned then.
 */
export async function medianOf(n, fn, warmup = 0) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const ms = [];
  for (let i = warmup; i < warmup + n; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
}

export const pgClient = async (url) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
};
