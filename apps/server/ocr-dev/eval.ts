/**
 * Field accuracy of the OCR engine on the development set (apps/server/ocr-dev/out, made by
 * generate.ts): per kind × language, the share of fields equal to the label, for the tuning part
 * and the held-out third (receipt index % 3 === 2, never used while tuning the extractors) apart;
 * per-field accuracy; and whether the consistency warnings fire on the previews whose numbers
 * disagree and on none of the others.
 *   node --import tsx apps/server/ocr-dev/eval.ts [--only fuel-ro] [--part tuning|held-out]
 *     [--verbose] [--wrong] [--show-held-out] [--cache <dir>]
 * --cache keeps each receipt's OCR lines there and re-reads them next time: extraction-only runs for
 * work on the extractors (delete the folder after changing preprocessing or the engine).
 * --verbose and --wrong print the OCR text and the wrong fields of tuning receipts only, unless
 * --show-held-out (for the final report, not for tuning).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOcrEngine } from '../src/ocr/engines.js';
import { extract, type RawWarning } from '../src/ocr/extract.js';
import { readReceipt } from '../src/ocr/read-receipt.js';
import { type Line, normalize } from '../src/ocr/text/lines.js';
import { type Entry, heldOut } from './dataset.js';

const dir = process.env.OCR_DEV_DIR ?? join(import.meta.dirname, 'out');
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = opt('--only');
const part = opt('--part');
const verbose = args.includes('--verbose');
const showHeldOut = args.includes('--show-held-out');
const cacheDir = opt('--cache');
if (cacheDir) mkdirSync(cacheDir, { recursive: true });
// Labels written before the held-out split have no index: it is the number in the file name.
const indexOf = (e: Entry) => e.index ?? Number(/-(\d+)\.\w+$/.exec(e.file)?.[1] ?? 0);
const entries = (JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Entry[])
  .map((e) => ({ ...e, index: indexOf(e) }))
  .filter((e) => !only || `${e.kind}-${e.lang}`.startsWith(only) || e.file.startsWith(only))
  .filter((e) => !part || (part === 'held-out') === heldOut(e));

const text = (v: unknown) =>
  normalize(String(v ?? ''))
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
function same(field: string, want: unknown, got: unknown): boolean {
  if (want === null || want === undefined) return got === null || got === undefined;
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(got - want) < 0.005;
  if (field === 'description' || field === 'provider' || field === 'policyNumber' || field === 'coverageType')
    return text(want) === text(got);
  return want === got;
}

// ── consistency ─────────────────────────────────────────────────────────────
/** Warnings that say the numbers on the preview disagree (any future *_MISMATCH code counts too). */
const isConsistencyWarning = (w: RawWarning) =>
  w.code === 'TOTAL_MISMATCH' || w.code === 'END_BEFORE_START' || /MISMATCH|INCONSISTENT/.test(w.code);

const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
/** start + n months − 1 day, as ISO. */
function termEnd(start: string, months: number): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1 + months, d - 1)).toISOString().slice(0, 10);
}

/**
 * Why a preview's own numbers disagree, or null: litres × price per litre against the total paid
 * (beyond 2 %), or a policy that ends before it starts or whose period is no usual term (1, 3, 6 or
 * 12 months less a day, give or take a day).
 */
function inconsistency(kind: string, f: Record<string, unknown>): string | null {
  if (kind === 'fuel') {
    const { liters: l, pricePerLiter: p, fuelPrice: t } = f;
    if (typeof l === 'number' && typeof p === 'number' && typeof t === 'number' && t > 0)
      return Math.abs(l * p - t) / t > 0.02 ? 'litres × price/L ≠ total' : null;
  }
  if (kind === 'insurance') {
    const { startDate: s, endDate: e } = f;
    if (typeof s === 'string' && typeof e === 'string') {
      if (e <= s) return 'end before start';
      const terms = [1, 3, 6, 12].map((m) => Math.abs(daysBetween(termEnd(s, m), e)));
      if (Math.min(...terms) > 1) return 'period is no 1/3/6/12-month term';
    }
  }
  return null;
}

// ── run ─────────────────────────────────────────────────────────────────────
type Result = {
  e: Entry & { index: number };
  right: Map<string, boolean>;
  bad: string | null;
  warned: boolean;
  /** The fields its consistency warnings point at. */
  warnedFields: string[];
};
const pool = createOcrEngine({
  name: process.env.OCR_ENGINE === 'tesseract' ? 'tesseract' : 'paddle',
  workers: Number(process.env.OCR_WORKERS ?? 2),
  maxQueue: 10_000,
});
const started = performance.now();
const results: Result[] = await Promise.all(
  entries.map(async (e): Promise<Result> => {
    let fields: Record<string, unknown> = {};
    let warnings: RawWarning[] = [];
    const show = !heldOut(e) || showHeldOut;
    try {
      const cached = cacheDir ? join(cacheDir, `${e.file}.json`) : undefined;
      let lines: Line[];
      if (cached && existsSync(cached)) lines = JSON.parse(readFileSync(cached, 'utf8')) as Line[];
      else {
        lines = (await readReceipt(readFileSync(join(dir, e.file)), pool)).lines;
        if (cached) writeFileSync(cached, JSON.stringify(lines));
      }
      ({ fields, warnings } = extract(e.kind, lines));
      // OcrService.preview adds this one after extraction; the eval judges the preview.
      if (
        typeof fields.startDate === 'string' &&
        typeof fields.endDate === 'string' &&
        fields.endDate < fields.startDate
      )
        warnings.push({ field: 'endDate', code: 'END_BEFORE_START' });
      if (verbose && show) process.stdout.write(`--- ${e.file}\n${lines.map((l) => l.text).join('\n')}\n`);
    } catch (err) {
      process.stdout.write(`${e.file}: ${(err as Error).message}\n`);
    }
    const right = new Map<string, boolean>();
    const wrong: string[] = [];
    for (const [f, want] of Object.entries(e.label)) {
      const ok = same(f, want, fields[f]);
      right.set(f, ok);
      if (!ok) wrong.push(`${f}: want ${JSON.stringify(want)} got ${JSON.stringify(fields[f])}`);
    }
    if (wrong.length && show && (verbose || args.includes('--wrong')))
      process.stdout.write(`${e.file} (${e.style}): ${wrong.join('; ')}\n`);
    return {
      e,
      right,
      bad: inconsistency(e.kind, fields),
      warned: warnings.some(isConsistencyWarning),
      warnedFields: warnings.filter(isConsistencyWarning).map((w) => w.field),
    };
  }),
);
await pool.close();
const wall = performance.now() - started;

