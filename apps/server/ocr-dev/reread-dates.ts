/**
 * Experiments on re-reading the date's crop of SROIE receipts whose OCR text is cached (by
 * eval-public.ts --cache): each word that may hold a date read again from other crops (the page
 * before light flattening, a wider or narrower box), the readings saved as JSON for analysis.
 *
 *   node --import tsx apps/server/ocr-dev/reread-dates.ts <dir> --cache <dir> --out <file.json> [sample options of eval-public]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mayHoldDate } from '../src/ocr/engines/date-reread.js';
import { readBoxes } from '../src/ocr/engines/paddle-worker.js';
import type { Box } from '../src/ocr/geometry/lines.js';
import { prepareImage } from '../src/ocr/image/preprocess.js';
import type { GrayImage, OcrText } from '../src/ocr/worker-pool.js';
import { chooseSamples, findSamples } from './sroie-sample.js';

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dir = argv[0] ?? '';
const cacheDir = opt('cache') ?? '';
const outFile = opt('out') ?? '/tmp/reread.json';
const excludes = argv.flatMap((a, i) => (a === '--exclude' && argv[i + 1] ? [argv[i + 1] as string] : []));
const samples = chooseSamples(findSamples(dir), opt('seed') ?? 'dev', Number(opt('n') ?? 100), excludes);

const candidate = mayHoldDate;

/** The box's part of `data` as its own image, its gray levels stretched between the 2nd and 98th percentile. */
function stretched(data: Uint8Array, w: number, h: number, b: Box): { page: GrayImage; box: Box } {
  const x0 = Math.max(0, Math.floor(b.x));
  const y0 = Math.max(0, Math.floor(b.y));
  const x1 = Math.min(w, Math.ceil(b.x + b.w));
  const y1 = Math.min(h, Math.ceil(b.y + b.h));
  const cw = Math.max(1, x1 - x0);
  const ch = Math.max(1, y1 - y0);
  const out = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) out[y * cw + x] = data[(y0 + y) * w + x0 + x] ?? 255;
  const sorted = [...out].sort((a, c) => a - c);
  const lo = sorted[Math.floor(sorted.length * 0.02)] ?? 0;
  const hi = sorted[Math.floor(sorted.length * 0.98)] ?? 255;
  const k = 255 / Math.max(1, hi - lo);
  for (let i = 0; i < out.length; i++)
    out[i] = Math.max(0, Math.min(255, Math.round(((out[i] ?? 0) - lo) * k)));
  return { page: { data: out, width: cw, height: ch }, box: { x: b.x - x0, y: b.y - y0, w: b.w, h: b.h } };
}

const pad = (b: Box, fy: number, fx: number): Box => ({
  x: b.x - b.h * fx,
  y: b.y - b.h * fy,
  w: b.w + 2 * b.h * fx,
  h: b.h * (1 + 2 * fy),
});

type R = { text: string; confidence: number; probs: number[] };
const results: {
  id: string;
  date: string | null;
  words: { line: number; word: number; text: string; readings: Record<string, R> }[];
}[] = [];
let done = 0;
for (const s of samples) {
  let cached: OcrText | { error: string };
  try {
    cached = JSON.parse(readFileSync(join(cacheDir, `${s.id}.json`), 'utf8'));
  } catch {
    continue;
  }
  if ('error' in cached) continue;
  const words = cached.lines.flatMap((l, li) =>
    (l.words ?? []).flatMap((w, wi) =>
      candidate(w.text) ? [{ line: li, word: wi, text: w.text, box: w.box }] : [],
    ),
  );
  const rec: (typeof results)[number] = { id: s.id, date: s.date, words: [] };
  if (words.length) {
    const page = await prepareImage(readFileSync(s.image));
    const unfl: GrayImage = { data: page.unflattened ?? page.data, width: page.width, height: page.height };
    const boxes = words.map((w) => w.box);
    const variants: Record<string, R[]> = {
      orig: await readBoxes(page, boxes),
      unfl: await readBoxes(unfl, boxes),
      pad: await readBoxes(
        page,
        boxes.map((b) => pad(b, 0.15, 0.3)),
      ),
      unflpad: await readBoxes(
        unfl,
        boxes.map((b) => pad(b, 0.15, 0.3)),
      ),
      shrink: await readBoxes(
        page,
        boxes.map((b) => pad(b, -0.08, 0)),
      ),
      unflst: [],
    };
    for (const b of boxes) {
      const st = stretched(unfl.data, unfl.width, unfl.height, pad(b, 0.1, 0.2));
      variants.unflst?.push(...(await readBoxes(st.page, [st.box])));
    }
    words.forEach((w, k) => {
      const readings: Record<string, R> = {};
      for (const [name, rs] of Object.entries(variants)) {
        const r = rs[k];
        if (r) readings[name] = { text: r.text.trim(), confidence: r.confidence, probs: r.probs };
      }
      rec.words.push({ line: w.line, word: w.word, text: w.text, readings });
    });
  }
  results.push(rec);
  if (++done % 20 === 0) process.stderr.write(`${done}/${samples.length}\n`);
}
writeFileSync(outFile, JSON.stringify(results));
process.stdout.write(
  `${results.length} receipts, ${results.reduce((n, r) => n + r.words.length, 0)} words -> ${outFile}\n`,
);
