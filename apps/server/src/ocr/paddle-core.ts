/**
 * The pure parts of reading a receipt with PaddleOCR's PP-OCRv4 models: text boxes from the
 * detector's probability map, CTC decoding of the recogniser's output, and boxes grouped into
 * lines. No I/O and no ONNX Runtime here, so they are unit-tested directly.
 */

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

/** Greedy CTC decoding of one sequence of `steps` × `classes` probabilities, restricted to `allowed`. */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  chars: string[],
  allowed: Uint8Array,
): { text: string; confidence: number } {
  let text = '';
  let sum = 0;
  let n = 0;
  let prev = -1;
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
      text += chars[best] ?? '';
      sum += bestP;
      n++;
    }
    prev = best;
  }
  return { text, confidence: n ? sum / n : 0 };
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
