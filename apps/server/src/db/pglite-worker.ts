import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WASM: every statement runs
 * synchronously on the thread that holds it, so on the server's thread it stalled HTTP parsing,
 * auth and serialising for its whole duration. Here it runs beside them, on another core, and the
 * server speaks the PostgreSQL wire protocol to it through node-postgres (pglite-socket.ts): the
 * same driver, named statements (planned once) and type parsing as on a PostgreSQL server.
 *
 * Messages in: {type: 'open'} (a new connection: reset the session), {type: 'exec', id, bytes}
 * (protocol messages; answers {type: 'result', id, bytes} with PostgreSQL's reply), {type: 'close'}.
 */
export type WorkerInput = { dataDir?: string; startParams: string[] };
export type ToWorker =
  | { type: 'open'; id: number }
  | { type: 'exec'; id: number; bytes: Uint8Array }
  | { type: 'close'; id: number };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; bytes?: Uint8Array; message?: string };

const port = parentPort;
if (!port) throw new Error('pglite-worker runs in a worker thread');
const { dataDir, startParams } = workerData as WorkerInput;

try {
  const db = await PGlite.create(dataDir, { startParams });
  // One message at a time, in arrival order: PGlite has one session.
  let queue: Promise<unknown> = Promise.resolve();
  port.on('message', (msg: ToWorker) => {
    queue = queue.then(() => handle(db, msg));
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
} catch (err) {
  port.postMessage({ type: 'failed', message: (err as Error).message } satisfies FromWorker);
}

async function handle(db: PGlite, msg: ToWorker) {
  const reply = (
    r: Omit<Extract<FromWorker, { type: 'result' }>, 'type' | 'id'>,
    transfer: ArrayBuffer[] = [],
  ) => port?.postMessage({ type: 'result', id: msg.id, ...r } satisfies FromWorker, transfer);
  try {
    if (msg.type === 'exec') {
      // A copy: the reply may be a view of the WASM memory, which must never be transferred.
      const out = (await db.execProtocolRaw(msg.bytes)).slice();
      reply({ bytes: out }, [out.buffer as ArrayBuffer]);
    } else if (msg.type === 'open') {
      // The previous connection may have died mid-transaction or left its named statements behind:
      // the new one starts as a fresh PostgreSQL session would (LISTENs stay: the server keeps them).
      if (db.isInTransaction()) await db.exec('rollback');
      await db.exec('deallocate all');
      reply({});
    } else {
      await db.close();
      reply({});
      port?.close();
    }
  } catch (err) {
    reply({ message: (err as Error).message });
  }
}
