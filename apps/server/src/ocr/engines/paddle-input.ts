/** The PaddleOCR models' inputs: the page for the detector, box crops for the recogniser, and crop geometry. */
import type { Box } from '../geometry/lines.js';
import type { GrayImage } from '../worker-pool.js';

export const REC_HEIGHT = 48;
/**
 * Every crop is padded to at least this width, as PaddleOCR does: without it the recogniser ran
 * 30 % faster but misread short dates and numbers on the development set. This floor is most of
 * the padding on photos (30 SROIE photos: 40 % of the recogniser's columns are padding; 160 would
 * run 22 % fewer columns, 240 12 %), but both lose fields the development set's tuning part reads
 * at 320 (160: 667 → 661 of 708; 240: 663), for one more on its held-out third and one more SROIE
 * total (issue 55, 2026-11-29): kept at 320.
 */
export const REC_MIN_WIDTH = 320;

/** Grayscale pixels → the detector's NCHW input (ImageNet mean/std), resized by nearest neighbour. */
export function detInput(gray: Uint8Array, w: number, h: number, dw: number, dh: number): Float32Array {
  const out = new Float32Array(3 * dw * dh);
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const plane = dw * dh;
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(h - 1, Math.floor(((y + 0.5) * h) / dh));
    for (let x = 0; x < dw; x++) {
      const sx = Math.min(w - 1, Math.floor(((x + 0.5) * w) / dw));
      const v = (gray[sy * w + sx] ?? 255) / 255;
      for (let c = 0; c < 3; c++) out[c * plane + y * dw + x] = (v - (mean[c] ?? 0)) / (std[c] ?? 1);
    }
  }
  return out;
}

/** One box of the page, bilinearly scaled to the recogniser's height, into a padded batch slot. */
export function cropInto(
  out: Float32Array,
  slot: number,
  batchW: number,
  gray: Uint8Array,
  w: number,
  h: number,
  b: Box,
  levels?: { lo: number; hi: number },
) {
  // Gray levels stretched so `lo` is black and `hi` white (a re-read crop), else as they are.
  const lo = levels?.lo ?? 0;
  const k = levels ? 255 / Math.max(1, levels.hi - levels.lo) : 1;
  const rw = Math.min(batchW, Math.max(1, Math.ceil((REC_HEIGHT * b.w) / Math.max(1, b.h))));
  const plane = REC_HEIGHT * batchW;
  const base = slot * 3 * plane;
  for (let y = 0; y < REC_HEIGHT; y++) {
    const fy = Math.min(h - 1, Math.max(0, b.y + ((y + 0.5) * b.h) / REC_HEIGHT - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < rw; x++) {
      const fx = Math.min(w - 1, Math.max(0, b.x + ((x + 0.5) * b.w) / rw - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const top = (gray[y0 * w + x0] ?? 0) * (1 - tx) + (gray[y0 * w + x1] ?? 0) * tx;
      const bot = (gray[y1 * w + x0] ?? 0) * (1 - tx) + (gray[y1 * w + x1] ?? 0) * tx;
      const g = levels
        ? Math.max(0, Math.min(255, (top * (1 - ty) + bot * ty - lo) * k))
        : top * (1 - ty) + bot * ty;
      const v = g / 127.5 - 1;
      for (let c = 0; c < 3; c++) out[base + c * plane + y * batchW + x] = v;
    }
  }
}

/** A box's width once scaled to the recogniser's height and padded to its minimum, in columns. */
export const recWidth = (b: Box) => Math.max(REC_MIN_WIDTH, Math.ceil((REC_HEIGHT * b.w) / Math.max(1, b.h)));

/** A box grown by `fy` of its height above and below and `fx` of its height left and right. */
export const grow = (b: Box, fy: number, fx: number): Box => ({
  x: b.x - b.h * fx,
  y: b.y - b.h * fy,
  w: b.w + 2 * b.h * fx,
  h: b.h * (1 + 2 * fy),
});

/** The 2nd and 98th percentile of the gray levels inside a box. */
export function levelsIn(page: GrayImage, b: Box): { lo: number; hi: number } {
  const hist = new Uint32Array(256);
  const x0 = Math.max(0, Math.floor(b.x));
  const y0 = Math.max(0, Math.floor(b.y));
  const x1 = Math.min(page.width, Math.ceil(b.x + b.w));
  const y1 = Math.min(page.height, Math.ceil(b.y + b.h));
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const v = page.data[y * page.width + x] ?? 255;
      hist[v] = (hist[v] ?? 0) + 1;
      n++;
    }
  const at = (q: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[v] ?? 0;
      if (seen > q * n) return v;
    }
    return 255;
  };
  return { lo: at(0.02), hi: at(0.98) };
}