// ── report ──────────────────────────────────────────────────────────────────
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const out = (s: string) => process.stdout.write(s);
const count = (rs: Result[]) => {
  let right = 0;
  let total = 0;
  for (const r of rs)
    for (const ok of r.right.values()) {
      total++;
      if (ok) right++;
    }
  return { right, total };
};

/** The kind × language table of one part, with the targets' verdict for the held-out part. */
function table(title: string, rs: Result[], targets: boolean) {
  out(`\n${title}\nkind       lang  files  fields right  accuracy\n`);
  const keys = [...new Set(rs.map((r) => `${r.e.kind} ${r.e.lang}`))].sort();
  let worst = 100;
  for (const key of keys) {
    const cell = rs.filter((r) => `${r.e.kind} ${r.e.lang}` === key);
    const c = count(cell);
    worst = Math.min(worst, (100 * c.right) / Math.max(1, c.total));
    const [kind, lang] = key.split(' ');
    out(
      `${(kind ?? '').padEnd(10)} ${(lang ?? '').padEnd(5)} ${String(cell.length).padStart(5)}  ${String(c.total).padStart(6)} ${String(c.right).padStart(5)}  ${pct(c.right, c.total).padStart(8)}${targets && (100 * c.right) / Math.max(1, c.total) < 80 ? '  < 80%' : ''}\n`,
    );
  }
  const all = count(rs);
  out(
    `all                ${String(rs.length).padStart(5)}  ${String(all.total).padStart(6)} ${String(all.right).padStart(5)}  ${pct(all.right, all.total).padStart(8)}\n`,
  );
  if (targets && rs.length)
    out(
      `targets: overall ≥ 90% ${(100 * all.right) / Math.max(1, all.total) >= 90 ? 'met' : 'NOT met'}; every cell ≥ 80% ${worst >= 80 ? 'met' : `NOT met (worst ${worst.toFixed(1)}%)`}\n`,
    );
}

const tuning = results.filter((r) => !heldOut(r.e));
const held = results.filter((r) => heldOut(r.e));
table('TUNING PART (index % 3 !== 2)', tuning, false);
table('HELD-OUT PART (index % 3 === 2: never tuned on)', held, true);

out('\nper field                   tuning  held-out\n');
const fieldKeys = [
  ...new Set(results.flatMap((r) => [...r.right.keys()].map((f) => `${r.e.kind}.${f}`))),
].sort();
for (const fk of fieldKeys) {
  const [kind, f] = fk.split('.') as [string, string];
  const acc = (rs: Result[]) => {
    const xs = rs.filter((r) => r.e.kind === kind && r.right.has(f)).map((r) => r.right.get(f));
    return pct(xs.filter(Boolean).length, xs.length);
  };
  out(`  ${fk.padEnd(26)} ${acc(tuning).padStart(6)}  ${acc(held).padStart(8)}\n`);
}

const inconsistent = results.filter((r) => r.bad);
const consistent = results.filter((r) => !r.bad);
const firedBad = inconsistent.filter((r) => r.warned).length;
const firedGood = consistent.filter((r) => r.warned).length;
out(
  `\nconsistency warning (TOTAL_MISMATCH, END_BEFORE_START, any *_MISMATCH):\n  fired on ${firedBad} of ${inconsistent.length} inconsistent previews (target: all)\n  fired on ${firedGood} of ${consistent.length} consistent previews (target: none)\n`,
);
// A warning whose numbers are not on the preview (net + VAT, the instalments) cannot be judged from
// the preview alone: say whether the field it points at was read wrong (the document's own numbers
// then disagree with the preview) or right.
const onWrong = consistent.filter((r) => r.warned && r.warnedFields.some((f) => r.right.get(f) === false));
out(
  `  of those, ${onWrong.length} point at a field read wrong (net + VAT or the instalments disagree with it), ${firedGood - onWrong.length} at a field read right\n`,
);
for (const r of results)
  if ((r.bad && !r.warned) || (!r.bad && r.warned))
    if (!heldOut(r.e) || showHeldOut)
      out(`  ${r.e.file}: ${r.bad ? `${r.bad}, no warning` : 'warning on a consistent preview'}\n`);
// Every receipt is queued at once, so a receipt's own time is mostly waiting: report the throughput.
out(
  `\n${results.length} receipts in ${(wall / 1000).toFixed(0)} s, ${(wall / 1000 / Math.max(1, results.length)).toFixed(2)} s per receipt with ${pool.size} OCR workers (cached OCR text is not re-read)\n`,
);
