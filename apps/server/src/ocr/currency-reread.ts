/**
 * The € or £ PaddleOCR cannot read, read again by tesseract: the recogniser's character set
 * (ppocr_keys_v1) has no € and no £, so on a photo "TOTAL 4,50 €" comes out as "TOTAL 4,50" (the
 * sign dropped, or read as C, E, e, f). When a photo's reading found no currency, or only a weak
 * one, the row of the page holding the amount paid is read again by tesseract's English model,
 * which has both signs, within a time budget.
 */
import type { CurrencyCode } from '@evdra/domain';
import { NOT_TOTAL, TOTAL } from './fields/total.js';
import { currencyMarks } from './text/currencies.js';
import { type Line, normalize } from './text/lines.js';
import { amounts } from './text/numbers.js';
import type { GrayImage, OcrBox, OcrEngine } from './worker-pool.js';

/** At most this many rows are read again (the amount paid's and another total's): one small image. */
const MAX_ROWS = 2;

const holds = (l: Line, paid: number) => amounts(l.text).some((a) => Math.abs(a - paid) < 0.005);
const isTotal = (l: Line) => TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm);

/**
 * The lines whose row is read again: those that print the amount paid (a total's line first), or,
 * with no amount paid known, the totals' lines that print an amount. Lines without a box (a PDF's
 * text) cannot be cropped.
 */
export function rowsToReread(lines: Line[], paid: number | null | undefined): Line[] {
  const boxed = lines.filter((l) => l.box);
  const found =
    typeof paid === 'number'
      ? boxed.filter((l) => holds(l, paid))
      : boxed.filter((l) => isTotal(l) && amounts(l.text).length > 0);
  return found.sort((a, b) => Number(isTotal(b)) - Number(isTotal(a))).slice(0, MAX_ROWS);
}

/**
 * Where a line's sign may be: around the word holding the amount paid (a sign stands right before
 * or after it, maybe apart from it, outside the box PaddleOCR found), else the page's whole row;
 * a little taller than the line.
 */
export function regionOf(
  l: Line,
  paid: number | null | undefined,
  page: { width: number; height: number },
): OcrBox {
  const b = l.box as OcrBox;
  const word =
    typeof paid === 'number'
      ? l.words?.find((w) => amounts(w.text).some((a) => Math.abs(a - paid) < 0.005))
      : undefined;
  const top = Math.max(0, Math.floor(b.y - 0.3 * b.h));
  const bottom = Math.min(page.height, Math.ceil(b.y + 1.3 * b.h));
  if (!word) return { x: 0, y: top, w: page.width, h: bottom - top };
  const margin = 3 * word.box.h;
  const left = Math.max(0, Math.floor(word.box.x - margin));
  const right = Math.min(page.width, Math.ceil(word.box.x + word.box.w + margin));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** The regions of the page, one under the other with a white gap, as a PNG. */
export async function regionsImage(page: GrayImage, regions: OcrBox[]): Promise<Buffer> {
  const { data, width } = page;
  const gap = Math.ceil(0.4 * Math.max(...regions.map((r) => r.h)));
  const w = Math.max(...regions.map((r) => r.w));
  const h = regions.reduce((s, r) => s + r.h + gap, gap);
  const out = new Uint8Array(w * h).fill(255);
  let y = gap;
  for (const r of regions) {
    for (let row = 0; row < r.h; row++) {
      const from = (r.y + row) * width + r.x;
      out.set(data.subarray(from, from + r.w), (y + row) * w);
    }
    y += r.h + gap;
  }
  const { default: sharp } = await import('sharp');
  return sharp(out, { raw: { width: w, height: h, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * The currency tesseract's lines print beside an amount (a sign or code, no bare "$": that one
 * PaddleOCR reads itself), a line with the amount paid counting double; how sure: the line's
 * confidence, less when the amount paid is not on it.
 */
export function currencyInRows(
  rows: { text: string; confidence: number }[],
  paid: number | null | undefined,
): { value: CurrencyCode; conf: number } | undefined {
  const score = new Map<CurrencyCode, { score: number; conf: number }>();
  for (const row of rows) {
    const withPaid = typeof paid === 'number' && amounts(row.text).some((a) => Math.abs(a - paid) < 0.005);
    const sure = Math.max(0, Math.min(0.9, row.confidence)) * (withPaid ? 1 : 0.8);
    for (const m of currencyMarks(normalize(row.text))) {
      if (m.place !== 'amount' || m.weight < 1) continue;
      const s = score.get(m.code) ?? { score: 0, conf: 0 };
      score.set(m.code, { score: s.score + (withPaid ? 2 : 1) * sure, conf: Math.max(s.conf, sure) });
    }
  }
  let best: [CurrencyCode, { score: number; conf: number }] | undefined;
  for (const entry of score) if (!best || entry[1].score > best[1].score) best = entry;
  // Two currencies beside amounts on the same rows: less sure of either.
  return best && { value: best[0], conf: best[1].conf * (score.size > 1 ? 0.6 : 1) };
}

/** Below this, a currency read by PaddleOCR is weak enough to read its row again. */
export const WEAK_CURRENCY = 0.5;

/** The time a preview waits for the re-read at most (ms); a slower one is dropped, not awaited. */
export const REREAD_BUDGET_MS = 2500;

/**
 * The currency the rows with the amount paid print, read by `reader` (tesseract) within `budgetMs`;
 * undefined when there is no row to read, nothing was found, the reader is busy, failed or too
 * slow: the preview then goes on without (never failing for it).
 */
export async function rereadCurrency(o: {
  lines: Line[];
  paid: number | null | undefined;
  page: GrayImage;
  reader: OcrEngine;
  budgetMs?: number;
}): Promise<{ value: CurrencyCode; conf: number } | undefined> {
  const rows = rowsToReread(o.lines, o.paid);
  if (!rows.length) return undefined;
  const image = await regionsImage(
    o.page,
    rows.map((l) => regionOf(l, o.paid, o.page)),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), o.budgetMs ?? REREAD_BUDGET_MS);
  });
  try {
    // Not awaited past the budget: its failure then is nobody's (no unhandled rejection).
    const job = o.reader.recognize(image).catch(() => undefined);
    const read = await Promise.race([job, late]);
    return read ? currencyInRows(read.lines, o.paid) : undefined;
  } finally {
    clearTimeout(timer);
  }
}
