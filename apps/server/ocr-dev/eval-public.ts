/**
 * Field accuracy of the receipt preview on a PUBLIC labelled receipt set (ICDAR 2019 SROIE: scanned
 * Malaysian shop receipts labelled with company, date, address, total). Each image goes through the
 * same OcrService.preview the route uses (preprocessing, the tesseract pool, extraction), as an
 * expense receipt; receipts from a filling station are also read as fuel. The labelled date and
 * total are compared with our `date` and `amount` (fuel: `fuelPrice`).
 *
 *   npm run eval:ocr:public -- <dir> [--n 100] [--seed dev] [--wrong] [--cache <dir>]
 *
 * <dir> holds the labels as key/<id>.json and the images as img/<id>.jpg (github.com/zzzDavid/
 * ICDAR-2019-SROIE, folder `data`), or both side by side (<id>.jpg + <id>.txt|json, the original
 * "0325updated.task2train(626p)" folder). Default: $OCR_PUBLIC_DIR. The set is never committed
 * and nothing is downloaded here; without it the script says how to get it and exits 0.
 *
 * --n / --seed choose the receipts: the files ordered by a hash of seed + name, the first n (the
 * same sample every run; a different seed is a held-out sample). --exclude <seed>:<n> leaves out
 * another sample's receipts (a tuning sample disjoint from the held-out one:
 * `--seed tune --n 100 --exclude held-out:60`; the overlap removed is printed); it may be repeated
 * (`--seed check --n 100 --exclude held-out:60 --exclude tune:250`). --cache keeps each receipt's raw
 * OCR text there and re-reads it on the next run: extraction-only runs (no latency figures) for
 * working on the extractors. The sample is drawn by sroie-sample.ts (the re-reading experiments,
 * reread-dates.ts and reread-score.ts, draw the same ones). OCR_REREAD=0 turns the second reading
 * of date boxes off (paddle-worker.ts), to compare.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import type { Principal } from '../src/modules/auth/auth.service.js';
import { createOcrEngine } from '../src/ocr/engines.js';
import { extract, type OcrKind } from '../src/ocr/extract.js';
import { OcrService } from '../src/ocr/ocr.service.js';
import { toLines } from '../src/ocr/text/lines.js';
import type { OcrEngine, OcrText } from '../src/ocr/worker-pool.js';
import { chooseSamples, findSamples, type Sample } from './sroie-sample.js';

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const positional = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const dir = positional[0] ?? process.env.OCR_PUBLIC_DIR;
const n = Number(opt('n') ?? 100);
const seed = opt('seed') ?? 'dev';
const showWrong = argv.includes('--wrong');
const cacheDir = opt('cache');
/** Every `--exclude <seed>:<n>` (repeatable: a check sample disjoint from both held-out and tuning). */
const excludes = argv.flatMap((a, i) => (a === '--exclude' && argv[i + 1] ? [argv[i + 1] as string] : []));

