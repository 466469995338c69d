// `node --import tsx apps/server/bench/webhook-cost.ts`: what webhook events cost the writes that
// make them (issue 53), through the real API (app.inject), on PGlite and, when it answers,
// PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
//
// 1. A fill-up POST with nobody subscribed: two apps side by side, each on its own database, one
//    where no webhook exists (A: the write skips its webhook statement, WebhookPresence) and one where
//    another user has one (B: the write runs the statement and finds no subscription of the writer's,
//    which is what every write did before the guard). Alternated slices (A B, then B A), so the
//    machine's drift hits both alike: each slice's median wall ms per POST and its CPU ms per POST
//    (this process, the embedded database's thread included; PostgreSQL's own CPU is not in it),
//    the medians over slices, and in how many pairs B was the slower. Also emitEvent's own median,
//    timed alone on a transaction.
// 2. A 2,000-row import's confirm with and without a webhook subscribed to record.created
//    (alternated, each into a fresh car), then how long the sender takes to deliver the import's
//    events to a loopback receiver. Prints figures; never fails on time.
//
//   SLICES=8 slice pairs  POSTS=150 posts per slice  ROWS=2000 import rows  IMPORTS=3 per side
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';
import { emitEvent, vehicleAudience } from '../src/db/events.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SLICES = Number(process.env.SLICES ?? 8);
const POSTS = Number(process.env.POSTS ?? 150);
const ROWS = Number(process.env.ROWS ?? 2000);
const IMPORTS = Number(process.env.IMPORTS ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

type Side = { app: FastifyInstance; database: Database; headers: Record<string, string>; dir: string };

async function side(database: Database): Promise<Side> {
  await database.migrate();
  const dir = mkdtempSync(join(tmpdir(), 'evdra-bench-hooks-'));
  const config = loadConfig({
    DATA_DIR: dir,
    PUBLIC_URL: 'http://evdra.bench',
    JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    WEB_DIST: join(dir, 'none'),
    FX_RATES_URL: '',
    PUSH_POLL_MS: '0',
    WEBHOOK_POLL_MS: '0',
    OUTBOUND_ALLOW_LOCAL: 'true',
  });
  const app = await buildApp({ config, database, logger: false });
  return { app, database, dir, headers: await session(app, 'bench') };
}

/** Registers `username`; the headers that carry its session. */
async function session(app: FastifyInstance, username: string) {
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { username, email: `${username}@example.com`, password: 'correct horse 1', gdprConsent: true },
  });
  if (reg.statusCode !== 201) throw new Error(`register: ${reg.statusCode} ${reg.body}`);
  const cookie = reg.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { cookie, 'x-csrf-token': reg.json().csrfToken as string };
}

async function addWebhook(app: FastifyInstance, headers: Record<string, string>, url: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers,
    payload: { url, events: ['record.created'] },
  });
  if (res.statusCode !== 201) throw new Error(`webhook: ${res.statusCode} ${res.body}`);
}

