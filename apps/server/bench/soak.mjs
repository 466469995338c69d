// `npm run bench:soak`: the built server on a fresh PostgreSQL database under 50 connections of
// mixed reads and writes for SOAK_SECONDS (600). Prints p50/p99 and errors per SOAK_BUCKET_SECONDS
// (60) and the server's RSS over time; halfway it ends every database connection of the server
// (pg_terminate_backend) and measures how long until it answers again; at the end it sends SIGTERM
// while requests are in flight and counts the ones dropped. Targets: 0 errors outside the
// termination, recovery ≤ 2 s, RSS within ±15 % (last bucket against the first after warm-up),
// 0 dropped at SIGTERM. Figures only; exits 1 when a target is missed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fmt, PG_URL, serverMain } from './lib.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const BUCKET = Number(process.env.SOAK_BUCKET_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 50);
const PORT = Number(process.env.SOAK_PORT ?? 8344);
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS + 5 });

function http(method, path, headers = {}, body) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path,
        agent,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), res }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function admin(sql, params) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

// ── server ──
const dbName = `evdra_soak_${process.pid}`;
await admin(`create database ${dbName}`);
const dbUrl = new URL(PG_URL);
dbUrl.pathname = `/${dbName}`;
const dataDir = mkdtempSync(join(tmpdir(), 'evdra-soak-'));
const child = spawn(process.execPath, [serverMain], {
  env: {
    // No fetch of the ECB's exchange rates unless asked (FX_RATES_URL set): loopback only.
    FX_RATES_URL: '',
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl.toString(),
    LOG_LEVEL: 'error',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const exited = new Promise((r) => child.on('exit', (code) => r(code)));
for (let i = 0; ; i++) {
  if (i > 600) throw new Error('server did not start');
  if (
    await http('GET', '/api/health').then(
      (r) => r.status === 200,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}
const rssMiB = () => {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
};

// ── data: 10 users, 5 vehicles each, a few records ──
const users = [];
for (let u = 0; u < 10; u++) {
  const res = await http(
    'POST',
    '/api/auth/register',
    {},
    {
      username: `soak${u}_${process.pid}`,
      email: `soak${u}_${process.pid}@bench.test`,
      password: 'benchmark-password',
      gdprConsent: true,
    },
  );
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.body}`);
  const cookie = (res.res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const headers = { cookie, 'x-csrf-token': JSON.parse(res.body).csrfToken };
  const vehicles = [];
  for (let v = 0; v < 5; v++) {
    const made = await http('POST', '/api/vehicles', headers, {
      make: 'Dacia',
      model: `Logan ${v}`,
      year: 2015 + v,
      fuelType: 'PETROL',
      registrationNumber: `S-${u}-${v}`,
      engineSize: 1.2,
      odometer: 10_000 * v,
      aiEvaluationConsent: false,
    });
    vehicles.push(JSON.parse(made.body).id);
  }
  users.push({ headers, vehicles, expenses: [] });
}

// ── load ──
const started = Date.now();
const buckets = []; // { lat: number[], errors: number, fault: number, rss: number[] }
const bucketOf = (t) => {
  const i = Math.floor((t - started) / 1000 / BUCKET);
  buckets[i] ??= { lat: [], errors: 0, faultErrors: 0, rss: [] };
  return buckets[i];
};
const errorSamples = [];
let faultWindow = false;
let stopping = false;
let total = 0;

async function one(user) {
  const roll = Math.random();
  const vehicleId = user.vehicles[Math.floor(Math.random() * user.vehicles.length)];
  if (roll < 0.55) return [await http('GET', '/api/vehicles', user.headers), 200];
  if (roll < 0.7) return [await http('GET', `/api/vehicles/${vehicleId}`, user.headers), 200];
  if (roll < 0.8) return [await http('GET', `/api/expenses/vehicle/${vehicleId}`, user.headers), 200];
  if (roll < 0.85) return [await http('GET', `/api/analytics/vehicle/${vehicleId}/total`, user.headers), 200];
  if (roll < 0.95 || user.expenses.length < 5) {
    const res = await http('POST', '/api/expenses', user.headers, {
      vehicleId,
      date: `2025-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-15`,
      expenseType: 'Parking',
      amount: Math.round(Math.random() * 10_000) / 100,
      description: 'soak',
    });
    if (res.status === 201) user.expenses.push(JSON.parse(res.body).id);
    return [res, 201];
  }
  const id = user.expenses.splice(Math.floor(Math.random() * user.expenses.length), 1)[0];
  return [await http('DELETE', `/api/expenses/${id}`, user.headers), 204];
}

const inFlight = new Set();
async function worker(n) {
  const user = users[n % users.length];
  while (!stopping) {
    const t0 = Date.now();
    const p = one(user);
    inFlight.add(p);
    let ok = false;
    let detail = '';
    try {
      const [res, want] = await p;
      ok = res.status === want;
      if (!ok) detail = `${res.status} ${res.body.slice(0, 120)}`;
    } catch (err) {
      detail = String(err?.code ?? err?.message ?? err);
    } finally {
      inFlight.delete(p);
    }
    if (stopping && !ok) break;
    const b = bucketOf(t0);
    total += 1;
    b.lat.push(Date.now() - t0);
    if (!ok) {
      if (faultWindow) b.faultErrors += 1;
      else {
        b.errors += 1;
        if (errorSamples.length < 10) errorSamples.push(detail);
      }
    }
  }
}

const rssTimer = setInterval(() => bucketOf(Date.now()).rss.push(rssMiB()), 2000);
const workers = Array.from({ length: CONNECTIONS }, (_, i) => worker(i));

// Halfway: end every connection the server holds to its database; time until it answers again.
let recoveryMs = Number.NaN;
let terminated = 0;
const faultAt = setTimeout(
  async () => {
    faultWindow = true;
    const t0 = Date.now();
    const r = await admin(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    terminated = r.rows[0].n;
    const user = users[0];
    for (;;) {
      const res = await http('GET', `/api/vehicles/${user.vehicles[0]}`, user.headers).catch(() => undefined);
      if (res?.status === 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    recoveryMs = Date.now() - t0;
    // Requests already running on a killed connection fail once; count those apart for 2 s.
    setTimeout(() => {
      faultWindow = false;
    }, 2000);
  },
  (SECONDS * 1000) / 2,
);

await new Promise((r) => setTimeout(r, SECONDS * 1000));
clearInterval(rssTimer);
clearTimeout(faultAt);

// SIGTERM with requests in flight: every one of them must get its answer.
const pending = [...inFlight];
stopping = true;
child.kill('SIGTERM');
const settled = await Promise.allSettled(pending);
const dropped = settled.filter(
  (s) => s.status === 'rejected' || ![200, 201, 204].includes(s.value?.[0]?.status),
).length;
await Promise.allSettled(workers);
const exitCode = await exited;
agent.destroy();
await admin(`drop database if exists ${dbName} with (force)`);
rmSync(dataDir, { recursive: true, force: true });

// ── report ──
const pct = (xs, p) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const avg = (xs) => xs.filter(Number.isFinite).reduce((a, b) => a + b, 0) / xs.filter(Number.isFinite).length;
console.log(
  `\nSoak: ${SECONDS} s, ${CONNECTIONS} connections, mixed reads/writes on PostgreSQL (55% list, 15% vehicle, 10% expenses, 5% analytics, 10% create, 5% delete)\n`,
);
console.log(
  `${`${BUCKET} s bucket`.padEnd(14)} requests   req/s   p50 ms   p99 ms   errors   fault-window   RSS MiB`,
);
buckets.forEach((b, i) => {
  if (!b) return;
  console.log(
    `${String(i + 1).padEnd(14)} ${fmt(b.lat.length).padStart(8)} ${fmt(b.lat.length / BUCKET).padStart(7)} ${fmt(pct(b.lat, 50)).padStart(8)} ${fmt(pct(b.lat, 99)).padStart(8)} ${String(b.errors).padStart(8)} ${String(b.faultErrors).padStart(14)} ${fmt(avg(b.rss), 1).padStart(9)}`,
  );
});
const errors = buckets.reduce((a, b) => a + (b?.errors ?? 0), 0);
const faultErrors = buckets.reduce((a, b) => a + (b?.faultErrors ?? 0), 0);
const full = buckets.filter((b) => b?.rss.length);
const rssFirst = avg(full[Math.min(1, full.length - 1)]?.rss ?? []);
const rssLast = avg(full[full.length - 1]?.rss ?? []);
const drift = (100 * (rssLast - rssFirst)) / rssFirst;
console.log(
  `\nrequests: ${fmt(total)}, errors outside the fault window: ${errors}${errorSamples.length ? ` (e.g. ${errorSamples.slice(0, 3).join(' | ')})` : ''}`,
);
console.log(
  `pg_terminate_backend on ${terminated} connections: answering again after ${fmt(recoveryMs)} ms; ${faultErrors} requests failed in the 2 s after it`,
);
console.log(
  `RSS: ${fmt(rssFirst, 1)} MiB (bucket 2) → ${fmt(rssLast, 1)} MiB (last): ${drift >= 0 ? '+' : ''}${fmt(drift, 1)} %`,
);
console.log(
  `SIGTERM with ${pending.length} requests in flight: ${dropped} dropped; server exit code ${exitCode}`,
);
const met = errors === 0 && recoveryMs <= 2000 && Math.abs(drift) <= 15 && dropped === 0 && exitCode === 0;
console.log(`\nTargets (0 errors, recovery ≤ 2 s, RSS ±15 %, 0 dropped): ${met ? 'met' : 'NOT met'}`);
process.exit(met ? 0 : 1);
