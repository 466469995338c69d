import type { Worker } from 'node:worker_threads';
import type { CurrencyCode, FuelType, ImportMapping } from '@evdra/domain';
import { AppError } from '../../lib/errors.js';
import { startWorker } from '../../lib/worker.js';
import type { Parsed } from './collect.js';
import type { ExistingKeys } from './keys.js';
import type { FailedParse, ParseReply, ParseRequest } from './parse-worker.js';
import type { PreviewPlan, Reading } from './plan.js';
import { ImportTooLarge, refuseOversizedZip } from './read.js';

/**
 * Reads uploads in one worker thread (parse-worker.ts), one at a time in arrival order, so a 20 MB
 * import never holds the event loop other users' requests wait on. The thread starts on the first
 * import and stops after a minute without one (its heap goes with it); it never keeps the process
 * alive. Its heap is capped: an upload that would take more memory ends the thread, not the server,
 * and is answered 413.
 */
const IDLE_MS = 60_000;
/** The worker's old-generation heap: a legal upload parses well inside it (190,000 rows, 100 MB of CSV in a ZIP: RSS +490 MB). */
const HEAP_MB = 1024;
/** Uploads waiting beyond this are answered 429 at once: each holds its bytes while it waits. */
const MAX_WAITING = 16;

type Job = {
  request: Omit<ParseRequest, 'id'>;
  resolve: (result: object) => void;
  reject: (e: unknown) => void;
};
type Running = Job & { id: number; lists: Record<string, unknown[]> };

let worker: Worker | undefined;
let running: Running | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 1;
const waiting: Job[] = [];

/** parseImport (parse.ts), in the import thread: the same records, the same errors. */
export const parseInThread = (
  bytes: Buffer,
  fuelType: FuelType,
  mapping: ImportMapping | undefined,
  currency: CurrencyCode,
  secondaryFuelType: FuelType | null = null,
) => run<Parsed>({ bytes, fuelType, mapping, currency, secondaryFuelType });

/** parseImport then previewPlan (plan.ts) against the vehicle's records, in the import thread. */
export const previewInThread = (
  bytes: Buffer,
  fuelType: FuelType,
  mapping: ImportMapping | undefined,
  currency: CurrencyCode,
  existing: ExistingKeys,
  readings: Reading[],
  secondaryFuelType: FuelType | null = null,
  ownerCurrency?: CurrencyCode,
) =>
  run<PreviewPlan>({
    bytes,
    fuelType,
    mapping,
    currency,
    secondaryFuelType,
    against: { existing, readings, ownerCurrency },
  });

function run<T>(request: Job['request']): Promise<T> {
  try {
    // A ZIP over the limits is refused from its directory at once, without waiting its turn.
    refuseOversizedZip(request.bytes);
  } catch (err) {
    return Promise.reject(err);
  }
  if (waiting.length >= MAX_WAITING)
    return Promise.reject(
      new AppError(
        429,
        'RATE_LIMITED',
        'Many imports are being read right now. Try again in a minute.',
        undefined,
        { 'retry-after': '60' },
      ),
    );
  return new Promise<T>((resolve, reject) => {
    waiting.push({ request, resolve: resolve as (r: object) => void, reject });
    next();
  });
}

function next() {
  if (running) return;
  const job = waiting.shift();
  if (!job) {
    // Idle: the thread goes after a while, and never holds the process open meanwhile.
    worker?.unref();
    idle ??= setTimeout(stop, IDLE_MS).unref();
    return;
  }
  clearTimeout(idle);
  idle = undefined;
  const w = worker ?? start();
  w.ref();
  running = { ...job, id: nextId++, lists: {} };
  // The bytes are copied once into the thread; the caller's Buffer may be a slice of a shared pool.
  w.postMessage({ id: running.id, ...job.request } satisfies ParseRequest);
}

function start(): Worker {
  const w = spawn();
  worker = w;
  w.on('message', (m: ParseReply) => {
    const job = running;
    if (!job || m.id !== job.id) return;
    if ('list' in m) {
      job.lists[m.list] ??= [];
      for (const item of m.items) job.lists[m.list]?.push(item);
      return;
    }
    running = undefined;
    if ('done' in m) job.resolve({ ...m.done, ...job.lists });
    else job.reject(rebuild(m.failed));
    next();
  });
  w.on('error', (err) => ended(w, err));
  w.on('exit', (code) => ended(w, new Error(`The import thread stopped (exit code ${code}).`)));
  return w;
}

/** The thread ended (its heap cap, a crash, or stop()): the upload it was reading fails, the next starts a new one. */
function ended(w: Worker, err: Error) {
  if (worker !== w) return;
  worker = undefined;
  const job = running;
  running = undefined;
  if (job)
    job.reject(
      (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ImportTooLarge('MEMORY') : err,
    );
  next();
}

function stop() {
  idle = undefined;
  const w = worker;
  if (!w || running) return;
  worker = undefined;
  void w.terminate();
}

function rebuild(f: FailedParse): Error {
  if (f.limit) return new ImportTooLarge(f.limit);
  if (f.statusCode && f.code) return new AppError(f.statusCode, f.code, f.message, f.details);
  return new Error(f.message);
}

function spawn(): Worker {
  return startWorker(import.meta.url, './import-worker.js', './parse-worker.ts', {
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
}
