import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerInput } from './pglite-worker.js';

/**
 * The embedded database in its own thread (pglite-worker.ts), and the socket node-postgres talks
 * to it through: what a pg connection writes in one tick (a query's Parse/Bind/Execute/Sync) goes
 * to the worker as one message, and PostgreSQL's reply comes back as the socket's data.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (r: Extract<FromWorker, { type: 'result' }>) => void>();
  private nextId = 1;
  private nextConnection = 1;
  private failure?: Error;
  private closing = false;
  readonly ready: Promise<void>;

  constructor(input: WorkerInput) {
    this.worker = new Worker(workerFile(), { workerData: input });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') {
          // From now on only a request in flight keeps the process alive (a CLI ends when its work is done).
          if (this.pending.size === 0) this.worker.unref();
          resolve();
        } else if (msg.type === 'failed') {
          this.fail(new Error(msg.message));
          reject(this.failure);
        } else this.settle(msg);
      });
      this.worker.on('error', (err) => {
        this.fail(err);
        reject(err);
      });
      this.worker.on('exit', () => {
        this.fail(new Error('The embedded database stopped.'));
        reject(this.failure);
      });
    });
  }

  /** Sends one message; resolves with the worker's answer. */
  request(msg: DistributiveOmit<ToWorker, 'id'>): Promise<Uint8Array> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, (r) =>
        r.message ? reject(new Error(r.message)) : resolve(r.bytes ?? new Uint8Array()),
      );
      // The batch's bytes are the message's own (flush), so they move instead of being copied.
      const bytes = msg.type === 'exec' ? [msg.bytes.buffer as ArrayBuffer] : [];
      this.worker.postMessage({ ...msg, id } as ToWorker, bytes);
    });
  }

  /**
   * A new socket for one pg connection. It opens, and sends each statement, once the thread has
   * started and `gate()` (asked anew each time: a migration under way) has settled.
   */
  socket(gate: () => Promise<unknown> = () => this.ready): Duplex {
    return new PgliteSocket(this, this.nextConnection++, gate);
  }

  async close(): Promise<void> {
    if (this.failure) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.closing = true; // held until the thread has ended
    await this.request({ type: 'close' });
    await exited;
  }

  private settle(msg: Extract<FromWorker, { type: 'result' }>) {
    const done = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
    done?.(msg);
  }

  private fail(err: Error) {
    this.failure ??= err;
    for (const done of this.pending.values()) done({ type: 'result', id: 0, message: err.message });
    this.pending.clear();
  }
}

/** Terminate ('X', length 4): a pg connection's goodbye. The worker's session outlives it. */
const isTerminate = (b: Uint8Array) => b.length === 5 && b[0] === 0x58 && b[4] === 4;

/** What node-postgres needs of a net.Socket, over the worker: one connection of the shared session. */
class PgliteSocket extends Duplex {
  private out: Uint8Array[] = [];
  private flushing = false;
  private ended = false;
  /** The reply to a batch comes before the next batch is sent: the protocol is in order. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly thread: PgliteThread,
    private readonly conn: number,
    private readonly gate: () => Promise<unknown>,
  ) {
    super();
  }

  connect() {
    this.chain = Promise.all([this.gate(), this.thread.ready])
      .then(() => this.thread.request({ type: 'open', conn: this.conn }))
      .then(
        () => this.emit('connect'),
        (err) => this.destroy(err),
      );
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void) {
    if (!isTerminate(chunk)) this.out.push(chunk);
    if (!this.flushing) {
      this.flushing = true;
      // A query's messages are written in one synchronous run: send them together.
      process.nextTick(() => this.flush());
    }
    done();
  }

  override _final(done: (err?: Error | null) => void) {
    this.chain.then(() => {
      this.release();
      this.push(null);
      done();
    });
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void) {
    this.release();
    done(err);
  }

  /** Tells the session this connection is gone (a transaction it left open is rolled back). */
  private release() {
    if (this.ended) return;
    this.ended = true;
    this.thread.request({ type: 'end', conn: this.conn }).catch(() => {});
  }

  private flush() {
    this.flushing = false;
    if (this.out.length === 0) return;
    // Its own memory (not Node's shared pool), so it can be handed to the worker.
    const bytes = new Uint8Array(this.out.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of this.out) {
      bytes.set(b, at);
      at += b.length;
    }
    this.out = [];
    this.chain = this.chain
      .then(this.gate)
      .then(() => this.thread.request({ type: 'exec', conn: this.conn, bytes }))
      .then(
        (reply) => {
          if (reply.length > 0) this.push(Buffer.from(reply.buffer, reply.byteOffset, reply.length));
        },
        (err) => this.destroy(err),
      );
  }
}

/** Omit over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The worker's script: the bundle's pglite-worker.js beside this code (dist/), or, run from the
 * sources (tests), the TypeScript file behind a small loader that registers tsx in the thread.
 */
function workerFile(): URL {
  const built = new URL('./pglite-worker.js', import.meta.url);
  if (existsSync(built)) return built;
  // The ESM build of tsx's API (require.resolve names the CommonJS one beside it).
  const tsxCjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsx = pathToFileURL(tsxCjs.replace(/index\.cjs$/, 'index.mjs')).href;
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  const loader = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(loader)}`);
}
