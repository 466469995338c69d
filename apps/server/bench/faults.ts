// `npm run bench:faults`: faults tried as a power cut and an outage would, against the built server.
// 1. PGlite: ROUNDS (default 5) SIGKILLs under WRITERS (default 4) concurrent writers; after each, the
//    server starts again on the same DATA_DIR (every other time with the leftover lock naming a live
//    process that is not Evdra) and every acknowledged write is looked for.
// 2. PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, when it answers):
//    the same writers through a TCP proxy on loopback that is cut for OUTAGE_MS (default 5000) and
//    restored: answers by status (503 vs 500), requests with no answer in 10 s (hangs), what
//    /api/health/ready said, time to serve again, acknowledged writes missing.
// Prints figures and one summary line; exits 1 when a contract is broken (a lost write, a start
// refused, a 500, a hang), never on time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  builtEntry,
  type Entry,
  type KillRound,
  type OutageReport,
  pgliteKillRounds,
  postgresOutage,
  sourceEntry,
} from '../test/helpers/faults.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WRITERS = Number(process.env.WRITERS ?? 4);
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 5_000);
const CUTS = Number(process.env.CUTS ?? 3);
// BENCH_FROM_SOURCE=1 runs src/main.ts through tsx (no build needed).
const entry: Entry = process.env.BENCH_FROM_SOURCE ? sourceEntry : builtEntry;

const statuses = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ') || '-';

async function pgliteBench(): Promise<{ rounds: KillRound[]; baselineMs?: number; broken: string[] }> {
  console.log(
    `PGlite: ${ROUNDS} SIGKILLs under ${WRITERS} concurrent writers (expenses), restart after each`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-faults-'));
  let baselineMs: number | undefined;
  try {
    const rounds = await pgliteKillRounds({
      entry,
      dataDir,
      rounds: ROUNDS,
      writers: WRITERS,
      killAfterAcks: Number(process.env.KILL_AFTER_ACKS ?? 100),
      onBaseline: (ms) => {
        baselineMs = ms;
        console.log(
          `  baseline: served ${ms} ms after a clean stop (SIGTERM) and start on the same directory`,
        );
      },
      log: (r, i) =>
        console.log(
          `  round ${i + 1}: ${r.acked} acknowledged, ${r.missing} missing after restart; lock named ${r.lockNamed}; ` +
            `served again after ${r.reopenMs} ms; answers ${statuses(r.status)}`,
        ),
    });
    const broken = rounds.flatMap((r, i) =>
      r.missing ? [`PGlite round ${i + 1}: ${r.missing} acknowledged writes missing`] : [],
    );
    return { rounds, baselineMs, broken };
  } catch (err) {
    // The first lines say why (a server that exited prints its own error after them).
    const why = (err as Error).message.split('\n').slice(0, 4).join(' | ');
    return { rounds: [], baselineMs, broken: [`PGlite: ${why}`] };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresBench(): Promise<{ report?: OutageReport; broken: string[] }> {
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL: ${new URL(PG_URL).host} does not answer, skipped`);
    return { broken: [] };
  }
  const name = `evdra_bench_faults_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-bench-faults-'));
  console.log(
    `PostgreSQL: ${WRITERS} writers, the database cut ${CUTS} times for ${OUTAGE_MS} ms each through a loopback proxy`,
  );
  try {
    const r = await postgresOutage({
      entry,
      databaseUrl: url.toString(),
      dataDir,
      writers: WRITERS,
      outageMs: OUTAGE_MS,
      cuts: CUTS,
    });
    console.log(`  before the first cut: ${statuses(r.before)}`);
    console.log(`  during:         ${statuses(r.during)} (slowest answer ${r.slowestDuringMs} ms)`);
    console.log(`  after:          ${statuses(r.after)}`);
    console.log(`  /api/health/ready during the cut: ${statuses(r.readyDuring)}`);
    console.log(
      `  hangs (no answer in 10 s): ${r.hangs}; 503 without Retry-After or the error shape: ${r.badUnavailable}`,
    );
    console.log(
      `  after the database returned (slowest of ${r.cuts}): writes succeed after ${r.writeRecoverMs} ms, ready after ${r.readyRecoverMs} ms`,
    );
    console.log(`  acknowledged ${r.acked}, missing ${r.missing}`);
    const all = { ...r.before };
    for (const phase of [r.during, r.after])
      for (const [s, n] of Object.entries(phase)) all[s] = (all[s] ?? 0) + n;
    const broken = [
      ...Object.keys(all)
        .filter((s) => s !== '201' && s !== '503')
        .map((s) => `PostgreSQL: ${all[s]} answers ${s}`),
      ...(r.hangs ? [`PostgreSQL: ${r.hangs} requests hung`] : []),
      ...(r.badUnavailable ? [`PostgreSQL: ${r.badUnavailable} 503s without Retry-After/shape`] : []),
      ...(r.missing ? [`PostgreSQL: ${r.missing} acknowledged writes missing`] : []),
      ...(r.writeRecoverMs < 0 ? ['PostgreSQL: writes never succeeded again'] : []),
      ...(r.readyRecoverMs < 0 ? ['PostgreSQL: never ready again'] : []),
      ...(r.readyDuring['200'] ? ['PostgreSQL: ready said 200 while the database was away'] : []),
    ];
    return { report: r, broken };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// KINDS=pglite or KINDS=postgres runs one of the two.
const kinds = (process.env.KINDS ?? 'pglite,postgres').split(',');
const lite = kinds.includes('pglite') ? await pgliteBench() : { rounds: [], broken: [] };
const post = kinds.includes('postgres') ? await postgresBench() : { broken: [] };
const broken = [...lite.broken, ...post.broken];
const acked = lite.rounds.reduce((n, r) => n + r.acked, 0);
const missing = lite.rounds.reduce((n, r) => n + r.missing, 0);
const reopen = lite.rounds.map((r) => r.reopenMs).sort((a, b) => a - b);
const p = 'report' in post ? post.report : undefined;
const pgPart = p
  ? `PostgreSQL ${CUTS} outages of ${OUTAGE_MS / 1000} s: ${p.during['503'] ?? 0}×503, ${p.during['500'] ?? 0}×500, ${p.hangs} hangs, ` +
    `serving again ${p.writeRecoverMs} ms after its return, ${p.missing}/${p.acked} acknowledged missing`
  : 'PostgreSQL skipped';
console.log(
  `\nSummary: PGlite ${lite.rounds.length}/${ROUNDS} SIGKILLs reopened (median ${reopen[Math.floor(reopen.length / 2)] ?? '-'} ms; after a clean stop ${lite.baselineMs ?? '-'} ms), ` +
    `${missing}/${acked} acknowledged writes missing; ${pgPart}; ${broken.length ? `BROKEN: ${broken.join('; ')}` : 'every contract held'}`,
);
process.exit(broken.length ? 1 : 0);
