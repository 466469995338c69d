/**
 * What the currency re-read (src/ocr/currency-reread.ts) costs a preview: the same photos previewed
 * without it (A) and with it (B), alternating A B B A per round in one process on one warmed-up
 * PaddleOCR worker, so load drifts hit both alike. Per photo: the median wall time of each, the
 * difference, whether B read the row again, and the currency each proposed.
 *   node --import tsx apps/server/ocr-dev/bench-currency.ts [--rounds 3] [more photos…]
 * By default the API tests' photos (test/fixtures/receipts and its currency/ folder).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OcrKind } from '@evdra/domain';
import { OcrPool } from '../src/ocr/engines/tesseract-pool.js';
import { createOcrEngine } from '../src/ocr/engines.js';
import { OcrService } from '../src/ocr/ocr.service.js';
import type { OcrEngine } from '../src/ocr/worker-pool.js';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const given = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures', 'receipts');
const photos = given.length
  ? given
  : [
      ...readdirSync(fixtures)
        .filter((f) => f.endsWith('.jpg'))
        .map((f) => join(fixtures, f)),
      ...readdirSync(join(fixtures, 'currency')).map((f) => join(fixtures, 'currency', f)),
    ];
const kindOf = (file: string): OcrKind => {
  const name = file.split('/').pop() ?? '';
  if (/^fuel/.test(name)) return 'fuel';
  if (/^(revision|service)/.test(name)) return 'revision';
  if (/^insurance/.test(name)) return 'insurance';
  return 'expense';
};

const pool = createOcrEngine({ name: 'paddle' });
const tesseract = new OcrPool({ size: 1, langs: ['eng'], recycleAfter: 500, maxQueue: 8 });
let rereads = 0;
/** Each re-read's own time (the tesseract job the preview waits for), apart from the previews' noise. */
const rereadMs: number[] = [];
const counted: OcrEngine = {
  recognize: async (image) => {
    rereads++;
    const t = performance.now();
    try {
      return await tesseract.recognize(image);
    } finally {
      rereadMs.push(performance.now() - t);
    }
  },
  warmUp: () => tesseract.warmUp(),
  close: () => tesseract.close(),
  size: 1,
  pending: 0,
};
const deps = {
  pool,
  vehicle: async () => ({ odometer: 0 }),
  language: async () => 'en' as const,
  currency: async () => 'RON' as const,
  now: () => new Date(),
};
const A = new OcrService(deps);
const B = new OcrService({ ...deps, currencyReader: counted });
const mb = () => Math.round(process.memoryUsage().rss / 1048576);
await pool.warmUp();
const rssPaddle = mb();
const t0 = performance.now();
await tesseract.warmUp();
const startMs = performance.now() - t0;
const rssBoth = mb();
const principal = { userId: 1, role: 'USER' } as never;

type Run = { ms: number; currency: unknown; reread: boolean };
const runs = new Map<string, { A: Run[]; B: Run[] }>();
const once = async (s: OcrService, file: string): Promise<Run> => {
  const bytes = readFileSync(file);
  const before = rereads;
  const t0 = performance.now();
  const p = await s.preview(principal, kindOf(file), 1, bytes);
  return { ms: performance.now() - t0, currency: p.currency, reread: rereads > before };
};
// One untimed preview of each first: the worker's first shapes and caches.
for (const f of photos) await once(B, f);
for (let r = 0; r < rounds; r++)
  for (const f of photos) {
    const got = runs.get(f) ?? { A: [], B: [] };
    runs.set(f, got);
    const order = r % 2 === 0 ? (['A', 'B', 'B', 'A'] as const) : (['B', 'A', 'A', 'B'] as const);
    for (const which of order) got[which].push(await once(which === 'A' ? A : B, f));
  }
await pool.close();
await tesseract.close();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const out = (s: string) => process.stdout.write(s);
out(
  `tesseract (eng) worker: started in ${startMs.toFixed(0)} ms, RSS ${rssPaddle} MB → ${rssBoth} MB (+${rssBoth - rssPaddle} MB)\n`,
);
out(`\n${rounds} rounds × A B B A (A: no re-read, B: re-read), median ms per preview\n`);
out('photo                          A ms    B ms   B−A ms  re-read  currency A → B\n');
const groups = { reread: [] as number[], plain: [] as number[] };
for (const [file, { A: a, B: b }] of runs) {
  const ma = median(a.map((x) => x.ms));
  const mb = median(b.map((x) => x.ms));
  const reread = b.some((x) => x.reread);
  (reread ? groups.reread : groups.plain).push(mb - ma);
  out(
    `${(file.split('/').pop() ?? '').padEnd(28)} ${ma.toFixed(0).padStart(6)}  ${mb.toFixed(0).padStart(6)}  ${(mb - ma).toFixed(0).padStart(7)}  ${(reread ? 'yes' : 'no').padStart(7)}  ${String(a[0]?.currency)} → ${String(b[0]?.currency)}\n`,
  );
}
out(
  `re-read itself (tesseract on the cropped rows, ${rereadMs.length} runs): median ${median(rereadMs).toFixed(0)} ms, max ${Math.max(0, ...rereadMs).toFixed(0)} ms\n`,
);
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
out(
  `\nmean B−A: ${mean(groups.reread).toFixed(0)} ms on the ${groups.reread.length} photos read again, ${mean(groups.plain).toFixed(0)} ms on the ${groups.plain.length} not read again\n`,
);
