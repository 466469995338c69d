import sharp, { type OverlayOptions } from 'sharp';
import { rng } from './format.js';

export type PhotoStyle = 'scan' | 'photo' | 'hard' | '12mp' | 'small' | 'lowres';

/** What can go wrong when a driver photographs a receipt; each on or off per photo. */
export type Effects = {
  /** Folded paper: a crease with shading on either side. */
  fold: boolean;
  /** The phone held at an angle: a real perspective (keystone) warp, not just a shear. */
  perspective: boolean;
  /** A hard-edged shadow of the phone or a hand across part of the sheet. */
  shadow: boolean;
  /** A shaky hand: a directional blur. */
  motion: boolean;
  /** Warm indoor light or a cold fluorescent tint. */
  cast: boolean;
  /** A bright reflection washing out a patch (glossy thermal paper). */
  glare: boolean;
};

type Rand = ReturnType<typeof rng>;
/** Intermediate images: uncompressed PNG (compressing 12 megapixels at each step costs seconds). */
const FAST = { compressionLevel: 0 } as const;

/** The effects of a photo taken from `seed` (none for a flatbed scan apart from folds). */
export function effectsFor(seed: number, style: PhotoStyle, a4: boolean): Effects {
  const r = rng(seed * 17 + 3);
  const photo = style !== 'scan';
  return {
    fold: r.chance(a4 ? 0.6 : 0.35),
    perspective: photo && r.chance(0.6),
    shadow: photo && r.chance(0.35),
    motion: photo && r.chance(style === 'hard' ? 0.5 : 0.2),
    cast: photo && r.chance(0.4),
    glare: photo && r.chance(0.12),
  };
}

export const describeShot = (style: PhotoStyle, fx: Effects) =>
  [style, ...Object.entries(fx).flatMap(([k, v]) => (v ? [k] : []))].join('+');

/** Solves the 8×8 system of a homography mapping the 4 points `from` onto `to`. */
function homography(from: [number, number][], to: [number, number][]): number[] {
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as [number, number];
    const [u, v] = to[i] as [number, number];
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(A[r]?.[c] ?? 0) > Math.abs(A[p]?.[c] ?? 0)) p = r;
    [A[c], A[p]] = [A[p] as number[], A[c] as number[]];
    const row = A[c] as number[];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const other = A[r] as number[];
      const f = (other[c] ?? 0) / (row[c] ?? 1);
      for (let k = c; k < 9; k++) other[k] = (other[k] ?? 0) - f * (row[k] ?? 0);
    }
  }
  return A.map((row, i) => (row[8] ?? 0) / (row[i] ?? 1));
}

/**
 * A keystone warp of an RGBA image: the sheet's corners move inwards by up to `k` of its size,
 * as when the phone is tilted towards one edge. Inverse mapping with bilinear sampling.
 */
async function perspective(png: Buffer, r: Rand, k: number): Promise<Buffer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const j = () => r.next() * k;
  const dst: [number, number][] = [
    [w * j(), h * j()],
    [w * (1 - j()), h * j()],
    [w * (1 - j()), h * (1 - j())],
    [w * j(), h * (1 - j())],
  ];
  // One edge pulled in further: the far side of a tilted phone.
  const edge = r.int(0, 3);
  const far = k * 1.5;
  for (const i of [edge, (edge + 1) % 4]) {
    const p = dst[i] as [number, number];
    p[0] += (w / 2 - p[0]) * far * 0.5;
  }
  const src: [number, number][] = [
    [0, 0],
    [w, 0],
    [w, h],
    [0, h],
  ];
  const m = homography(dst, src);
  const out = Buffer.alloc(w * h * 4);
  const [a, b, c, d, e, f, g, hh] = m as [number, number, number, number, number, number, number, number];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const z = g * x + hh * y + 1;
      const sx = (a * x + b * y + c) / z;
      const sy = (d * x + e * y + f) / z;
      if (sx < 0 || sy < 0 || sx >= w - 1 || sy >= h - 1) continue;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (y * w + x) * 4;
      const i00 = (y0 * w + x0) * 4;
      const i10 = i00 + 4;
      const i01 = i00 + w * 4;
      const i11 = i01 + 4;
      for (let ch = 0; ch < 4; ch++) {
        const top = (data[i00 + ch] ?? 0) * (1 - fx) + (data[i10 + ch] ?? 0) * fx;
        const bot = (data[i01 + ch] ?? 0) * (1 - fx) + (data[i11 + ch] ?? 0) * fx;
        out[o + ch] = top * (1 - fy) + bot * fy;
      }
    }
  return sharp(out, { raw: { width: w, height: h, channels: 4 } })
    .png(FAST)
    .toBuffer();
}

