/** A page's light flattened: shadows, dim corners and the table turned white, the ink kept dark. */
import type { Sharp } from 'sharp';

type SharpFn = (input: Uint8Array, o: { raw: { width: number; height: number; channels: 1 | 3 } }) => Sharp;

const GRAYS = Array.from({ length: 256 }, (_, v) => v);
/** Gray pixels as the sRGB image sharp's chain worked on (three equal channels). */
function asRgb(gray: ArrayLike<number>): Uint8Array {
  const rgb = new Uint8Array(gray.length * 3);
  for (let i = 0, j = 0; i < gray.length; i++, j += 3) {
    const v = gray[i] ?? 0;
    rgb[j] = v;
    rgb[j + 1] = v;
    rgb[j + 2] = v;
  }
  return rgb;
}

/**
 * sharp's colour-dodge of a gray pixel (x) under a blurred negative (y), as a 256 × 256 table made
 * by sharp itself once per process. The dodge is pixel by pixel, so looking it up gives the same
 * bytes as compositing the page (which cost ~0.4 s of CPU a page: sharp composites in RGBA floats).
 */
let dodgeTable: Promise<Uint8Array> | undefined;
function dodge(sharp: SharpFn): Promise<Uint8Array> {
  dodgeTable ??= (async () => {
    const base = new Uint8Array(256 * 256);
    const over = Buffer.alloc(256 * 256 * 3); // the negative is sRGB, as sharp hands it over
    for (let n = 0; n < 256; n++)
      for (let p = 0; p < 256; p++) {
        base[n * 256 + p] = p;
        over.fill(n, (n * 256 + p) * 3, (n * 256 + p) * 3 + 3);
      }
    return sharp(base, { raw: { width: 256, height: 256, channels: 1 } })
      .composite([{ input: over, raw: { width: 256, height: 256, channels: 3 }, blend: 'colour-dodge' }])
      .toColourspace('b-w')
      .extractChannel(0)
      .raw()
      .toBuffer();
  })();
  return dodgeTable;
}

/** The contrast and stretch that follow the dodge, as sharp chains them (linear runs before normalise). */
const stretchChain = (sharp: SharpFn, gray: ArrayLike<number>, width: number, height: number) =>
  sharp(asRgb(gray), { raw: { width, height, channels: 3 } })
    .toColourspace('b-w')
    .normalise({ lower: 1, upper: 99 })
    .linear(1.3, -60)
    .extractChannel(0)
    .raw()
    .toBuffer();

/**
 * The whole-number L* that sharp's normalise files each dodged gray level under: its L* after
 * linear(1.3, -60), by sharp's own conversions, once per process.
 */
let lightnessBins: Promise<Uint8Array> | undefined;
function binOf(sharp: SharpFn): Promise<Uint8Array> {
  lightnessBins ??= (async () => {
    const raw = { width: 256, height: 1, channels: 3 as const };
    const linear = await sharp(asRgb(GRAYS), { raw }).linear(1.3, -60).extractChannel(0).raw().toBuffer();
    const lab = await sharp(asRgb(GRAYS), { raw }).toColourspace('lab').raw({ depth: 'float' }).toBuffer();
    const L = new Float32Array(lab.buffer, lab.byteOffset, lab.length / 4);
    return Uint8Array.from(GRAYS, (v) => Math.trunc(L[3 * (linear[v] ?? 0)] ?? 0));
  })();
  return lightnessBins;
}

/**
 * normalise({ lower: 1, upper: 99 })'s two thresholds for a page of this gray histogram, worked out
 * as libvips does (vips_percent on the L* band): a histogram of whole L* up to the largest seen,
 * its running sum scaled to that largest bin in single precision and truncated, the first bin
 * above lower% (upper%) of the bin count, or the bin count when none is.
 */
