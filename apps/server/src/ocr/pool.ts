import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Worker } from 'tesseract.js';

export const OCR_LANGS = ['eng', 'ron', 'spa'] as const;

export type OcrBox = { x: number; y: number; w: number; h: number };
export type OcrLine = {
  text: string;
  confidence: number;
  /** Where the line is on the prepared image, and its words (engines with a layout only). */
  box?: OcrBox;
  words?: { text: string; box: OcrBox }[];
};
export type OcrText = { text: string; confidence: number; lines: OcrLine[] };

/** What reads a prepared receipt image: the tesseract pool or the PaddleOCR pool. */
export interface OcrEngine {
  recognize(image: Buffer): Promise<OcrText>;
  warmUp(): Promise<void>;
  close(): Promise<void>;
  readonly size: number;
  readonly pending: number;
}

export type OcrPoolOptions = {
  /** Workers; default one per core, at most 4. */
  size?: number;
  /** A worker is replaced after this many jobs, so WASM heap growth never accumulates. */
  recycleAfter?: number;
  /** Jobs waiting beyond this are refused at once (the caller answers 503). */
  maxQueue?: number;
  langs?: readonly string[];
};

type Slot = { worker?: Promise<Worker>; jobs: number; busy: boolean };
type Job = { image: Buffer; resolve: (r: OcrText) => void; reject: (e: unknown) => void };

export class OcrBusyError extends Error {}

/**
 * A small tesseract.js worker pool with a FIFO queue. The trained data (eng, ron, spa, LSTM
 * "best_int") comes from the @tesseract.js-data npm packages: a temporary folder of symlinks
 * points at them because tesseract.js takes one langPath for all languages. Nothing is fetched
 * and nothing is cached to disk (cacheMethod 'none').
 */
export class OcrPool implements OcrEngine {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private langDir?: string;
  private readonly langs: readonly string[];
  private readonly recycleAfter: number;
  private readonly maxQueue: number;
  private closed = false;

  constructor(o: OcrPoolOptions = {}) {
    const size = o.size ?? Math.max(1, Math.min(4, availableParallelism()));
    this.langs = o.langs ?? OCR_LANGS;
    this.recycleAfter = o.recycleAfter ?? 50;
    this.maxQueue = o.maxQueue ?? 64;
    // Workers start on first use: a server that never reads a receipt never pays for them.
    for (let i = 0; i < size; i++) this.slots.push({ jobs: 0, busy: false });
  }

  /** Starts every worker now (benchmarks, or to take the start-up cost before the first user). */
  async warmUp() {
    await Promise.all(this.slots.map((s) => this.workerOf(s)));
  }

  get size() {
    return this.slots.length;
  }

  get pending() {
    return this.queue.length;
  }

  recognize(image: Buffer): Promise<OcrText> {
    if (this.closed) return Promise.reject(new Error('OCR pool closed'));
    if (this.queue.length >= this.maxQueue) return Promise.reject(new OcrBusyError('OCR queue full'));
    return new Promise((resolve, reject) => {
      this.queue.push({ image, resolve, reject });
      this.pump();
    });
  }

  async close() {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('OCR pool closed'));
    await Promise.all(this.slots.map((s) => s.worker?.then((w) => w.terminate()).catch(() => undefined)));
    if (this.langDir) rmSync(this.langDir, { recursive: true, force: true });
  }

  private workerOf(slot: Slot): Promise<Worker> {
    if (!slot.worker) {
      slot.worker = this.spawn();
      // A failed start shows up on the job; never as an unhandled rejection.
      slot.worker.catch(() => undefined);
    }
    return slot.worker;
  }

  private async spawn(): Promise<Worker> {
    this.langDir ??= linkTrainedData(this.langs);
    const { createWorker, OEM, PSM } = await import('tesseract.js'); // not at start-up
    return createWorker(this.langs.join('+'), OEM.LSTM_ONLY, {
      langPath: this.langDir,
      cacheMethod: 'none',
      gzip: true,
    }).then(async (w) => {
      await w.setParameters({
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        preserve_interword_spaces: '1',
        user_defined_dpi: '300',
      });
      return w;
    });
  }

  private pump() {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.busy = true;
      this.run(slot, job);
    }
  }

  private async run(slot: Slot, job: Job) {
    try {
      const worker = await this.workerOf(slot);
      const { data } = await worker.recognize(job.image, {}, { text: true, blocks: true });
      const lines: OcrText['lines'] = [];
      for (const b of data.blocks ?? [])
        for (const p of b.paragraphs)
          for (const l of p.lines)
            lines.push({ text: l.text.replace(/\n$/, ''), confidence: l.confidence / 100 });
      job.resolve({ text: data.text, confidence: data.confidence / 100, lines });
      slot.jobs++;
    } catch (err) {
      job.reject(err);
      slot.jobs = this.recycleAfter; // a worker that failed is replaced
    } finally {
      if (slot.jobs >= this.recycleAfter && !this.closed) {
        const old = slot.worker;
        slot.worker = undefined;
        slot.jobs = 0;
        old?.then((w) => w.terminate()).catch(() => undefined);
      }
      slot.busy = false;
      this.pump();
    }
  }
}

const require = createRequire(import.meta.url);

function linkTrainedData(langs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-tessdata-'));
  for (const lang of langs) {
    const pkg = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    symlinkSync(join(pkg, '4.0.0_best_int', `${lang}.traineddata.gz`), join(dir, `${lang}.traineddata.gz`));
  }
  return dir;
}