/** Creases: a light ridge and a darker valley across the sheet, one side a shade darker. */
function foldSvg(w: number, h: number, r: Rand, a4: boolean): Buffer {
  const ys = a4
    ? [h / 3, (2 * h) / 3]
    : Array.from({ length: r.int(1, 2) }, () => h * (0.2 + r.next() * 0.6));
  const parts = ys.map((y0) => {
    const y = Math.round(y0 + (r.next() - 0.5) * h * 0.04);
    const tilt = Math.round((r.next() - 0.5) * h * 0.02);
    const shade = (0.86 + r.next() * 0.08).toFixed(2);
    return `<polygon points="0,${y} ${w},${y + tilt} ${w},${y + tilt + 40} 0,${y + 40}" fill="url(#f)"/><line x1="0" y1="${y}" x2="${w}" y2="${y + tilt}" stroke="rgb(${Math.round(255 * Number(shade))},${Math.round(255 * Number(shade))},${Math.round(255 * Number(shade))})" stroke-width="3"/>`;
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="f" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c8c8c8"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>`,
  );
}

/** Canvas-sized overlays are drawn at a quarter of the size and scaled up: soft anyway, and 16× cheaper. */
const quarter = (w: number, h: number) =>
  `width="${Math.ceil(w / 4)}" height="${Math.ceil(h / 4)}" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none"`;
const full = (svg: Buffer, w: number, h: number) => sharp(svg).resize(w, h).png(FAST).toBuffer();

/** A blurred dark polygon over one side of the picture: the phone's (or a hand's) shadow. */
function shadowSvg(w: number, h: number, r: Rand): Buffer {
  const side = r.int(0, 3);
  const t = 0.25 + r.next() * 0.3;
  const pts =
    side === 0
      ? `0,0 ${w * t},0 ${w * t * 0.6},${h} 0,${h}`
      : side === 1
        ? `${w},0 ${w * (1 - t)},0 ${w * (1 - t * 0.5)},${h} ${w},${h}`
        : side === 2
          ? `0,0 ${w},0 ${w},${h * t} 0,${h * t * 0.7}`
          : `0,${h} ${w},${h} ${w},${h * (1 - t * 0.6)} 0,${h * (1 - t)}`;
  const o = (0.3 + r.next() * 0.25).toFixed(2);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" ${quarter(w, h)}><defs><filter id="b"><feGaussianBlur stdDeviation="${Math.round(w / 80)}"/></filter></defs><rect width="100%" height="100%" fill="#fff"/><polygon points="${pts}" fill="#000" fill-opacity="${o}" filter="url(#b)"/></svg>`,
  );
}

