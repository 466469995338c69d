/**
 * The pure parts of reading a receipt with PaddleOCR's PP-OCRv4 models: text boxes from the
 * detector's probability map, CTC decoding of the recogniser's output, and boxes grouped into
 * lines. No I/O and no ONNX Runtime here, so they are unit-tested directly.
 */

import { findDates, normalize } from './parse.js';

export type Box = { x: number; y: number; w: number; h: number };
export type BoxText = { text: string; confidence: number; box: Box };

/**
 * Text regions of a DB detector's output (one probability per pixel, `width` × `height`): the
 * 4-connected components above `threshold` whose mean probability reaches `minScore`, each grown
 * by DB's unclip distance (area × ratio / perimeter), as axis-aligned boxes. The image is deskewed
 * before detection, so rotated boxes would buy nothing here.
 */
export function boxesFromProbMap(
  prob: Float32Array,
  width: number,
  height: number,
  { threshold = 0.3, minScore = 0.55, unclip = 1.6, minSide = 3 } = {},
): Box[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const out: Box[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || (prob[start] ?? 0) <= threshold) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let n = 0;
    while (top > 0) {
      const i = stack[--top] ?? 0;
      const x = i % width;
      const y = (i - x) / width;
      sum += prob[i] ?? 0;
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const push = (j: number) => {
        if (!seen[j] && (prob[j] ?? 0) > threshold) {
          seen[j] = 1;
          stack[top++] = j;
        }
      };
      if (x > 0) push(i - 1);
      if (x < width - 1) push(i + 1);
      if (y > 0) push(i - width);
      if (y < height - 1) push(i + width);
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < minSide || sum / n < minScore) continue;
    const d = (w * h * unclip) / (2 * (w + h));
    const bx = Math.max(0, x0 - d);
    const by = Math.max(0, y0 - d);
    out.push({
      x: bx,
      y: by,
      w: Math.min(width, x1 + 1 + d) - bx,
      h: Math.min(height, y1 + 1 + d) - by,
    });
  }
  return out;
}

/** The recogniser's classes (blank first, then the dictionary, then a space) it may answer with. */
export function allowedClasses(dictionary: string[]): { chars: string[]; allowed: Uint8Array } {
  const chars = ['', ...dictionary, ' '];
  const allowed = new Uint8Array(chars.length);
  // Latin script, digits and receipt punctuation only: the Chinese model otherwise reads a faded
  // O as a Greek omicron or a CJK look-alike, which no label regex would match.
  const ok = /^[\u0020-\u007e\u00a0-\u024f°º№€£]$/u;
  for (let i = 0; i < chars.length; i++) allowed[i] = i === 0 || ok.test(chars[i] ?? '') ? 1 : 0;
  return { chars, allowed };
}

/**
 * Greedy CTC decoding of one sequence of `steps` × `classes` probabilities, restricted to `allowed`:
 * the text, its mean confidence, and each character's probability (at its surest step).
 */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  chars: string[],
  allowed: Uint8Array,
): { text: string; confidence: number; probs: number[] } {
  let text = '';
  let sum = 0;
  let n = 0;
  let prev = -1;
  const charProbs: number[] = [];
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = -1;
    for (let c = 0; c < classes; c++) {
      const p = probs[base + c] ?? 0;
      if (p > bestP && allowed[c]) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      const c = chars[best] ?? '';
      text += c;
      for (let k = 0; k < c.length; k++) charProbs.push(bestP);
      sum += bestP;
      n++;
    } else if (best !== 0 && charProbs.length) {
      // The same character over several steps: as sure as its surest step.
      charProbs[charProbs.length - 1] = Math.max(charProbs[charProbs.length - 1] ?? 0, bestP);
    }
    prev = best;
  }
  return { text, confidence: n ? sum / n : 0, probs: charProbs };
}

/**
 * Text boxes → lines, top to bottom: a box joins the line whose vertical middle is within half a
 * text height of its own, after the page's slope is taken out (a photo's tilt puts a value on the
 * right a line higher or lower than its label on the left). Within a line the boxes go left to
 * right, joined by one space, or by three where the gap is wide (a column: "Litros   Precio/L
 * Importe"), the way tesseract's preserved inter-word spaces look.
 */
export function groupLines(items: BoxText[], slope = textSlope(items)): (BoxText & { parts: BoxText[] })[] {
  return linesAt(items, slope).map((l) => {
    const parts = l.parts.sort((a, b) => a.box.x - b.box.x);
    let text = '';
    let right = -1;
    for (const p of parts) {
      if (right >= 0) text += p.box.x - right > p.box.h * 1.2 ? '   ' : ' ';
      text += p.text;
      right = p.box.x + p.box.w;
    }
    const x = Math.min(...parts.map((p) => p.box.x));
    const y = Math.min(...parts.map((p) => p.box.y));
    const box = {
      x,
      y,
      w: Math.max(...parts.map((p) => p.box.x + p.box.w)) - x,
      h: Math.max(...parts.map((p) => p.box.y + p.box.h)) - y,
    };
    const chars = parts.reduce((s, p) => s + p.text.length, 0);
    const confidence = parts.reduce((s, p) => s + p.confidence * p.text.length, 0) / Math.max(1, chars);
    return { text, confidence, box, parts };
  });
}

