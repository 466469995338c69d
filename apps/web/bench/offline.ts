// `npm run bench:offline`: the web app's real queue and sync engine (lib/offline, on IndexedDB via
// fake-indexeddb in Node) against the real built server (PGlite, fresh data dir, port 8333).
//
// 500 queued writes of mixed kinds (creates of fuel/expense/revision/insurance, vehicle edits with
// their version, record edits and deletes) are synced twice, by two users:
//   1. healthy connection: wall time to send all 500 (target < 30 s);
//   2. flaky connection: 20 % of requests fail, half before the server sees them and half after it
//      handled them (the answer is lost). Backoff waits are skipped with a fake clock.
// Then the server's rows are compared with what was queued: created, lost, duplicated (target 0/0).
// Figures only; it never fails on timing. Slower on a busy machine: say so with the figures.
import 'fake-indexeddb/auto';
// @ts-expect-error: plain JS helper shared with bench:lighthouse
import { startBenchServer } from '../../../scripts/bench-server.mjs';
// @ts-expect-error: plain JS helpers shared with the server benchmarks
import { session } from '../../server/bench/lib.mjs';
import { enqueue, listEntries, listIssues } from '../src/lib/offline/queue';
import { runQueue, type Send } from '../src/lib/offline/sync';

const PORT = Number(process.env.BENCH_OFFLINE_PORT ?? 8333);
const N = Number(process.env.BENCH_N ?? 500);
const FAIL_RATE = 0.2;

type Headers = Record<string, string>;
type Row = Record<string, unknown> & { id: number };

let seed = 42;
/** Deterministic random numbers: the same run every time. */
function random(): number {
  seed = (seed * 1664525 + 1013904223) % 4294967296;
  return seed / 4294967296;
}

async function http<T>(
  base: string,
  headers: Headers,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    // Like the app's api(): a JSON content type only with a JSON body.
    headers:
      body === undefined || body instanceof FormData
        ? Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'))
        : headers,
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok)
    throw Object.assign(new Error(data?.message ?? res.statusText), {
      status: res.status,
      code: data?.code,
      rawDetails: data?.details,
    });
  return data as T;
}

