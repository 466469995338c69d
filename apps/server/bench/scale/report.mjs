// The scale bench's answer: the table (route × size × connections), each target of issue 54 checked,
// and the same as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fmt as fmtNumber } from '../lib.mjs';

/** A figure, or '–' for none (no answer within the run). */
const fmt = (n, d) => (n == null ? '–' : fmtNumber(n, d));

const LIMITS = { user: 50, market: 50, admin: 300 };
const RATING_MS = 20;
const WRITE_MEDIAN_MS = 15;
const GROWTH = 1.5;

/** Prints one row per route, size and connection count; big tables read by a Seq Scan are flagged. */
export function printTable(results, sizes, connections) {
  const head = ['route', 'size', 'conns', 'req/s', 'p50', 'p95', 'p99', 'rows', 'seq scan of a big table'];
  const lines = [];
  for (const name of Object.keys(results[sizes[0]].routes)) {
    for (const size of sizes) {
      const r = results[size].routes[name];
      if (!r) continue;
      for (const c of connections) {
        const l = r.loads[c];
        lines.push([
          name,
          size,
          String(c),
          fmt(l.rps),
          fmt(l.p50, 1),
          fmt(l.p95, 1),
          fmt(l.p99, 1),
          fmt(r.rows),
          r.seqScans.length ? `SEQ SCAN: ${r.seqScans.join(', ')}` : '',
        ]);
      }
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(row(head));
  for (const l of lines) console.log(row(l));
  for (const size of sizes)
    for (const [name, ms] of Object.entries(results[size].writes))
      console.log(`write ${name} (${size}): median ${fmt(ms, 1)} ms`);
}

/** Every target the run could check, met or not; `missing` lists the targets it cannot check. */
export function checkTargets(results, routes, connections) {
  const full = results.full;
  const small = results.small;
  const targets = [];
  const add = (what, met, figure) => targets.push({ what, met, figure });
  for (const route of routes) {
    const f = full.routes[route.name];
    const s = small.routes[route.name];
    for (const c of connections) {
      const p95 = f.loads[c].p95 ?? Number.POSITIVE_INFINITY;
      const limit = LIMITS[route.kind];
      const ratio = p95 / Math.max(s.loads[c].p95 ?? 0, 1);
      const growth = `${fmt(p95, 1)} ms, ${fmt(ratio, 2)}×`;
      if (route.kind === 'whole') add(`${route.name} @${c}: p95 ≤ ${GROWTH}× small`, ratio <= GROWTH, growth);
      else if (route.kind === 'user')
        add(
          `${route.name} @${c}: p95 ≤ ${limit} ms and ≤ ${GROWTH}× small`,
          p95 <= limit && ratio <= GROWTH,
          growth,
        );
      else add(`${route.name} @${c}: p95 ≤ ${limit} ms`, p95 <= limit, `${fmt(p95, 1)} ms`);
    }
    if (route.kind !== 'admin')
      add(
        `${route.name}: no seq scan of a big table`,
        f.seqScans.length === 0,
        f.seqScans.join(', ') || 'none',
      );
  }
  for (const [name, ms] of Object.entries(full.writes))
    add(`write ${name}: median ≤ ${WRITE_MEDIAN_MS} ms`, ms <= WRITE_MEDIAN_MS, `${fmt(ms, 1)} ms`);
  // A new listing's 201 answer carries its priceRating: the whole write bounds the rating's time.
  const listing = full.writes['a new listing'];
  if (listing !== undefined)
    add(
      `price rating of a new listing ≤ ${RATING_MS} ms`,
      listing <= RATING_MS,
      `${fmt(listing, 1)} ms, the write`,
    );
  const missing = [
    'reminder job: a night of ≈30,000 due items ≤ 60 s, reads ≤ 2× during it',
    'backup of the full set with RSS ≤ 300 MB; restore of the small set',
  ];
  return { targets, missing };
}

export function printTargets({ targets, missing }) {
  for (const t of targets) if (!t.met) console.log(`  not met: ${t.what} (${t.figure})`);
  for (const m of missing) console.log(`  not checked: ${m}`);
  console.log(`scale: ${targets.filter((t) => t.met).length} of ${targets.length} targets met`);
}

export function writeJson(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