if (!dir || !existsSync(dir)) {
  process.stdout.write(
    [
      'No public receipt set here, so no figures.',
      'Get ICDAR 2019 SROIE (626 labelled receipts, ~340 MB) outside the repo, e.g.:',
      '  git clone --depth 1 https://github.com/zzzDavid/ICDAR-2019-SROIE /work/data/sroie',
      '  npm run eval:ocr:public -- /work/data/sroie/data',
      '(or set OCR_PUBLIC_DIR). The folder needs key/<id>.json and img/<id>.jpg.',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

const all = findSamples(dir);
const samples = chooseSamples(all, seed, n, excludes);
// What the excluded samples took out (printed with the figures).
const excluded = new Set(all.map((x) => x.id));
for (const x of chooseSamples(all, seed, all.length, excludes)) excluded.delete(x.id);
/** Filling stations (Malaysia: Shell, Petronas, Petron, Caltex, BHP): their receipts are also read as fuel. */
const STATION = /\b(SHELL|PETRONAS|PETRON|CALTEX|BHP|ESSO)\b/i;

const workers = Number(process.env.OCR_WORKERS ?? Math.min(2, availableParallelism()));
const pool = createOcrEngine({
  name: process.env.OCR_ENGINE === 'tesseract' ? 'tesseract' : 'paddle',
  workers,
  maxQueue: 10_000,
});
const principal = { userId: 1, role: 'user', familyId: 'eval' } as unknown as Principal;
const now = new Date();

type Outcome = {
  sample: Sample;
  kind: OcrKind;
  fields: Record<string, unknown> | null; // null: the preview failed (unreadable)
  error?: string;
  ms?: number;
};

/** One receipt through the route's preview (or through extraction alone when its OCR text is cached). */
async function run(sample: Sample, kind: OcrKind): Promise<Outcome> {
  const cached = cacheDir ? join(cacheDir, `${sample.id}.json`) : undefined;
  if (cached && existsSync(cached)) {
    const r = JSON.parse(readFileSync(cached, 'utf8')) as OcrText | { error: string };
    if ('error' in r) return { sample, kind, fields: null, error: r.error };
    const lines = toLines(r.text, r.lines.length ? r.lines : undefined);
    return { sample, kind, fields: extract(kind, lines).fields };
  }
  let seen: OcrText | undefined;
  const recording = {
    recognize: async (image: Buffer) => {
      seen = await pool.recognize(image);
      return seen;
    },
  } as unknown as OcrEngine;
  const service = new OcrService({
    pool: recording,
    vehicle: async () => ({ odometer: 0 }),
    language: async () => 'en',
    // Asked when a receipt prints no currency (OcrService since issue 50); dates and totals don't depend on it.
    currency: async () => 'EUR' as const,
    now: () => now,
  });
  const t0 = performance.now();
  try {
    const preview = await service.preview(principal, kind, 1, readFileSync(sample.image));
    const ms = performance.now() - t0;
    if (cached && seen) writeFileSync(cached, JSON.stringify(seen));
    return { sample, kind, fields: preview as unknown as Record<string, unknown>, ms };
  } catch (err) {
    const ms = performance.now() - t0;
    const error = (err as Error).message;
    if (cached) writeFileSync(cached, JSON.stringify({ error }));
    return { sample, kind, fields: null, error, ms };
  }
}

if (cacheDir) mkdirSync(cacheDir, { recursive: true });
const jobs: { sample: Sample; kind: OcrKind }[] = samples.flatMap((s) => [
  { sample: s, kind: 'expense' as const },
  ...(STATION.test(s.company) ? [{ sample: s, kind: 'fuel' as const }] : []),
]);
const outcomes: Outcome[] = [];
// As many previews at once as there are workers: each latency is one preview's, not queue time.
let next = 0;
await Promise.all(
  Array.from({ length: workers }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job) outcomes.push(await run(job.sample, job.kind));
    }
  }),
);
await pool.close();

type Tally = { labelled: number; right: number; missing: number; wrong: number };
const tally = new Map<string, Tally>();
const wrongs: string[] = [];
const amountField = (kind: OcrKind) => (kind === 'fuel' ? 'fuelPrice' : 'amount');
for (const o of outcomes.sort((a, b) => a.sample.id.localeCompare(b.sample.id))) {
  const checks: [string, unknown][] = [
    ['date', o.sample.date],
    [amountField(o.kind), o.sample.total],
  ];
  for (const [field, want] of checks) {
    if (want === null) continue; // a label we cannot read ourselves is not counted
    const key = `${o.kind}.${field}`;
    const t = tally.get(key) ?? { labelled: 0, right: 0, missing: 0, wrong: 0 };
    t.labelled++;
    const got = o.fields?.[field] ?? null;
    const ok =
      typeof want === 'number' ? typeof got === 'number' && Math.abs(got - want) < 0.005 : got === want;
    if (ok) t.right++;
    else if (got === null) t.missing++;
    else t.wrong++;
    if (!ok) wrongs.push(`${o.sample.id} ${key}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`);
    tally.set(key, t);
  }
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) : 0;
};
if (showWrong) process.stdout.write(`${wrongs.join('\n')}\n`);
const unreadable = outcomes.filter((o) => o.fields === null);
for (const o of unreadable) process.stdout.write(`unreadable ${o.sample.id} (${o.kind}): ${o.error}\n`);
process.stdout.write(
  `\n${basename(dir)}: ${samples.length} of ${all.length} receipts (seed "${seed}"${excluded.size ? `, without the ${excluded.size} of sample${excludes.length > 1 ? 's' : ''} ${excludes.join(' + ')}` : ''}), ${jobs.length} previews, ${workers} OCR workers${cacheDir ? `, OCR text cache ${cacheDir}` : ''}\n`,
);
process.stdout.write('field              labelled  right  missing  wrong  accuracy\n');
for (const [key, t] of [...tally.entries()].sort())
  process.stdout.write(
    `${key.padEnd(18)} ${String(t.labelled).padStart(8)} ${String(t.right).padStart(6)} ${String(t.missing).padStart(8)} ${String(t.wrong).padStart(6)}  ${pct(t.right, t.labelled).padStart(8)}\n`,
  );
process.stdout.write(`unreadable (preview failed): ${unreadable.length} of ${outcomes.length}\n`);
const ms = outcomes.flatMap((o) => (o.ms === undefined ? [] : [o.ms]));
if (ms.length)
  process.stdout.write(
    `preview latency over ${ms.length}: p50 ${Math.round(quantile(ms, 0.5))} ms, p95 ${Math.round(quantile(ms, 0.95))} ms\n`,
  );
else process.stdout.write('latency: none measured (every OCR text came from the cache)\n');