const day = (i: number) =>
  `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;

/** The body of the i-th created record of `kind` (each carries a unique marker to count copies). */
function recordBody(kind: string, vehicleId: number, i: number, tag: string): Record<string, unknown> {
  const marker = `${tag}-${i}`;
  switch (kind) {
    case 'fuel':
      return {
        vehicleId,
        fuelType: 'DIESEL',
        liters: i >= 10_000 ? 2000 + (i - 10_000) : 1000 + i,
        fuelPrice: 70 + i / 10,
        pricePerLiter: null,
        odometer: null,
        date: day(i),
        fullTank: true,
        missedPrevious: false,
      };
    case 'expense':
      return { vehicleId, date: day(i), expenseType: 'Other', amount: 10 + i, description: marker };
    case 'revision':
      return {
        vehicleId,
        date: day(i),
        km: 1000 * i,
        price: 100 + i,
        description: marker,
        reminderEnabled: false,
      };
    default:
      return {
        vehicleId,
        provider: 'Bench',
        policyNumber: marker,
        coverageType: 'RCA',
        startDate: '2025-01-01',
        endDate: '2025-12-31',
        price: 100 + i,
        reminderEnabled: false,
      };
  }
}

const KINDS = ['fuel', 'expense', 'revision', 'insurance'] as const;
const PATHS: Record<string, string> = {
  fuel: '/api/fuel-consumptions',
  expense: '/api/expenses',
  revision: '/api/revision',
  insurance: '/api/insurance',
};
/** The field whose value identifies a created record. */
const markerOf = (kind: string, r: Row) =>
  kind === 'fuel' ? String(r.liters) : kind === 'insurance' ? String(r.policyNumber) : String(r.description);
const markerOfBody = (kind: string, b: Record<string, unknown>) => markerOf(kind, b as Row);

interface Plan {
  creates: { kind: string; body: Record<string, unknown> }[];
  vehicleEdits: { id: number; model: string }[];
  recordEdits: { kind: string; id: number; body: Record<string, unknown> }[];
  deletes: { kind: string; id: number }[];
}

/** Vehicles and records made online first, then 500 writes queued as if offline. */
async function prepare(base: string, headers: Headers, userId: number, tag: string): Promise<Plan> {
  const vehicles: Row[] = [];
  for (let v = 0; v < 10; v++) {
    vehicles.push(
      await http<Row>(base, headers, 'POST', '/api/vehicles', {
        make: 'Bench',
        model: `M${v}`,
        year: 2015,
        fuelType: 'DIESEL',
        registrationNumber: `B-${v}-${tag}`.slice(0, 20),
        engineSize: 1.5,
        odometer: 1000,
        aiEvaluationConsent: false,
      }),
    );
  }
  // 240 existing records: 120 to edit, 120 to delete.
  const existing: { kind: string; id: number; body: Record<string, unknown> }[] = [];
  for (let i = 0; i < 240; i++) {
    const kind = KINDS[i % 4] as string;
    const body = recordBody(kind, (vehicles[i % 10] as Row).id, 10_000 + i, `${tag}-old`);
    const row = await http<Row>(base, headers, 'POST', PATHS[kind] as string, body);
    existing.push({ kind, id: row.id, body });
  }
  const plan: Plan = { creates: [], vehicleEdits: [], recordEdits: [], deletes: [] };
  const edits = existing.slice(0, 120);
  const deletes = existing.slice(120);
  // Interleave the kinds of writes in the queue: 250 creates, 10 vehicle edits, 120 edits, 120 deletes.
  let c = 0;
  let e = 0;
  let d = 0;
  for (let n = 0; n < N; n++) {
    const slot = n % 50;
    if (slot < 25) {
      const kind = KINDS[c % 4] as string;
      const body = recordBody(kind, (vehicles[c % 10] as Row).id, c, tag);
      plan.creates.push({ kind, body });
      await enqueue({ type: 'create', kind: kind as 'fuel', userId, payload: body });
      c++;
    } else if (slot === 25) {
      const v = vehicles[plan.vehicleEdits.length] as Row;
      const model = `Edited ${v.id}`;
      const payload = {
        make: v.make,
        model,
        year: v.year,
        fuelType: v.fuelType,
        registrationNumber: v.registrationNumber,
        engineSize: v.engineSize,
        odometer: v.odometer,
        aiEvaluationConsent: false,
      };
      plan.vehicleEdits.push({ id: v.id, model });
      await enqueue({
        type: 'update',
        kind: 'vehicle',
        userId,
        targetId: v.id,
        payload,
        baseVersion: v.version as number,
      });
    } else if (slot < 38) {
      const x = edits[e++] as (typeof existing)[number];
      const body = {
        ...x.body,
        ...(x.kind === 'fuel'
          ? { liters: 500 + e }
          : x.kind === 'insurance'
            ? { policyNumber: `${tag}-edit-${e}` }
            : { description: `${tag}-edit-${e}` }),
      };
      plan.recordEdits.push({ kind: x.kind, id: x.id, body });
      await enqueue({ type: 'update', kind: x.kind as 'fuel', userId, targetId: x.id, payload: body });
    } else {
      const x = deletes[d++] as (typeof existing)[number];
      plan.deletes.push({ kind: x.kind, id: x.id });
      await enqueue({ type: 'delete', kind: x.kind as 'fuel', userId, targetId: x.id });
    }
  }
  return plan;
}

/** What the server holds against the plan. */
async function check(base: string, headers: Headers, plan: Plan, vehicleIds: number[]) {
  const rows: Record<string, Row[]> = {};
  for (const kind of KINDS) {
    rows[kind] = [];
    for (const id of vehicleIds)
      rows[kind].push(...(await http<Row[]>(base, headers, 'GET', `${PATHS[kind]}/vehicle/${id}`)));
  }
  let created = 0;
  let lost = 0;
  let duplicated = 0;
  for (const { kind, body } of plan.creates) {
    const copies = (rows[kind] as Row[]).filter((r) => markerOf(kind, r) === markerOfBody(kind, body)).length;
    if (copies >= 1) created++;
    if (copies === 0) lost++;
    if (copies > 1) duplicated += copies - 1;
  }
  for (const { kind, id, body } of plan.recordEdits) {
    const row = (rows[kind] as Row[]).find((r) => r.id === id);
    if (!row || markerOf(kind, row) !== markerOfBody(kind, body)) lost++;
  }
  for (const { kind, id } of plan.deletes) if ((rows[kind] as Row[]).some((r) => r.id === id)) lost++;
  const vehicles = await http<Row[]>(base, headers, 'GET', '/api/vehicles');
  for (const { id, model } of plan.vehicleEdits)
    if (vehicles.find((v) => v.id === id)?.model !== model) lost++;
  return { created, lost, duplicated };
}

async function phase(base: string, name: string, flaky: boolean) {
  const tag = name.slice(0, 5);
  const headers: Headers = await session(base, `bench_${name}_${Date.now().toString(36)}`);
  const me = await http<{ id: number }>(base, headers, 'GET', '/api/auth/me');
  const plan = await prepare(base, headers, me.id, tag);
  const vehicleIds = [...new Set(plan.creates.map((c) => c.body.vehicleId as number))];
  const queued = (await listEntries(me.id)).length;

  let requests = 0;
  let serverMs = 0;
  let abortedBefore = 0;
  let abortedAfter = 0;
  const send: Send = async (method, path, { body, headers: extra }) => {
    requests++;
    const roll = flaky ? random() : 1;
    if (roll < FAIL_RATE / 2) {
      abortedBefore++;
      throw Object.assign(new Error('connection dropped before the request'), { status: 0 });
    }
    const t0 = performance.now();
    const answer = await http(base, { ...headers, ...extra }, method, path, body).finally(() => {
      serverMs += performance.now() - t0;
    });
    if (roll < FAIL_RATE) {
      abortedAfter++;
      throw Object.assign(new Error('connection dropped before the answer'), { status: 0 });
    }
    return answer;
  };
  let clock = Date.now();
  const started = performance.now();
  for (let runs = 0; runs < 10_000; runs++) {
    const r = await runQueue(me.id, send, { now: () => clock, random });
    if (r.retryAt === null) break;
    clock = r.retryAt; // skip the backoff wait
  }
  const seconds = (performance.now() - started) / 1000;
  const left = (await listEntries(me.id)).length;
  const issues = await listIssues(me.id);
  const codes = new Map<string, number>();
  for (const i of issues) {
    const k = `${i.entry.type} ${i.entry.kind} ${i.code}: ${i.message}`;
    codes.set(k, (codes.get(k) ?? 0) + 1);
  }
  if (codes.size > 0) console.log(name, 'issues:', Object.fromEntries(codes));
  const result = await check(base, headers, plan, vehicleIds);
  console.log(`${name}: ${(serverMs / 1000).toFixed(2)} s of the sync were HTTP round trips to the server`);
  return {
    name,
    queued,
    requests,
    abortedBefore,
    abortedAfter,
    seconds,
    httpSeconds: serverMs / 1000,
    left,
    issues: issues.length,
    ...result,
  };
}

const server = await startBenchServer(PORT);
const base: string = server.base;
try {
  const healthy = await phase(base, 'healthy', false);
  const flaky = await phase(base, 'flaky', true);
  console.log(
    '\nbench:offline: 500 queued writes (250 creates, 10 vehicle edits, 120 record edits, 120 deletes)',
  );
  console.log(
    'phase    queued requests dropped-before dropped-after sync-s http-s local-s  left issues created lost duplicated',
  );
  for (const r of [healthy, flaky]) {
    console.log(
      `${r.name.padEnd(8)} ${String(r.queued).padStart(6)} ${String(r.requests).padStart(8)} ${String(r.abortedBefore).padStart(14)} ${String(r.abortedAfter).padStart(13)} ${r.seconds.toFixed(2).padStart(6)} ${r.httpSeconds.toFixed(2).padStart(6)} ${(r.seconds - r.httpSeconds).toFixed(2).padStart(7)} ${String(r.left).padStart(5)} ${String(r.issues).padStart(6)} ${String(r.created).padStart(7)} ${String(r.lost).padStart(4)} ${String(r.duplicated).padStart(10)}`,
    );
  }
  console.log(
    `target: 0 lost, 0 duplicated; healthy sync of ${N} < 30 s → ${healthy.seconds < 30 ? 'met' : 'NOT met'} (${healthy.seconds.toFixed(2)} s)`,
  );
  console.log('(flaky sync-s excludes backoff waits, skipped with a fake clock)');
  console.log('http-s: waiting for the server; local-s: the queue itself (IndexedDB, bookkeeping)');
} finally {
  await server.stop();
}
