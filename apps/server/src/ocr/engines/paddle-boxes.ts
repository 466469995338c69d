/** Text boxes from the PaddleOCR detector's probability map (DB post-processing). */
import type { Box } from '../geometry/lines.js';

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
