/** Where the paper and the text are in a photo: the sheet's bounding box, and the ink's. */

/** Otsu's threshold of an 8-bit histogram. */
export function otsu(hist: number[], total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (hist[i] ?? 0);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] ?? 0;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] ?? 0);
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/**
 * Where the text is: cells of a downscaled copy (darkest pixel of each block) with ink, i.e. pixels
 * clearly darker than their neighbourhood, in a share that text has (not empty, not a dark area),
 * next to another such cell; their bounding box with a margin. Null when too few cells have text.
 */
export function inkBox(data: Buffer | Uint8Array, width: number, height: number) {
  const f = Math.max(1, Math.ceil(Math.max(width, height) / 480));
  const sw = Math.floor(width / f);
  const sh = Math.floor(height / f);
  if (sw < 40 || sh < 40) return null;
  const small = new Uint8Array(sw * sh);
  for (let y = 0; y < sh; y++)
    for (let x = 0; x < sw; x++) {
      let min = 255;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * width + x * f;
        for (let dx = 0; dx < f; dx++) min = Math.min(min, data[row + dx] ?? 255);
      }
      small[y * sw + x] = min;
    }
  // The neighbourhood's mean (integral image, radius 6).
  const integral = new Float64Array((sw + 1) * (sh + 1));
  for (let y = 0; y < sh; y++) {
    let rowSum = 0;
    for (let x = 0; x < sw; x++) {
      rowSum += small[y * sw + x] ?? 0;
      integral[(y + 1) * (sw + 1) + x + 1] = (integral[y * (sw + 1) + x + 1] ?? 0) + rowSum;
    }
  }
  const r = 6;
  const CELL = 12;
  const cw = Math.ceil(sw / CELL);
  const ch = Math.ceil(sh / CELL);
  const inkCount = new Uint16Array(cw * ch);
  for (let y = 0; y < sh; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(sh, y + r + 1);
    for (let x = 0; x < sw; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(sw, x + r + 1);
      const sum =
        (integral[y1 * (sw + 1) + x1] ?? 0) -
        (integral[y0 * (sw + 1) + x1] ?? 0) -
        (integral[y1 * (sw + 1) + x0] ?? 0) +
        (integral[y0 * (sw + 1) + x0] ?? 0);
      const mean = sum / ((y1 - y0) * (x1 - x0));
      if (mean - (small[y * sw + x] ?? 0) > Math.max(14, mean * 0.22)) {
        const c = Math.floor(y / CELL) * cw + Math.floor(x / CELL);
        inkCount[c] = (inkCount[c] ?? 0) + 1;
      }
    }
  }
  const text = (cx: number, cy: number) => {
    if (cx < 0 || cy < 0 || cx >= cw || cy >= ch) return false;
    const share = (inkCount[cy * cw + cx] ?? 0) / (CELL * CELL);
    return share >= 0.04 && share <= 0.5;
  };
  let left = cw;
  let right = -1;
  let top = ch;
  let bottom = -1;
  let cells = 0;
  for (let cy = 0; cy < ch; cy++)
    for (let cx = 0; cx < cw; cx++) {
      if (!text(cx, cy) || !(text(cx - 1, cy) || text(cx + 1, cy))) continue;
      cells++;
      left = Math.min(left, cx);
      right = Math.max(right, cx);
      top = Math.min(top, cy);
      bottom = Math.max(bottom, cy);
    }
  if (cells < 12) return null;
  const mx = Math.round((right - left + 1) * CELL * f * 0.06);
  const my = Math.round((bottom - top + 1) * CELL * f * 0.06);
  return {
    left: Math.max(0, left * CELL * f - mx),
    top: Math.max(0, top * CELL * f - my),
    right: Math.min(width, (right + 1) * CELL * f + mx),
    bottom: Math.min(height, (bottom + 1) * CELL * f + my),
  };
}

/**
 * The bounding box of the paper: rows and columns where most pixels are brighter than Otsu's
 * threshold. Falls back to the whole image when no clear sheet stands out (a scan, a screenshot).
 */
export function paperBox(data: Buffer, width: number, height: number) {
  const whole = { left: 0, top: 0, right: width, bottom: height };
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < data.length; i += 7) hist[data[i] ?? 0] = (hist[data[i] ?? 0] ?? 0) + 1;
  const t0 = otsu(
    hist,
    hist.reduce((a, b) => a + b, 0),
  );
  // Anything clearly brighter than the table is paper, even in a shadow: halfway between the dark
  // class's mean and Otsu's threshold.
  let n = 0;
  let sum = 0;
  for (let i = 0; i <= t0; i++) {
    n += hist[i] ?? 0;
    sum += i * (hist[i] ?? 0);
  }
  const t = n > 0 ? (sum / n + t0) / 2 : t0;
  const rowBright = new Array<number>(height).fill(0);
  const colBright = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y += 2) {
    const row = y * width;
    for (let x = 0; x < width; x += 2) {
      if ((data[row + x] ?? 0) > t) {
        rowBright[y] = (rowBright[y] ?? 0) + 1;
        colBright[x] = (colBright[x] ?? 0) + 1;
      }
    }
  }
  const span = (counts: number[], step: number, full: number) => {
    let max = 0;
    for (const c of counts) max = Math.max(max, c);
    const min = max * 0.2;
    let a = -1;
    let b = -1;
    for (let i = 0; i < counts.length; i += step) {
      if ((counts[i] ?? 0) >= min) {
        if (a < 0) a = i;
        b = i;
      }
    }
    return a < 0 ? [0, full] : [a, Math.min(full, b + step)];
  };
  const [top = 0, bottom = height] = span(rowBright, 2, height);
  const [left = 0, right = width] = span(colBright, 2, width);
  const area = (right - left) * (bottom - top);
  if (area < width * height * 0.08 || area > width * height * 0.95) return whole;
  const mx = Math.round((right - left) * 0.04);
  const my = Math.round((bottom - top) * 0.06);
  return {
    left: Math.max(0, left - mx),
    top: Math.max(0, top - my),
    right: Math.min(width, right + mx),
    bottom: Math.min(height, bottom + my),
  };
}
