import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running `built`, the bundle beside the calling module once built (dist/), or, run
 * from the sources (tests, tsx), `source` behind a one-line ESM shim that registers tsx in the thread
 * first: Node 20 does not pass the main thread's loader on. Both names are relative to `caller`
 * (the calling module's import.meta.url).
 */
export function startWorker(
  caller: string,
  built: string,
  source: string,
  options: WorkerOptions = {},
): Worker {
  if (!caller.endsWith('.ts')) return new Worker(new URL(built, caller), options);
  const src = JSON.stringify(new URL(source, caller).href);
  return new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${src}); })`, {
    ...options,
    eval: true,
  });
}
