/**
 * Field accuracy of the OCR engine on the development set (apps/server/ocr-dev/out, made by
 * generate.ts): per kind × language, the share of fields equal to the label.
 *   node --import tsx apps/server/ocr-dev/eval.ts [--only fuel-ro] [--verbose] [--cache <dir>]
 * --cache keeps each receipt's OCR lines there and re-reads them next time: extraction-only runs for
 * work on the extractors (delete the folder after changing preprocessing or the engine).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReceipt } from '../src/ocr/engine.js';
import { createOcrEngine } from '../src/ocr/engines.js';
import { extract } from '../src/ocr/extract.js';
import { type Line, normalize } from '../src/ocr/parse.js';
import type { Entry } from './generate.js';

const dir = process.env.OCR_DEV_DIR ?? join(import.meta.dirname, 'out');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const verbose = args.includes('--verbose');
const cacheDir = args.includes('--cache') ? args[args.indexOf('--cache') + 1] : undefined;
if (cacheDir) mkdirSync(cacheDir, { recursive: true });
const entries = (JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Entry[]).filter(
  (e) => !only || `${e.kind}-${e.lang}`.startsWith(only) || e.file.startsWith(only),
);

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

const pool = createOcrEngine({ workers: Number(process.env.OCR_WORKERS ?? 2), maxQueue: 10_000 });
const stats = new Map<string, { right: number; total: number; files: number; ms: number }>();
const byField = new Map<string, { right: number; total: number }>();
await Promise.all(
  entries.map(async (e) => {
    const t0 = performance.now();
    let fields: Record<string, unknown> = {};
    try {
      const cached = cacheDir ? join(cacheDir, `${e.file}.json`) : undefined;
      let lines: Line[];
      if (cached && existsSync(cached)) lines = JSON.parse(readFileSync(cached, 'utf8')) as Line[];
      else {
        lines = (await readReceipt(readFileSync(join(dir, e.file)), pool)).lines;
        if (cached) writeFileSync(cached, JSON.stringify(lines));
      }
      fields = extract(e.kind, lines).fields;
      if (verbose) process.stdout.write(`--- ${e.file}\n${lines.map((l) => l.text).join('\n')}\n`);
    } catch (err) {
      process.stdout.write(`${e.file}: ${(err as Error).message}\n`);
    }
    const key = `${e.kind} ${e.lang}`;
    const s = stats.get(key) ?? { right: 0, total: 0, files: 0, ms: 0 };
    s.files++;
    s.ms += performance.now() - t0;
    const wrong: string[] = [];
    for (const [f, want] of Object.entries(e.label)) {
      const ok = same(f, want, fields[f]);
      s.total++;
      if (ok) s.right++;
      else wrong.push(`${f}: want ${JSON.stringify(want)} got ${JSON.stringify(fields[f])}`);
      const bf = byField.get(`${e.kind}.${f}`) ?? { right: 0, total: 0 };
      bf.total++;
      if (ok) bf.right++;
      byField.set(`${e.kind}.${f}`, bf);
    }
    stats.set(key, s);
    if (wrong.length && (verbose || args.includes('--wrong')))
      process.stdout.write(`${e.file} (${e.style}): ${wrong.join('; ')}\n`);
  }),
);
await pool.close();

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
process.stdout.write('\nkind       lang  files  fields right  accuracy\n');
let R = 0;
let T = 0;
for (const key of [...stats.keys()].sort()) {
  const s = stats.get(key) as { right: number; total: number; files: number };
  R += s.right;
  T += s.total;
  const [kind, lang] = key.split(' ');
  process.stdout.write(
    `${(kind ?? '').padEnd(10)} ${(lang ?? '').padEnd(5)} ${String(s.files).padStart(5)}  ${String(s.total).padStart(6)} ${String(s.right).padStart(5)}  ${pct(s.right, s.total).padStart(8)}\n`,
  );
}
process.stdout.write(
  `all                ${String(entries.length).padStart(5)}  ${String(T).padStart(6)} ${String(R).padStart(5)}  ${pct(R, T).padStart(8)}\n\nper field:\n`,
);
for (const [f, s] of [...byField.entries()].sort())
  process.stdout.write(`  ${f.padEnd(26)} ${pct(s.right, s.total)}\n`);