function thresholds(hist: ArrayLike<number>, bin: Uint8Array): [number, number] {
  const bins = new Float64Array(256);
  let n = 0;
  let top = 0;
  for (let v = 0; v < 256; v++) {
    const count = hist[v] ?? 0;
    if (!count) continue;
    const b = bin[v] ?? 0;
    bins[b] = (bins[b] ?? 0) + count;
    n += count;
    top = Math.max(top, b);
  }
  const scale = Math.fround(top / n);
  const at = (percent: number) => {
    let sum = 0;
    for (let b = 0; b <= top; b++) {
      sum += bins[b] ?? 0;
      if (Math.trunc(Math.fround(scale * sum)) > (percent / 100) * (top + 1)) return b;
    }
    return top + 1;
  };
  return [at(1), at(99)];
}

/**
 * What the stretch chain makes of each gray level on a page of this histogram. The chain is pixel by
 * pixel once its two thresholds are known, so it runs on a small calibration strip instead of the
 * page: one pixel of each level the page holds, the rest at the page's lower threshold, its length
 * chosen so that its thresholds are the page's (a few hundred pixels would do, but the lower
 * threshold needs the levels' single pixels under 1 % of the strip, and the top the rounding below). (The page itself cost ~0.2 s of CPU: sharp went to
 * L*a*b* and back in floats three times over it.) Undefined if no strip fits.
 */
async function stretchTable(sharp: SharpFn, hist: ArrayLike<number>): Promise<Uint8Array | undefined> {
  const bin = await binOf(sharp);
  const [low, high] = thresholds(hist, bin);
  const present = GRAYS.filter((v) => hist[v]);
  const fill = present.find((v) => (bin[v] ?? 0) >= low) ?? present.at(-1) ?? 0;
  // Down from just under 100 · 2⁹ pixels: there the top bin's share, rounded to single precision,
  // falls either side of the bin count as lengths go, so one of them rounds as the page did.
  for (let length = 51_199; length > 26_000; length--) {
    const strip = new Float64Array(256);
    for (const v of present) strip[v] = 1;
    strip[fill] = (strip[fill] ?? 0) + length - present.length;
    const [l, h] = thresholds(strip, bin);
    if (l !== low || h !== high) continue;
    const pixels = new Uint8Array(length).fill(fill);
    pixels.set(present);
    const out = await stretchChain(sharp, pixels, length, 1);
    const table = new Uint8Array(256);
    present.forEach((v, i) => {
      table[v] = out[i] ?? 0;
    });
    return table;
  }
  return undefined;
}

/** Pages whose stretch ran on the whole page because no calibration strip fitted (for the tests: none). */
export const wholePageStretches = { count: 0 };

/**
 * Flattens the light of a raw gray page: divided by a heavily blurred copy (a colour dodge with its
 * negative), so shadows, dim corners and the table turn white while the ink stays dark; then
 * contrast raised and lightness stretched between its 1st and 99th percentiles. Byte for byte what
 * sharp's composite → normalise → linear chain gives (a JS division was cheaper but its rounding
 * alone changed one SROIE total): the dodge from sharp's own table, the stretch from sharp's own
 * chain run on a calibration strip (stretchTable).
 */
export async function flattenLight(pixels: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const raw = { width, height, channels: 1 as const };
  const [table, negative] = await Promise.all([
    dodge(sharp),
    sharp(pixels, { raw }).blur(12).negate().extractChannel(0).raw().toBuffer(),
  ]);
  const n = width * height;
  const dodged = new Uint8Array(n);
  const hist = new Float64Array(256);
  for (let i = 0; i < n; i++) {
    const v = table[(negative[i] ?? 0) * 256 + (pixels[i] ?? 0)] ?? 0;
    dodged[i] = v;
    hist[v] = (hist[v] ?? 0) + 1;
  }
  const stretch = await stretchTable(sharp, hist);
  if (!stretch) {
    wholePageStretches.count++;
    return stretchChain(sharp, dodged, width, height);
  }
  for (let i = 0; i < n; i++) dodged[i] = stretch[dodged[i] ?? 0] ?? 0;
  return dodged;
}
