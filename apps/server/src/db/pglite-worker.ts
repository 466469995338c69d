import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { rawReplies, type SessionMessage, SessionScheduler } from './pglite-session.js';
import { seedFromTemplate } from './template.js';

/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WASM: every statement runs
 * synchronously on the thread that holds it, so on the server's thread it stalled HTTP parsing,
 * auth and serialising for its whole duration. Here it runs beside them, on another core, and the
 * server speaks the PostgreSQL wire protocol to it through node-postgres (pglite-socket.ts): the
 * same driver, named statements (planned once) and type parsing as on a PostgreSQL server.
 *
 * Several connections share PGlite's one session (pglite-session.ts says how), so the next
 * statement is already here when one ends: with a single connection the thread waited for each
 * reply to cross to the server's thread and the next statement to come back, idle 70% of the time.
 *
 * Messages in: {type: 'open', conn} (a new connection), {type: 'exec', conn, bytes} (protocol
 * messages; answers with PostgreSQL's reply), {type: 'end', conn} (a connection is gone),
 * {type: 'close'}; each carries an `id` its answer {type: 'result', id, bytes?} repeats.
 */
export type WorkerInput = {
  dataDir?: string;
  startParams: string[];
  /** A migrated data directory (db/template.ts) to copy into `dataDir` first when that holds no database. */
  template?: string;
  /**
   * Without `dataDir`: a data directory image (PGlite's dumpDataDir, uncompressed) the database in
   * memory starts from, instead of initdb (the API tests' migrated image: test/helpers/database.ts).
   */
  image?: string;
};
export type ToWorker = SessionMessage;
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; bytes?: Uint8Array; message?: string };

const port = parentPort;
if (!port) throw new Error('pglite-worker runs in a worker thread');
const { dataDir, startParams, template, image } = workerData as WorkerInput;

try {
  // PostgreSQL's WASM compiles while the data directory is made. The copy runs here, not on the
  // server's thread, whose event loop is busy loading the app's code at that time.
  const compiled = compilePostgres();
  if (dataDir && template) await seedFromTemplate(dataDir, template);
  const loadDataDir = !dataDir && image ? new Blob([await readFile(image)]) : undefined;
  const pgliteWasmModule = await compiled;
  const db = await PGlite.create(dataDir, {
    startParams,
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const session = new SessionScheduler(rawReplies(db), (msg, { bytes, message }) => {
    // Every reply is a buffer of its own (rawReplies): it moves to the server's thread, uncopied.
    port?.postMessage(
      { type: 'result', id: msg.id, bytes, message } satisfies FromWorker,
      bytes ? [bytes.buffer as ArrayBuffer] : [],
    );
    if (msg.type === 'close') port?.close();
  });
  port.on('message', (msg: ToWorker) => session.receive(msg));
  port.postMessage({ type: 'ready' } satisfies FromWorker);
} catch (err) {
  port.postMessage({ type: 'failed', message: (err as Error).message } satisfies FromWorker);
}

type WasmModule = NonNullable<Parameters<typeof PGlite.create>[1]>['pgliteWasmModule'];
/** The server's TypeScript libraries (no DOM) do not declare WebAssembly; Node has it. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

/** PGlite's pglite.wasm compiled, or undefined (PGlite then loads it itself) if it is not where 0.5 keeps it. */
async function compilePostgres(): Promise<WasmModule | undefined> {
  try {
    const file = new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'));
    return await wasm.compile(await readFile(file));
  } catch {
    return undefined;
  }
}
