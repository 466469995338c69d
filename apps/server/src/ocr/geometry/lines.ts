/** Text boxes on the page grouped into lines along the page's slope, left to right within a line. */

export type Box = { x: number; y: number; w: number; h: number };
export type BoxText = { text: string; confidence: number; box: Box };
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
