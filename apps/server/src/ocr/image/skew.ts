/** How much a page's text lines slope, from the rows of dark pixels. */
import { otsu } from './paper.js';

/**
 * The text lines' slope in degrees (positive: lines fall to the right), by projection profiles:
 * the angle whose rotated row histogram of dark pixels is the most peaked. ±8° in 0.25° steps.
 */
export function skewAngle(data: Buffer, width: number, height: number): number {
  const step = Math.max(1, Math.round(width / 500));
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < data.length; i += 5) hist[data[i] ?? 0] = (hist[data[i] ?? 0] ?? 0) + 1;
  const t = otsu(
    hist,
    hist.reduce((a, b) => a + b, 0),
  );
  const xs: number[] = [];
  const ys: number[] = [];
  // The middle of the sheet only: the table around a tilted receipt would dominate the profile.
  for (let y = Math.floor(height * 0.1); y < height * 0.9; y += step)
    for (let x = Math.floor(width * 0.15); x < width * 0.85; x += step)
      if ((data[y * width + x] ?? 255) < t) {
        xs.push(x);
        ys.push(y);
      }
  if (xs.length < 50) return 0;
  const bin = step * 2;
  const rows = Math.ceil((height + width) / bin) + 2;
  let best = 0;
  let bestScore = -1;
  for (let a = -8; a <= 8.001; a += 0.25) {
    const tan = Math.tan((a * Math.PI) / 180);
    const counts = new Float64Array(rows);
    for (let i = 0; i < xs.length; i++) {
      const yy = ((ys[i] ?? 0) - (xs[i] ?? 0) * tan + width) / bin;
      counts[Math.floor(yy)] = (counts[Math.floor(yy)] ?? 0) + 1;
    }
    let score = 0;
    for (const c of counts) score += c * c;
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return best;
}
