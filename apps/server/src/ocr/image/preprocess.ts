/** A phone photo made ready for the OCR: oriented, cropped to the paper, deskewed, scaled, light flattened. */
import type { OutputInfo } from 'sharp';
import type { GrayImage } from '../worker-pool.js';
import { flattenLight } from './light.js';
import { inkBox, paperBox } from './paper.js';
import { skewAngle } from './skew.js';

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
