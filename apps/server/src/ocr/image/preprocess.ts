/** A phone photo made ready for the OCR: oriented, cropped to the paper, deskewed, scaled, light flattened. */
import type { OutputInfo } from 'sharp';
import type { GrayImage } from '../worker-pool.js';

// Refuse decompression bombs: 50 megapixels is beyond any phone photo.
const PIXEL_LIMIT = 50_000_000;
/** Work on at most this many pixels on the long side before finding the receipt (shrink-on-load). */
const WORK_SIDE = 2000;
/** The receipt is scaled to this width (text about 30 px high), or this height for long ones. */
const TARGET_WIDTH = 1200;
const MAX_HEIGHT = 2600;

export class UnreadableImageError extends Error {}

/**
 * Turns a phone photo into what tesseract reads best: EXIF orientation applied, cropped to the
 * bright paper on a darker background, grayscale, local contrast evened out (shadows, dim light),
 * and scaled so a 12 MP photo is never recognised at full size. Returns the raw gray pixels.
 */
export async function prepareImage(bytes: Buffer, stages?: Record<string, number>): Promise<GrayImage> {
  let tl = process.cpuUsage();
  const lap = (name: string) => {
    const c = process.cpuUsage();
    const t = (c.user + c.system) / 1000;
    if (stages) stages[name] = (stages[name] ?? 0) + t - (tl.user + tl.system) / 1000;
    tl = c;
  };
  const { default: sharp } = await import('sharp'); // on the first receipt, not at start-up
  let gray: { data: Buffer; info: OutputInfo };
  try {
    gray = await sharp(bytes, { limitInputPixels: PIXEL_LIMIT, failOn: 'error' })
      .rotate()
      .resize(WORK_SIDE, WORK_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new UnreadableImageError('The image could not be decoded.');
  }
  lap('decode');
  const { width, height } = gray.info;
  if (width < 50 || height < 50) throw new UnreadableImageError('The image is too small to read.');
  // The paper, unless the text sits in a clearly smaller part of it: a page small in the frame whose
  // shadow or a light table hid its edges from paperBox.
  const paper = paperBox(gray.data, width, height);
  const ink = inkBox(gray.data, width, height);
  const areaOf = (b: { left: number; top: number; right: number; bottom: number }) =>
    (b.right - b.left) * (b.bottom - b.top);
  // And never a paper box that cuts text off: it grows to take in ink well outside it.
  const grown = (p: typeof paper, i: typeof paper) => {
    const dx = width * 0.02;
    const dy = height * 0.02;
    return {
      left: i.left < p.left - dx ? i.left : p.left,
      top: i.top < p.top - dy ? i.top : p.top,
      right: i.right > p.right + dx ? i.right : p.right,
      bottom: i.bottom > p.bottom + dy ? i.bottom : p.bottom,
    };
  };
  const box = !ink ? paper : areaOf(ink) < areaOf(paper) * 0.7 ? ink : grown(paper, ink);
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  lap('find paper');
  const crop = await sharp(gray.data, { raw: { width, height, channels: 1 } })
    .extract({ left: box.left, top: box.top, width: w, height: h })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  lap('crop');
  const angle = skewAngle(crop, w, h);
  lap('skew angle');
  const straight =
    Math.abs(angle) < 0.3
      ? { data: crop, info: { width: w, height: h, channels: 1 } }
      : await sharp(crop, { raw: { width: w, height: h, channels: 1 } })
          .rotate(-angle, { background: '#000000' })
          .toColourspace('b-w')
          .raw()
          .toBuffer({ resolveWithObject: true });
  lap('rotate');
  const sw = straight.info.width;
  const sh = straight.info.height;
  const scale = Math.min(TARGET_WIDTH / sw, MAX_HEIGHT / sh, 2.5);
  const channels = straight.info.channels as 1 | 2 | 3 | 4;
  const tw = Math.round(sw * scale);
  const th = Math.round(sh * scale);
  const sized = await sharp(straight.data, { raw: { width: sw, height: sh, channels } })
    .resize(tw, th, { kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  lap('resize');
  const data = await flattenLight(sized, tw, th);
  lap('normalise');
  return { data, width: tw, height: th, unflattened: sized };
}

/** sRGB gray level → CIE L* (0–100), and back, as sharp's normalise() stretches lightness. */
/**
 * Flattens the light of a raw gray page: divided by a heavily blurred copy (a colour dodge with its
 * negative), so shadows, dim corners and the table turn white while the ink stays dark; then
 * contrast raised and lightness stretched between its 1st and 99th percentiles. The same sharp
 * operations as when the page went through PNG copies (the output is identical byte for byte: a JS
 * division was 170 ms cheaper but its rounding alone changed one SROIE total), on raw buffers.
 */
export async function flattenLight(pixels: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const raw = { width, height, channels: 1 as const };
  const negative = await sharp(pixels, { raw }).blur(12).negate().raw().toBuffer({ resolveWithObject: true });
  return sharp(pixels, { raw })
    .composite([
      {
        input: negative.data,
        raw: { width, height, channels: negative.info.channels },
        blend: 'colour-dodge',
      },
    ])
    .toColourspace('b-w')
    .normalise({ lower: 1, upper: 99 })
    .linear(1.3, -60)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

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

/** Otsu's threshold of an 8-bit histogram. */
function otsu(hist: number[], total: number): number {
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
 * The bounding box of the paper: rows and columns where most pixels are brighter than Otsu's
 * threshold. Falls back to the whole image when no clear sheet stands out (a scan, a screenshot).
 */
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
