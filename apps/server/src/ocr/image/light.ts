/** A page's light flattened: shadows, dim corners and the table turned white, the ink kept dark. */
import type { Sharp } from 'sharp';

type SharpFn = (input: Uint8Array, o: { raw: { width: number; height: number; channels: 1 | 3 } }) => Sharp;

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

/**
 * Flattens the light of a raw gray page: divided by a heavily blurred copy (a colour dodge with its
 * negative), so shadows, dim corners and the table turn white while the ink stays dark; then
 * contrast raised and lightness stretched between its 1st and 99th percentiles. Byte for byte what
 * sharp's composite → normalise → linear chain gives (a JS division was cheaper but its rounding
 * alone changed one SROIE total): the dodge from sharp's own table, the rest by sharp on the dodged
 * page as the sRGB image the chain normalised.
 */
export async function flattenLight(pixels: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const raw = { width, height, channels: 1 as const };
  const [table, negative] = await Promise.all([
    dodge(sharp),
    sharp(pixels, { raw }).blur(12).negate().extractChannel(0).raw().toBuffer(),
  ]);
  const n = width * height;
  const dodged = new Uint8Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const v = table[(negative[i] ?? 0) * 256 + (pixels[i] ?? 0)] ?? 0;
    dodged[j] = v;
    dodged[j + 1] = v;
    dodged[j + 2] = v;
  }
  return sharp(dodged, { raw: { width, height, channels: 3 } })
    .toColourspace('b-w')
    .normalise({ lower: 1, upper: 99 })
    .linear(1.3, -60)
    .extractChannel(0)
    .raw()
    .toBuffer();
}
