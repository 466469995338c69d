// Shared helpers for the benchmark scripts: start the built server in its own process, log in, load.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

export const serverMain = new URL('../dist/main.js', import.meta.url).pathname;
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const port = () => 20000 + Math.floor(Math.random() * 20000);

/** Spawns a Node script with env and waits until `healthUrl` answers. */
export async function startProcess(script, env, healthUrl) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), script],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((r) => child.on('exit', r));
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 60_000) throw new Error(`${script} did not start`);
    if (
      await fetch(healthUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The real server on PGlite (fresh dir) or PostgreSQL (fresh database); stop() cleans up. */
export async function startServer(kind) {
  const p = port();
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
  const env = {
    PORT: String(p),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  };
  let dropDb = async () => {};
  if (kind === 'postgres') {
    const name = `evdra_bench_${process.pid}_${p}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDb = () => adminQuery(`drop database if exists ${name} with (force)`);
  }
  const base = `http://127.0.0.1:${p}`;
  const proc = await startProcess(serverMain, env, `${base}/api/health`);
  return {
    base,
    stop: async () => {
      await proc.stop();
      await dropDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function pgAvailable() {
  return adminQuery('select 1').then(
    () => true,
    () => false,
  );
}

async function adminQuery(sql) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Registers an account; returns headers that carry its session like a browser. */
export async function session(base, username) {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@bench.test`,
      password: 'benchmark-password',
      gdprConsent: true,
    }),
  });
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const { csrfToken } = await res.json();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
}

export async function post(base, path, headers, body) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** autocannon against one URL; returns req/s (mean) and latency percentiles in ms. */
export async function load(url, headers, { connections = 50, duration = 10 } = {}) {
  const r = await autocannon({ url, headers, connections, duration });
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`load on ${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

export const fmt = (n, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
