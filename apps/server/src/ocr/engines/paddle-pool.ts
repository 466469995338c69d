/** The PaddleOCR engine: its worker thread(s) behind the shared queue of worker-pool.ts. */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker.js';
import { type OcrImage, type OcrText, WorkerPool } from '../worker-pool.js';

export type PaddlePoolOptions = {
  /** Worker threads; default one (ONNX Runtime spreads one receipt over the cores itself). */
  size?: number;
  /** ONNX Runtime threads per worker; default one per core, at most 4. */
  threads?: number;
  /**
   * A worker is replaced after this many receipts; by default only after a failure. Its memory stops
   * growing once it has read the largest pages (ONNX Runtime's arena is off), while every replaced
   * thread left its malloc arenas behind: RSS stepped up at each recycle (issue 55, README).
   */
  recycleAfter?: number;
  /** Receipts waiting beyond this are refused at once (the caller answers 429). */
  maxQueue?: number;
};

/** One worker thread and the receipt it is reading (one at a time: the pool never sends two). */
type Thread = {
  worker: Worker;
  current?: { resolve: (r: OcrText) => void; reject: (e: unknown) => void };
  /** Why the thread ended, once it has: a receipt sent to it fails at once (and the pool replaces it). */
  ended?: Error;
};

/** The worker: dist/ocr-worker.js once built, paddle-worker.ts from the sources (lib/worker.ts). */
function spawnWorker(threads: number): Worker {
  return startWorker(import.meta.url, './ocr-worker.js', './paddle-worker.ts', { workerData: { threads } });
}

/**
 * PaddleOCR PP-OCRv4 (ONNX Runtime) in worker threads with a FIFO queue. Nothing is loaded until
 * the first receipt (or warmUp): the models and the native runtime cost ~150 MB and ~0.3 s.
 */
export class PaddlePool extends WorkerPool<Thread> {
  private readonly threads: number;

  constructor(o: PaddlePoolOptions = {}) {
    super({
      size: o.size ?? 1,
      recycleAfter: o.recycleAfter ?? Number.POSITIVE_INFINITY,
      maxQueue: o.maxQueue ?? 64,
    });
    this.threads = o.threads ?? Math.max(1, Math.min(4, availableParallelism()));
  }

  /** A worker with its models loaded; idle, it never keeps the process alive. */
  protected spawn(): Promise<Thread> {
    const thread: Thread = { worker: spawnWorker(this.threads) };
    const { worker } = thread;
    const fail = (err: unknown) => {
      thread.current?.reject(err);
      thread.current = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      thread.ended = new Error(`OCR worker stopped (exit code ${code})`);
      fail(thread.ended);
    });
    return new Promise((resolve, reject) => {
      worker.on('message', (m: { id: number; result?: OcrText; error?: string }) => {
        if (m.id === -1) {
          worker.unref();
          if (m.error) reject(new Error(m.error));
          else resolve(thread);
          return;
        }
        const job = thread.current;
        thread.current = undefined;
        worker.unref();
        if (m.error || !m.result) job?.reject(new Error(m.error ?? 'OCR failed'));
        else job?.resolve(m.result);
      });
      worker.once('error', reject);
      worker.postMessage('warm-up');
    });
  }

  protected read(thread: Thread, image: OcrImage): Promise<OcrText> {
    if (thread.ended) return Promise.reject(thread.ended);
    return new Promise((resolve, reject) => {
      thread.current = { resolve, reject };
      thread.worker.ref(); // a receipt being read keeps the process alive
      thread.worker.postMessage({ id: 1, image });
    });
  }

  protected stop(thread: Thread) {
    return thread.worker.terminate();
  }
}