function glareSvg(w: number, h: number, r: Rand): Buffer {
  const cx = Math.round(w * (0.25 + r.next() * 0.5));
  const cy = Math.round(h * (0.2 + r.next() * 0.6));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" ${quarter(w, h)}><defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="${(0.5 + r.next() * 0.3).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${cx}" cy="${cy}" rx="${Math.round(w * 0.18)}" ry="${Math.round(h * 0.08)}" fill="url(#g)"/></svg>`,
  );
}

/** A kernel averaging along one line (3×k: sharp takes no thinner one), cheap even on 12 megapixels. */
function motionKernel(k: number, vertical: boolean) {
  const kernel = new Array(3 * k).fill(0);
  for (let i = 0; i < k; i++) kernel[vertical ? i * 3 + 1 : k + i] = 1;
  return { width: vertical ? 3 : k, height: vertical ? k : 3, kernel, scale: k };
}

/** A table top: a plain colour with a wood grain or a cloth texture. */
async function tableTop(W: number, H: number, r: Rand): Promise<Buffer> {
  const colour = r.pick(['#6b4f3a', '#3c3f44', '#8a8f96', '#2e2a26', '#a08060', '#d8d4cc', '#40523e']);
  const grain = r.chance(0.5)
    ? Array.from({ length: 40 }, () => {
        const y = r.int(0, H);
        return `<rect x="0" y="${y}" width="${W}" height="${r.int(2, 12)}" fill="#000" fill-opacity="${(r.next() * 0.12).toFixed(2)}"/>`;
      }).join('')
    : '';
  return full(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" ${quarter(W, H)}><rect width="100%" height="100%" fill="${colour}"/>${grain}</svg>`,
    ),
    W,
    H,
  );
}

/**
 * Makes a rendered receipt look photographed by a phone: laid on a table (the border around it),
 * folded, tilted in perspective, rotated, lit unevenly, shadowed, tinted, shaken, noisy and saved as
 * a JPEG at phone quality. '12mp' is a 4000×3000 photo, 'small' a messenger-sized one, 'lowres' one
 * of 0.2–1.2 megapixels (an A4 page 0.6–1.2: below that its print is under 6 pixels high); some photos
 * are stored sideways with an EXIF orientation. `fx` defaults to the seed's own (effectsFor).
 */