type Grouped = { mid: number; h: number; parts: BoxText[]; mids: number[] };

/** The boxes grouped into lines along `slope` (dy/dx), top to bottom. */
function linesAt(items: BoxText[], slope: number): Grouped[] {
  const mid = (b: Box) => b.y + b.h / 2 - slope * (b.x + b.w / 2);
  const sorted = [...items].sort((a, b) => mid(a.box) - mid(b.box));
  const lines: Grouped[] = [];
  for (const it of sorted) {
    const m = mid(it.box);
    const line = lines.find((l) => Math.abs(l.mid - m) < Math.min(l.h, it.box.h) * 0.5);
    if (line) {
      line.parts.push(it);
      line.mids.push(m);
      line.mid = (line.mid * (line.parts.length - 1) + m) / line.parts.length;
    } else lines.push({ mid: m, h: it.box.h, parts: [it], mids: [m] });
  }
  return lines.sort((a, b) => a.mid - b.mid);
}

/**
 * The slope (dy/dx) the text lines still have on the page: the one, within ±6 %, along which the
 * boxes fall into the fewest and tightest lines. Level (0) unless another slope does better.
 */
export function textSlope(items: BoxText[]): number {
  if (items.length < 6) return 0;
  const cost = (slope: number) => {
    const lines = linesAt(items, slope);
    let spread = 0;
    for (const l of lines) for (const m of l.mids) spread += Math.abs(m - l.mid) / Math.max(1, l.h);
    return lines.length + spread;
  };
  const level = cost(0);
  let best = { slope: 0, cost: level };
  for (let s = -0.06; s <= 0.06 + 0.0001; s += 0.005) {
    const c = cost(s);
    if (c < best.cost) best = { slope: s, cost: c };
  }
  // A slope must join more boxes than level lines do.
  return best.cost < level - 1 ? best.slope : 0;
}

/**
 * A box's text that may hold a date, however misread: dd?mm?yy(yy) with any separators (a letter
 * for a digit or a month in the middle: "25B412017", "02/1a0/2017", "03/0:/2018"), eight digits
 * with a year, yyyy-mm-dd, or a date label or a month's name with digits. Such boxes are read a
 * second time (paddle-worker.ts).
 */
export function mayHoldDate(text: string): boolean {
  return (
    /(?<!\d)\d{1,2}\s?[^\s\dA-Z]{1,2}\s?[\dA-Z]{1,2}\s?[^\s\dA-Z]{1,2}\s?(?:\d{4}|\d{2})(?!\d)|(?<!\d)\d{2}[/.-]?\d{2}[/.-]?(?:19|20)\d{2}(?!\d)|(?<!\d)(?:19|20)\d{2}\s?[^\s\dA-Z]{1,2}\s?\d{1,2}\s?[^\s\dA-Z]{1,2}\s?\d{1,2}(?!\d)/i.test(
      text,
    ) ||
    ((text.match(/\d/g) ?? []).length >= 3 &&
      /DATE|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC/i.test(text))
  );
}

/** Of two digits a faded print turns into one another, the one with more ink (fading takes strokes away). */
export const INKIER: Record<string, string> = {
  '38': '8',
  '08': '8',
  '68': '8',
  '89': '8',
  '58': '8',
  '56': '6',
  '59': '9',
  '17': '7',
  '49': '9',
};

/**
 * The reading of a box that may hold a date, from its first reading and its re-readings (other
 * crops of the same box): the date most readings agree on, when the first reading's is not it.
 * A tie between two dates one look-alike digit apart goes to the inkier digit ("2013" and "2018":
 * the 8); any other tie to the first reading. A date only one re-reading found counts only when
 * no reading found another one. Null: keep the first reading.
 */
export function chooseDateReading(first: string, rereads: string[]): string | null {
  const dateOf = (t: string) => findDates(normalize(t))[0]?.iso ?? null;
  const own = dateOf(first);
  const votes = new Map<string, number>();
  const texts = new Map<string, string>();
  for (const t of [first, ...rereads]) {
    const d = dateOf(t);
    if (!d) continue;
    votes.set(d, (votes.get(d) ?? 0) + 1);
    if (!texts.has(d)) texts.set(d, t);
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top) return null;
  let win = top[0];
  if (next && next[1] === top[1]) {
    const diff = [...top[0]].flatMap((c, i) => (c !== next[0][i] ? [[c, next[0][i]].sort().join('')] : []));
    const inkier = diff.length === 1 ? INKIER[diff[0] ?? ''] : undefined;
    if (inkier) win = [...top[0]].some((c, i) => c !== next[0][i] && c === inkier) ? top[0] : next[0];
    else if (own && votes.get(own) === top[1]) win = own;
    else return null;
  }
  if (win === own) return null;
  if ((votes.get(win) ?? 0) < 2 && (own || ranked.length > 1)) return null;
  return texts.get(win) ?? null;
}
