import sharp from 'sharp';
import { rng } from './receipts.js';

export type PhotoStyle = 'scan' | 'photo' | 'hard' | '12mp';

/**
 * Makes a rendered receipt look photographed by a phone: laid on a table, rotated, sheared
 * (a cheap perspective), lit unevenly (a shadow gradient), dimmed, blurred, noisy and saved as a
 * JPEG. '12mp' is a 4000×3000 photo; some photos are stored sideways with an EXIF orientation.
 */
export async function photograph(svg: string, seed: number, style: PhotoStyle): Promise<Buffer> {
  const r = rng(seed * 13 + 5);
  const sheet = await sharp(Buffer.from(svg)).png().toBuffer();
  const meta = await sharp(sheet).metadata();
  const w0 = meta.width ?? 800;
  const h0 = meta.height ?? 1000;
  if (style === 'scan') {
    return sharp(sheet)
      .rotate(r.next() * 2 - 1, { background: '#ffffff' })
      .blur(0.4)
      .jpeg({ quality: 85 })
      .toBuffer();
  }

  // Uneven light: a dark corner fading across the sheet.
  const angle = r.int(0, 359);
  const depth = style === 'hard' ? 0.45 + r.next() * 0.2 : 0.15 + r.next() * 0.2;
  const shadow = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w0}" height="${h0}"><defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="rgb(${Math.round(255 * (1 - depth))},${Math.round(255 * (1 - depth))},${Math.round(255 * (1 - depth * 0.9))})"/><stop offset=".7" stop-color="#fff"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const lit = await sharp(sheet)
    .composite([{ input: shadow, blend: 'multiply' }])
    .png()
    .toBuffer();

  // The table, and the receipt on it, rotated and sheared.
  const big = style === '12mp';
  const W = big ? 4000 : 1600;
  const H = big ? 3000 : 2000;
  const portrait = !big;
  const canvasW = portrait ? W : W;
  const canvasH = portrait ? H : H;
  const targetH = Math.round(canvasH * (0.72 + r.next() * 0.18));
  const scale = Math.min(targetH / h0, (canvasW * 0.8) / w0);
  const rot = (r.next() * 2 - 1) * (style === 'hard' ? 6 : 4);
  const shx = (r.next() * 2 - 1) * 0.05;
  const shy = (r.next() * 2 - 1) * 0.03;
  const table = r.pick(['#6b4f3a', '#3c3f44', '#8a8f96', '#2e2a26', '#a08060']);
  const placed = await sharp(lit)
    .resize(Math.round(w0 * scale), Math.round(h0 * scale))
    .affine(
      [
        [1, shx],
        [shy, 1],
      ],
      { background: '#00000000' },
    )
    .rotate(rot, { background: '#00000000' })
    .png()
    .toBuffer();
  const pm = await sharp(placed).metadata();
  const pw = Math.min(pm.width ?? 0, canvasW);
  const ph = Math.min(pm.height ?? 0, canvasH);
  const fitted =
    pw < (pm.width ?? 0) || ph < (pm.height ?? 0)
      ? await sharp(placed).resize(pw, ph, { fit: 'inside' }).png().toBuffer()
      : placed;
  const fm = await sharp(fitted).metadata();
  const left = Math.max(0, Math.round((canvasW - (fm.width ?? 0)) * (0.2 + r.next() * 0.6)));
  const top = Math.max(0, Math.round((canvasH - (fm.height ?? 0)) * (0.2 + r.next() * 0.6)));

  // Sensor noise at a quarter resolution, scaled up (grain), overlaid softly.
  const nw = Math.ceil(canvasW / 2);
  const nh = Math.ceil(canvasH / 2);
  const noise = Buffer.alloc(nw * nh);
  const amp = style === 'hard' ? 70 : 40;
  for (let i = 0; i < noise.length; i++) noise[i] = 128 + Math.round((r.next() - 0.5) * amp);
  const grain = await sharp(noise, { raw: { width: nw, height: nh, channels: 1 } })
    .resize(canvasW, canvasH)
    .toColourspace('srgb')
    .png()
    .toBuffer();

  const brightness = style === 'hard' ? 0.55 + r.next() * 0.2 : 0.8 + r.next() * 0.2;
  const blur = style === 'hard' ? 1 + r.next() * 0.8 : big ? 1 + r.next() * 1.2 : 0.4 + r.next() * 0.8;
  let img = sharp({ create: { width: canvasW, height: canvasH, channels: 3, background: table } })
    .composite([
      { input: fitted, left, top },
      { input: grain, blend: 'soft-light' },
    ])
    .png();
  img = sharp(await img.toBuffer())
    .blur(blur)
    .modulate({ brightness });
  const sideways = r.chance(0.3);
  if (sideways) {
    // Stored as the sensor saw it (sideways) with EXIF orientation 6 telling viewers to turn it.
    const raw = await img.rotate(-90).jpeg({ quality: 80 }).toBuffer();
    return sharp(raw)
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: r.int(55, 85) })
      .toBuffer();
  }
  return img.jpeg({ quality: r.int(50, 85) }).toBuffer();
}
