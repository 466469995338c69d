/** What an OCR engine is (OcrEngine) and the queue of workers both engines share. */
export type OcrBox = { x: number; y: number; w: number; h: number };
export type OcrLine = {
  text: string;
  confidence: number;
  /** Where the line is on the prepared image, and its words (engines with a layout only). */
  box?: OcrBox;
  words?: { text: string; box: OcrBox }[];
};
export type OcrText = { text: string; confidence: number; lines: OcrLine[] };
/** A prepared page: one byte of gray per pixel, row by row (what preprocessing hands the engine). */
export type GrayImage = {
  data: Uint8Array;
  width: number;
  height: number;
  /** The same page before its light was flattened (PaddleOCR re-reads a date's crop from it). */
  unflattened?: Uint8Array;
};
/** What an engine reads: a prepared page, or an encoded image (PNG, JPEG) as it is. */
export type OcrImage = GrayImage | Buffer;

/** What reads a prepared receipt image: the tesseract pool or the PaddleOCR pool. */
export interface OcrEngine {
  recognize(image: OcrImage): Promise<OcrText>;
  warmUp(): Promise<void>;
  close(): Promise<void>;
  readonly size: number;
  readonly pending: number;
}

/** The queue is full: the caller answers 429 at once instead of making the user wait. */
export class OcrBusyError extends Error {}

export type WorkerPoolOptions = {
  size: number;
  /**
   * A worker is replaced after this many receipts (always after a failure); Infinity: only after a
   * failure. Replacing bounds a heap that grows with every receipt (tesseract's WASM heap), but a
   * new thread costs memory of its own: glibc keeps the malloc arenas an ended thread used.
   */
  recycleAfter: number;
  /** Receipts waiting beyond this are refused at once (OcrBusyError). */
  maxQueue: number;
};

type Slot<W> = { worker?: Promise<W>; jobs: number; busy: boolean };
type Job = { image: OcrImage; resolve: (r: OcrText) => void; reject: (e: unknown) => void };

/**
 * A fixed number of OCR workers fed by one FIFO queue, whatever the engine: a subclass says how a
 * worker starts, reads one image and stops. Workers start on first use (or warmUp), so a server that
 * never reads a receipt never pays for them.
 */
export abstract class WorkerPool<W> implements OcrEngine {
  private readonly slots: Slot<W>[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly o: WorkerPoolOptions) {
    for (let i = 0; i < o.size; i++) this.slots.push({ jobs: 0, busy: false });
  }

  protected abstract spawn(): Promise<W>;
  protected abstract read(worker: W, image: OcrImage): Promise<OcrText>;
  protected abstract stop(worker: W): Promise<unknown>;
  /** After every worker stopped on close (temporary files, say). */
  protected cleanUp(): void {}

  get size() {
    return this.slots.length;
  }

  get pending() {
    return this.queue.length;
  }

  /** Starts every worker now (benchmarks, or to take the start-up cost before the first user). */
  async warmUp() {
    await Promise.all(this.slots.map((s) => this.workerOf(s)));
  }

  recognize(image: OcrImage): Promise<OcrText> {
    if (this.closed) return Promise.reject(new Error('OCR pool closed'));
    if (this.queue.length >= this.o.maxQueue) return Promise.reject(new OcrBusyError('OCR queue full'));
    return new Promise((resolve, reject) => {
      this.queue.push({ image, resolve, reject });
      this.pump();
    });
  }

  async close() {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('OCR pool closed'));
    await Promise.all(this.slots.map((s) => s.worker?.then((w) => this.stop(w)).catch(() => undefined)));
    this.cleanUp();
  }

  private workerOf(slot: Slot<W>): Promise<W> {
    if (!slot.worker) {
      slot.worker = this.spawn();
      // A failed start shows up on the job; never as an unhandled rejection.
      slot.worker.catch(() => undefined);
    }
    return slot.worker;
  }

  private pump() {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.busy = true;
      void this.run(slot, job);
    }
  }

  private async run(slot: Slot<W>, job: Job) {
    let failed = false;
    try {
      job.resolve(await this.read(await this.workerOf(slot), job.image));
      slot.jobs++;
    } catch (err) {
      job.reject(err);
      failed = true; // a worker that failed is replaced
    } finally {
      if ((failed || slot.jobs >= this.o.recycleAfter) && !this.closed) {
        const old = slot.worker;
        slot.worker = undefined;
        slot.jobs = 0;
        old?.then((w) => this.stop(w)).catch(() => undefined);
      }
      slot.busy = false;
      this.pump();
    }
  }
}
