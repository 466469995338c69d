// Shared helpers for the benchmark scripts: start the built server in its own process, log in, load.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

/** The built server; SERVER_MAIN points elsewhere (e.g. an older build kept for a before/after run). */
export const serverMain = process.env.SERVER_MAIN ?? new URL('../dist/main.js', import.meta.url).pathname;
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A port for a process the bench starts: BENCH_PORT, then the ones after it (helpers benchmarking on
 * one machine each take their own range), or a random one.
 */
let nextPort = Number(process.env.BENCH_PORT) || 0;
export const port = () => (nextPort ? nextPort++ : 20000 + Math.floor(Math.random() * 20000));

/** Spawns a Node script with env and waits until `healthUrl` answers. */
export async function startProcess(script, env, healthUrl, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), ...nodeArgs, script],
    {
      // No fetch of the ECB's exchange rates unless asked (FX_RATES_URL set): loopback only.
      env: { FX_RATES_URL: '', ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((r) => child.on('exit', r));
  const started = Date.now();
  let dead = false;
  exited.then(() => (dead = true));
  for (;;) {
    if (dead || Date.now() - started > 180_000) throw new Error(`${script} did not start`);
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
    pid: child.pid,
    stop: async () => {
      if (!dead) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The real server on PGlite (fresh dir) or PostgreSQL (fresh database); stop() cleans up. */
export async function startServer(kind, extraEnv = {}, nodeArgs = []) {
  const p = port();
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-'));
  const env = {
    PORT: String(p),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // No push outbox poll: its statement, sent every 5 s, would land in a route's SQL trace (bench:api).
    PUSH_POLL_MS: '0',
    ...extraEnv,
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
  const proc = await startProcess(serverMain, env, `${base}/api/health`, nodeArgs);
  return {
    base,
    pid: proc.pid,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    /** Stops the process only (the data stays for a bare run). */
    halt: () => proc.stop(),
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

/**
 * Rotates a session made by `session` through its refresh cookie, updating `headers` in place: an
 * access token lives 15 minutes, and a long run (ROUNDS, DURATION) outlasts it.
 */
export async function renew(base, headers) {
  const res = await fetch(`${base}/api/auth/refresh`, {
    method: 'POST',
    headers: { cookie: headers.cookie },
  });
  if (!res.ok) throw new Error(`refresh failed: ${res.status} ${await res.text()}`);
  const cookies = new Map(headers.cookie.split('; ').map((c) => [c.split('=')[0], c]));
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(';')[0];
    cookies.set(pair.split('=')[0], pair);
  }
  headers.cookie = [...cookies.values()].join('; ');
  headers['x-csrf-token'] = (await res.json()).csrfToken;
}

/** The benches' usual car (a petrol Dacia Logan) for `user`; `fields` sets its plate and any other field. */
export function addCar(base, user, fields) {
  return post(base, '/api/vehicles', user, {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    engineSize: 1.2,
    odometer: 50_000,
    aiEvaluationConsent: false,
    ...fields,
  });
}

/** Policy number `i` of a vehicle: one year from March 1st of `firstYear + i`. */
export const insurancePolicy = (vehicleId, i, firstYear) => ({
  vehicleId,
  provider: `Insurer ${i}`,
  policyNumber: `P-${i}`,
  coverageType: 'RCA',
  startDate: `${firstYear + i}-03-01`,
  endDate: `${firstYear + i + 1}-02-28`,
  price: 300 + i * 10,
});

export async function post(base, path, headers, body) {
  return send('POST', base, path, headers, body);
}

export async function send(method, base, path, headers, body) {
  const { 'content-type': _json, ...bare } = headers;
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? { headers: bare } : { headers, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** `workers` concurrent loops calling `fn` for `duration` s; req/s and latency percentiles in ms. */
export async function loop(fn, { connections = 50, duration = 10 } = {}) {
  const latencies = [];
  const end = performance.now() + duration * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await fn();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** The middle value; for an even count the mean of the two middle ones (two rounds: not the better one). */
export function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The load's client: wrk (C, Debian's package `wrk`) when it is on the PATH, else autocannon;
 * BENCH_CLIENT=wrk|autocannon picks. On 2 cores the client shares the CPU with the server and
 * PostgreSQL: autocannon, in Node, took a core's worth at ~1,400 req/s, and the same server under
 * wrk answered a fleet's page of car-months at 2,495–3,516 req/s, p95 33–38 ms, against autocannon's
 * 1,304–1,398 req/s, 67–72 ms (issue 54).
 */
export const LOAD_CLIENT =
  process.env.BENCH_CLIENT ?? (spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk');

/**
 * Load on one URL at `connections` for `duration` s; returns req/s, latency percentiles (p50, p95,
 * p99) in ms, the server's CPU µs an answer (`pid`: its process) and the bytes an answer took.
 */
export async function load(url, headers, { connections = 50, duration = 10, pid } = {}) {
  const cpu0 = pid && cpuSeconds(pid);
  const r = await (LOAD_CLIENT === 'wrk' ? wrk : autocannonLoad)(url, headers, connections, duration);
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`load on ${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // CPU the server process spent per answer: unlike req/s, it hardly moves with the machine's load.
  const cpuUs = pid && r.requests ? ((cpuSeconds(pid) - cpu0) * 1e6) / r.requests : undefined;
  // Bytes an answer took on the wire, headers included: on loopback the kernel's copy is the server's CPU.
  const bytes = r.requests ? r.bytes / r.requests : 0;
  return { rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99, cpuUs, bytes };
}

async function autocannonLoad(url, headers, connections, duration) {
  // autocannon reports p90 and p97.5, not p95: each answer's time is kept for it.
  const times = [];
  const r = await new Promise((resolve, reject) => {
    const run = autocannon({ url, headers, connections, duration }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    run.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  times.sort((a, b) => a - b);
  return {
    requests: r.requests.total,
    rps: r.requests.average,
    bytes: r.throughput.total,
    non2xx: r.non2xx,
    errors: r.errors,
    p50: r.latency.p50,
    p95: times[Math.min(times.length - 1, Math.floor(0.95 * times.length))] ?? 0,
    p99: r.latency.p99,
  };
}

const WRK_SUMMARY = new URL('./wrk-summary.lua', import.meta.url).pathname;

/** wrk, one thread (a second would take CPU from the server); its `done` prints the figures. */
async function wrk(url, headers, connections, duration) {
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', WRK_SUMMARY];
  for (const [k, v] of Object.entries(headers ?? {})) args.push('-H', `${k}: ${v}`);
  const out = await new Promise((resolve, reject) =>
    execFile('wrk', [...args, url], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk on ${url} printed no summary:\n${out}`);
  const r = JSON.parse(line);
  return {
    ...r,
    rps: r.requests / (r.durationUs / 1e6),
    p50: r.p50 / 1000,
    p95: r.p95 / 1000,
    p99: r.p99 / 1000,
  };
}

/** User + system CPU seconds a process has used so far (Linux /proc; clock ticks of 10 ms). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const fmt = (n, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** Uploads `bytes` (a JPEG) as the vehicle's photo; returns the photo's URL path. */
export async function uploadPhoto(base, user, vehicleId, bytes) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'car.jpg');
  const res = await fetch(`${base}/api/vehicles/${vehicleId}/upload-photo`, {
    method: 'POST',
    headers: { cookie: user.cookie, 'x-csrf-token': user['x-csrf-token'] },
    body: form,
  });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return res.text();
}
