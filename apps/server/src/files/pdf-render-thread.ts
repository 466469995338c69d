import type { Worker } from 'node:worker_threads';
import { startWorker } from '../lib/worker.js';
import type { RenderReply, RenderRequest } from './pdf-render-worker.js';

/**
 * Renders PDFs' first pages in one worker thread (pdf-render-worker.ts), one at a time in arrival
 * order, so a heavy page never holds the event loop. Bounded: a render that takes longer than
 * RENDER_TIMEOUT_MS ends the thread (the next render starts a new one), the thread's heap is capped,
 * and only the first page is drawn, at most `maxSide` pixels on its longer side. A PDF that cannot
 * be drawn (damaged, too slow, too big, the queue full) gives null: the caller goes on without an image.
 * The thread starts on the first render, stops after a minute without one, and never keeps the
 * process alive.
 */
const RENDER_TIMEOUT_MS = 10_000;
const IDLE_MS = 60_000;
const HEAP_MB = 512;
/** Renders waiting beyond this get null at once: each holds its PDF's bytes while it waits. */
const MAX_WAITING = 16;

type Job = { request: Omit<RenderRequest, 'id'>; resolve: (image: Buffer | null) => void };

let worker: Worker | undefined;
let running: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 1;
const waiting: Job[] = [];

/** The PDF's first page as a JPEG at most `maxSide` px on its longer side, or null if it cannot be drawn. */
export function renderPdfFirstPage(bytes: Buffer, maxSide: number, quality = 0.75): Promise<Buffer | null> {
  if (waiting.length >= MAX_WAITING) return Promise.resolve(null);
  return new Promise((resolve) => {
    waiting.push({ request: { bytes, maxSide, quality }, resolve });
    next();
  });
}

function next() {
  if (running) return;
  const job = waiting.shift();
  if (!job) {
    worker?.unref();
    idle ??= setTimeout(stop, IDLE_MS).unref();
    return;
  }
  clearTimeout(idle);
  idle = undefined;
  const w = worker ?? start();
  w.ref();
  const id = nextId++;
  // Too slow (a page of thousands of paths, a huge image): the thread goes, and the page with it.
  const timer = setTimeout(() => ended(w), RENDER_TIMEOUT_MS);
  running = { ...job, id, timer };
  // A copy of just these bytes (an upload's Buffer may be a view into a larger one).
  w.postMessage({ id, ...job.request, bytes: new Uint8Array(job.request.bytes) } satisfies RenderRequest);
}

function finish(image: Buffer | null) {
  const job = running;
  if (!job) return;
  clearTimeout(job.timer);
  running = undefined;
  job.resolve(image);
  next();
}

function start(): Worker {
  const w = spawn();
  worker = w;
  w.on('message', (m: RenderReply) => {
    if (!running || m.id !== running.id) return;
    finish('image' in m ? Buffer.from(m.image.buffer, m.image.byteOffset, m.image.byteLength) : null);
  });
  w.on('error', () => ended(w));
  w.on('exit', () => ended(w));
  return w;
}

/** The thread ended (timeout, heap cap, crash) or must: the page it was drawing gets null. */
function ended(w: Worker) {
  if (worker !== w) return;
  worker = undefined;
  void w.terminate();
  finish(null);
}

function stop() {
  idle = undefined;
  const w = worker;
  if (!w || running) return;
  worker = undefined;
  void w.terminate();
}

function spawn(): Worker {
  return startWorker(import.meta.url, './pdf-render-worker.js', './pdf-render-worker.ts', {
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
}
