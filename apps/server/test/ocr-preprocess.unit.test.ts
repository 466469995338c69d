import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { flattenLight, wholePageStretches } from '../src/ocr/image/light.js';
import { prepareImage } from '../src/ocr/image/preprocess.js';

/** sharp's own chain, which flattenLight reproduces without running it on the whole page. */
async function sharpChain(pixels: Uint8Array, w: number, h: number) {
  const raw = { width: w, height: h, channels: 1 as const };
  const negative = await sharp(pixels, { raw }).blur(12).negate().raw().toBuffer({ resolveWithObject: true });
  return sharp(pixels, { raw })
    .composite([
      {
        input: negative.data,
        raw: { width: w, height: h, channels: negative.info.channels },
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

/** A page `w` × `h`: paper lit from the left and in shadow on the right, with dark ink strokes. */
function shadowedPage(w: number, h: number) {
  const pixels = new Uint8Array(w * h);
  const ink = (x: number, y: number) => y % 40 >= 10 && y % 40 < 16 && x % 30 < 20;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const paper = 230 - Math.round((120 * x) / w); // 230 on the left, 110 on the right
      pixels[y * w + x] = ink(x, y) ? Math.round(paper * 0.3) : paper;
    }
  return { pixels, ink };
}

describe('preprocessing: evening out the light', () => {
  it('turns paper in shadow as white as lit paper, while the ink stays dark', async () => {
    const w = 600;
    const h = 400;
    const { pixels, ink } = shadowedPage(w, h);
    const out = await flattenLight(pixels, w, h);
    const at = (x: number, y: number) => out[y * w + x] ?? 0;
    // Paper between the strokes, in the lit and in the shaded part of the page.
    expect(at(100, 30)).toBeGreaterThan(220);
    expect(at(500, 30)).toBeGreaterThan(220);
    // The middle of a stroke, on both sides.
    expect(ink(105, 53)).toBe(true);
    expect(at(105, 53)).toBeLessThan(90);
    expect(ink(495, 53)).toBe(true);
    expect(at(495, 53)).toBeLessThan(90);
  });

  it("gives sharp's own composite, normalise and linear chain byte for byte (its dodge from a table)", async () => {
    const w = 333;
    const h = 517;
    const { pixels } = shadowedPage(w, h);
    for (let i = 0; i < pixels.length; i += 7) pixels[i] = (i * 31) % 256; // every gray level, noise
    expect(Buffer.from(await flattenLight(pixels, w, h)).equals(await sharpChain(pixels, w, h))).toBe(true);
  });

  it('gives the same bytes on pages whose 1st percentile sits on the edge of a lightness bin', async () => {
    // The stretch's thresholds come from a histogram summed in single precision: pages with just
    // enough dark pixels to reach the 1st (2nd) percentile, one more, one fewer, and a brightest
    // pixel that is white or gray (it sets the top bin), in sizes whose rounding at the top differs.
    let differ = 0;
    const sizes = [
      [110, 110],
      [46, 109],
      [217, 43],
      [73, 150],
      [114, 347],
      [46, 65],
      [103, 233],
    ] as const;
    for (const [[w, h], top, k] of sizes.flatMap((size, i) => [
      [size, [255, 254, 200, 180][i % 4] ?? 255, (i % 3) - 1] as const,
    ])) {
      const n = w * h;
      const dark = Math.ceil((2 * n) / 100) + k;
      const pixels = new Uint8Array(n);
      for (let i = 0; i < n; i++) pixels[i] = i < dark ? 30 + (i % 40) : 100 + (i % (top - 99));
      if (!Buffer.from(await flattenLight(pixels, w, h)).equals(await sharpChain(pixels, w, h))) differ++;
    }
    expect(differ).toBe(0);
    // …from the calibration strip, never by running the chain over the page.
    expect(wholePageStretches.count).toBe(0);
  });

  it('gives the same bytes on real receipt photos', async () => {
    const dir = join(import.meta.dirname, 'fixtures/receipts');
    const photos = readdirSync(dir).filter((f) => f.endsWith('.jpg'));
    expect(photos.length).toBeGreaterThanOrEqual(5);
    for (const photo of photos) {
      const page = await prepareImage(readFileSync(join(dir, photo)));
      const before = page.unflattened ?? new Uint8Array();
      expect(Buffer.from(page.data).equals(await sharpChain(before, page.width, page.height)), photo).toBe(
        true,
      );
    }
  });

  it('hands the engine raw gray pixels of the page, never a full-size 12 MP image', async () => {
    const w = 4000;
    const h = 3000;
    // A light sheet with text-like rows on a dark table.
    const rgb = Buffer.alloc(w * h, 60);
    for (let y = 600; y < 2400; y++)
      for (let x = 1400; x < 2600; x++) rgb[y * w + x] = y % 60 < 12 && x % 50 < 35 ? 40 : 225;
    const jpeg = await sharp(rgb, { raw: { width: w, height: h, channels: 1 } })
      .jpeg({ quality: 85 })
      .toBuffer();
    const page = await prepareImage(jpeg);
    expect(page.data.length).toBe(page.width * page.height);
    expect(page.width).toBeLessThanOrEqual(1200);
    expect(page.height).toBeLessThanOrEqual(2600);
    // The sheet fills the page: most of it is white paper, not the dark table.
    let white = 0;
    for (const v of page.data) if (v > 200) white++;
    expect(white / page.data.length).toBeGreaterThan(0.6);
  });

  it('also hands the engine the same page before its light was flattened (date boxes are read again from it)', async () => {
    const w = 600;
    const h = 400;
    const { pixels } = shadowedPage(w, h);
    const jpeg = await sharp(pixels, { raw: { width: w, height: h, channels: 1 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const page = await prepareImage(jpeg);
    const before = page.unflattened;
    expect(before?.length).toBe(page.width * page.height);
    // The shadow is still in it: each column's mean on the right darker than on the left, far
    // more than on the flattened page.
    const mean = (d: Uint8Array | undefined, fx: number) => {
      let s = 0;
      for (let y = 0; y < page.height; y++) s += d?.[y * page.width + Math.round(page.width * fx)] ?? 0;
      return s / page.height;
    };
    expect(mean(before, 0.15) - mean(before, 0.85)).toBeGreaterThan(40);
    expect(Math.abs(mean(page.data, 0.15) - mean(page.data, 0.85))).toBeLessThan(
      mean(before, 0.15) - mean(before, 0.85),
    );
  });
});
