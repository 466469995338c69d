import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { OcrBusyError, type OcrEngine, type OcrText } from './pool.js';

export type PaddlePoolOptions = {
  /** Worker threads; default one (ONNX Runtime spreads one receipt over the cores itself). */
  size?: number;
  /** ONNX Runtime threads per worker; default one per core, at most 4. */
  threads?: number;
  /** A worker is replaced after this many receipts, so native heap growth never accumulates. */
  recycleAfter?: number;
  /** Receipts waiting beyond this are refused at once (the caller answers 429). */
  maxQueue?: number;
};

type Job = { image: Buffer; resolve: (r: OcrText) => void; reject: (e: unknown) => void };
type Slot = { worker?: Worker; jobs: number; busy: boolean; current?: Job; ready?: Promise<void> };

/**
 * The worker: dist/ocr-worker.js once built; from the sources (tests, tsx) a one-line ESM shim that
 * registers tsx in the worker first, since Node 20 does not pass the main thread's loader to workers.
 */
function spawnWorker(threads: number): Worker {
  const workerData = { threads };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./ocr-worker.js', import.meta.url), { workerData });
  const src = JSON.stringify(new URL('./paddle-worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${src}); })`, {
    eval: true,
    workerData,
  });
}

/**
 * PaddleOCR PP-OCRv4 (ONNX Runtime) in worker threads with a FIFO queue. Nothing is loaded until
 * the first receipt (or warmUp): the models and the native runtime cost ~150 MB and ~0.3 s.
 */
export class PaddlePool implements OcrEngine {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly threads: number;
  private readonly recycleAfter: number;
  private readonly maxQueue: number;
  private closed = false;

  constructor(o: PaddlePoolOptions = {}) {
    const size = o.size ?? 1;
    this.threads = o.threads ?? Math.max(1, Math.min(4, availableParallelism()));
    this.recycleAfter = o.recycleAfter ?? 100;
    this.maxQueue = o.maxQueue ?? 64;
    for (let i = 0; i < size; i++) this.slots.push({ jobs: 0, busy: false });
  }

  get size() {
    return this.slots.length;
  }

  get pending() {
    return this.queue.length;
  }

  async warmUp() {
    await Promise.all(this.slots.map((s) => this.start(s).ready));
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
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }

  private start(slot: Slot): Slot & { worker: Worker; ready: Promise<void> } {
    if (slot.worker && slot.ready) return slot as Slot & { worker: Worker; ready: Promise<void> };
    const worker = spawnWorker(this.threads);
    slot.worker = worker;
    slot.ready = new Promise<void>((resolve, reject) => {
      const onReady = (m: { id: number; error?: string }) => {
        if (m.id !== -1) return;
        worker.off('message', onReady);
        if (!slot.busy) worker.unref(); // an idle worker never keeps the process alive
        if (m.error) reject(new Error(m.error));
        else resolve();
      };
      worker.on('message', onReady);
      worker.postMessage('warm-up');
    });
    slot.ready.catch(() => undefined);
    worker.on('message', (m: { id: number; result?: OcrText; error?: string }) => {
      if (m.id === -1) return;
      const job = slot.current;
      slot.current = undefined;
      if (!job) return;
      if (m.error || !m.result) job.reject(new Error(m.error ?? 'OCR failed'));
      else job.resolve(m.result);
      this.done(slot, !!m.error);
    });
    worker.on('error', (err) => {
      if (!slot.busy) return;
      slot.current?.reject(err);
      slot.current = undefined;
      slot.worker = undefined;
      slot.ready = undefined;
      if (slot.busy) this.done(slot, true);
    });
    return slot as Slot & { worker: Worker; ready: Promise<void> };
  }

  private pump() {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.busy = true;
      slot.current = job;
      const { worker } = this.start(slot);
      worker.ref();
      worker.postMessage({ id: ++slot.jobs, image: job.image });
    }
  }

  private done(slot: Slot, failed: boolean) {
    if ((failed || slot.jobs >= this.recycleAfter) && !this.closed) {
      const old = slot.worker;
      slot.worker = undefined;
      slot.ready = undefined;
      slot.jobs = 0;
      old?.terminate();
    }
    slot.busy = false;
    slot.worker?.unref();
    this.pump();
  }
}