let plates = 0;
async function newCar(s: Side): Promise<number> {
  plates += 1;
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/vehicles',
    headers: s.headers,
    payload: {
      make: 'Bench',
      model: 'Car',
      year: 2010,
      fuelType: 'PETROL',
      registrationNumber: `WB-${plates}`,
      engineSize: 1.6,
      odometer: 0,
      aiEvaluationConsent: false,
    },
  });
  if (res.statusCode !== 201) throw new Error(`car: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

/** This process's CPU time in ms (the embedded database's thread included). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** `n` fill-ups, one after the other: each one's wall ms, and the slice's CPU ms per fill-up. */
async function postFills(s: Side, car: number, n: number, day: { i: number }) {
  const times: number[] = [];
  const cpu0 = cpuMs();
  for (let k = 0; k < n; k++) {
    day.i += 1;
    const date = new Date(Date.UTC(2000, 0, 1) + day.i * 86_400_000).toISOString().slice(0, 10);
    const t0 = performance.now();
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/fuel-consumptions',
      headers: s.headers,
      payload: { vehicleId: car, fuelType: 'PETROL', liters: 40, fuelPrice: 280, date, fullTank: true },
    });
    times.push(performance.now() - t0);
    if (res.statusCode !== 201) throw new Error(`fill-up: ${res.statusCode} ${res.body}`);
  }
  return { times, cpu: (cpuMs() - cpu0) / n };
}

function fuelio(rows: number, from: number): Buffer {
  const q = (cells: (string | number)[]) => cells.map((c) => `"${c}"`).join(',');
  const lines = [
    '"## Vehicle"',
    q(['Name', 'Description', 'DistUnit', 'FuelUnit']),
    q(['Bench', '', 0, 0]),
    '"## Log"',
    q([
      'Data',
      'Odo (km)',
      'Fuel (litres)',
      'Full',
      'Price (optional)',
      'l/100km (optional)',
      'Missed',
      'VolumePrice',
    ]),
  ];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(1990, 0, 1) + (from + i) * 86_400_000).toISOString().slice(0, 10);
    lines.push(q([day, 1000 + i * 500, '40.00', 1, '280.00', 0, 0, '7.00']));
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function confirm(s: Side, car: number, file: Buffer): Promise<number> {
  const boundary = '----evdrabench';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fuelio.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const t0 = performance.now();
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/import/confirm/${car}`,
    headers: { ...s.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  const ms = performance.now() - t0;
  if (res.statusCode !== 200 || res.json().counts.fuel !== ROWS)
    throw new Error(`confirm: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return ms;
}

async function run(kind: string, open: () => Promise<Database>) {
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const a = await side(await open());
  const b = await side(await open());
  try {
    // B: another user's webhook, so every write of B's user runs the webhook query and finds none of theirs.
    await addWebhook(b.app, await session(b.app, 'hookowner'), url);
    while (!a.app.webhookPresence.listening) await new Promise((r) => setTimeout(r, 10));
    const cars = { A: await newCar(a), B: await newCar(b) };
    const days = { A: { i: 0 }, B: { i: 0 } };
    const sides = { A: a, B: b };
    const times: Record<'A' | 'B', number[]> = { A: [], B: [] };
    const cpu: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (const label of ['A', 'B'] as const) await postFills(sides[label], cars[label], 30, days[label]); // warm
    for (let r = 0; r < SLICES; r++)
      for (const label of r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
        const slice = await postFills(sides[label], cars[label], POSTS, days[label]);
        times[label].push(median(slice.times));
        cpu[label].push(slice.cpu);
      }
    // emitEvent alone, as a fill-up's write runs it (the writer's audience; B: a webhook not theirs).
    const emitMs: number[] = [];
    for (let k = 0; k < 300; k++) {
      await b.database.db.transaction(async (tx) => {
        const t0 = performance.now();
        await emitEvent(tx, {
          event: 'record.created',
          kind: 'fuel',
          to: vehicleAudience(cars.B),
          data: { id: k, liters: 40 },
        });
        emitMs.push(performance.now() - t0);
      });
    }
    const [ma, mb] = [median(times.A), median(times.B)];
    const [ca, cb] = [median(cpu.A), median(cpu.B)];
    const slower = (m: Record<'A' | 'B', number[]>) => m.A.filter((a, i) => (m.B[i] as number) > a).length;
    console.log(
      `${kind.padEnd(9)} fill-up POST, ${SLICES} alternated pairs of ${POSTS}, medians of the slices' medians: ` +
        `A (no webhook anywhere) ${ma.toFixed(3)} ms, ${ca.toFixed(3)} ms CPU · B (another user's webhook) ${mb.toFixed(3)} ms, ${cb.toFixed(3)} ms CPU · ` +
        `B/A ${(mb / ma).toFixed(3)} wall, ${(cb / ca).toFixed(3)} CPU · B slower in ${slower(times)}/${SLICES} pairs (wall), ${slower(cpu)}/${SLICES} (CPU) · ` +
        `emitEvent alone ${median(emitMs).toFixed(3)} ms`,
    );

    // 2. The import: B's owner subscribes to record.created.
    await addWebhook(b.app, b.headers, url);
    const confirmMs: Record<'A' | 'B', number[]> = { A: [], B: [] };
    let drainMs = 0;
    for (let r = 0; r < IMPORTS; r++)
      for (const label of r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
        const s = sides[label];
        confirmMs[label].push(await confirm(s, await newCar(s), fuelio(ROWS, r * ROWS)));
        if (label === 'B') {
          const before = received;
          const t0 = performance.now();
          await b.app.webhookSender.drain();
          drainMs = performance.now() - t0;
          if (received - before !== ROWS) throw new Error(`delivered ${received - before}, not ${ROWS}`);
        }
      }
    console.log(
      `${kind.padEnd(9)} ${ROWS}-row import confirm, median of ${IMPORTS}: no webhook ${median(confirmMs.A).toFixed(0)} ms · ` +
        `subscribed to record.created ${median(confirmMs.B).toFixed(0)} ms (${signed((median(confirmMs.B) / median(confirmMs.A) - 1) * 100)}%) · ` +
        `its ${ROWS} deliveries sent in ${(drainMs / 1000).toFixed(1)} s`,
    );
  } finally {
    for (const s of [a, b]) {
      await s.app.close();
      await s.database.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
    receiver.close();
  }
}

await run('pglite', () => openPglite());
const admin = new pg.Client({ connectionString: PG_URL });
if (
  await admin.connect().then(
    () => true,
    () => false,
  )
) {
  const names: string[] = [];
  try {
    await run('postgres', async () => {
      const name = `evdra_bench_hooks_${process.pid}_${names.length}`;
      names.push(name);
      await admin.query(`create database ${name}`);
      return openPostgres(Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString(), 4);
    });
  } finally {
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else console.log('postgres  skipped: no server at BENCH_DATABASE_URL');
process.exit(0);