export async function photograph(
  svg: string,
  seed: number,
  style: PhotoStyle,
  fx?: Effects,
): Promise<Buffer> {
  const r = rng(seed * 13 + 5);
  let sheet = await sharp(Buffer.from(svg)).png(FAST).toBuffer();
  const meta = await sharp(sheet).metadata();
  const w0 = meta.width ?? 800;
  const h0 = meta.height ?? 1000;
  const a4 = w0 >= 1200;
  const effects = fx ?? effectsFor(seed, style, a4);
  if (effects.fold)
    sheet = await sharp(sheet)
      .composite([{ input: foldSvg(w0, h0, r, a4), blend: 'multiply' }])
      .png(FAST)
      .toBuffer();
  if (style === 'scan') {
    return sharp(sheet)
      .rotate(r.next() * 2 - 1, { background: '#ffffff' })
      .blur(0.4)
      .jpeg({ quality: r.int(75, 90) })
      .toBuffer();
  }

  // Uneven light: a dark corner fading across the sheet.
  const angle = r.int(0, 359);
  const depth = style === 'hard' ? 0.45 + r.next() * 0.2 : 0.15 + r.next() * 0.2;
  const grey = Math.round(255 * (1 - depth));
  const light = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w0}" height="${h0}"><defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="rgb(${grey},${grey},${Math.round(255 * (1 - depth * 0.9))})"/><stop offset=".7" stop-color="#fff"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const lit = await sharp(sheet)
    .composite([{ input: light, blend: 'multiply' }])
    .png(FAST)
    .toBuffer();

  // The table, and the receipt on it: scaled, tilted in perspective, rotated, sheared.
  const big = style === '12mp';
  const small = style === 'small' || style === 'lowres';
  const megapixels = style === 'lowres' ? (a4 ? 0.6 + r.next() * 0.6 : 0.2 + r.next()) : 0;
  const lowW = Math.round(Math.sqrt((megapixels * 1e6 * 3) / 4));
  const W = big ? 4000 : style === 'lowres' ? lowW : small ? 960 : 1600;
  const H = big ? 3000 : style === 'lowres' ? Math.round((lowW * 4) / 3) : small ? 1280 : 2000;
  const targetH = Math.round(H * (0.72 + r.next() * 0.18));
  const scale = Math.min(targetH / h0, (W * 0.8) / w0);
  const rot = (r.next() * 2 - 1) * (style === 'hard' ? 5 : 3);
  const shx = (r.next() * 2 - 1) * 0.04;
  const shy = (r.next() * 2 - 1) * 0.02;
  // The warp runs on the sheet at its own size (cheaper than on a 12-megapixel canvas).
  const tilted = effects.perspective ? await perspective(lit, r, style === 'hard' ? 0.08 : 0.05) : lit;
  const placed = await sharp(tilted)
    .resize(Math.round(w0 * scale), Math.round(h0 * scale))
    .affine(
      [
        [1, shx],
        [shy, 1],
      ],
      { background: '#00000000' },
    )
    .rotate(rot, { background: '#00000000' })
    .png(FAST)
    .toBuffer();
  const pm = await sharp(placed).metadata();
  const pw = Math.min(pm.width ?? 0, W);
  const ph = Math.min(pm.height ?? 0, H);
  const fitted =
    pw < (pm.width ?? 0) || ph < (pm.height ?? 0)
      ? await sharp(placed).resize(pw, ph, { fit: 'inside' }).png(FAST).toBuffer()
      : placed;
  const fm = await sharp(fitted).metadata();
  const left = Math.max(0, Math.round((W - (fm.width ?? 0)) * (0.2 + r.next() * 0.6)));
  const top = Math.max(0, Math.round((H - (fm.height ?? 0)) * (0.2 + r.next() * 0.6)));

  // Sensor noise at half resolution, scaled up (grain), overlaid softly.
  const nw = Math.ceil(W / 2);
  const nh = Math.ceil(H / 2);
  const noise = Buffer.alloc(nw * nh);
  const amp = style === 'hard' ? 70 : 40;
  for (let i = 0; i < noise.length; i++) noise[i] = 128 + Math.round((r.next() - 0.5) * amp);
  const grain = await sharp(noise, { raw: { width: nw, height: nh, channels: 1 } })
    .resize(W, H)
    .toColourspace('srgb')
    .png(FAST)
    .toBuffer();

  const layers: OverlayOptions[] = [{ input: fitted, left, top }];
  if (effects.shadow) layers.push({ input: await full(shadowSvg(W, H, r), W, H), blend: 'multiply' });
  if (effects.glare) layers.push({ input: await full(glareSvg(W, H, r), W, H), blend: 'screen' });
  layers.push({ input: grain, blend: 'soft-light' });
  const brightness = style === 'hard' ? 0.55 + r.next() * 0.2 : 0.8 + r.next() * 0.2;
  // A phone's downscaled picture is sharp for its size: less blur at low resolution.
  const blur =
    style === 'hard'
      ? 1 + r.next() * 0.8
      : big
        ? 1 + r.next() * 1.2
        : style === 'lowres'
          ? 0.3 + r.next() * 0.4
          : 0.4 + r.next() * 0.8;
  let img = sharp(
    await sharp(await tableTop(W, H, r))
      .composite(layers)
      .png(FAST)
      .toBuffer(),
  );
  if (effects.motion) {
    const k = big ? r.pick([9, 11, 13]) : small ? r.pick([3, 5]) : r.pick([5, 7]);
    img = sharp(
      await img
        .convolve(motionKernel(k, r.chance(0.4)))
        .png(FAST)
        .toBuffer(),
    );
  }
  img = img.blur(blur).modulate({ brightness });
  if (effects.cast)
    img = img.recomb(
      r.chance(0.6)
        ? [
            [1.06, 0, 0],
            [0, 0.98, 0],
            [0, 0, 0.82],
          ]
        : [
            [0.92, 0, 0],
            [0, 1.02, 0],
            [0, 0, 1.08],
          ],
    );
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
