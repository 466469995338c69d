import type { PGlite } from '@electric-sql/pglite';

/** What the scheduler needs of PGlite. */
export type Session = {
  execProtocolRaw(bytes: Uint8Array): Promise<Uint8Array>;
  isInTransaction(): boolean;
  exec(sql: string): Promise<unknown>;
  close(): Promise<void>;
};
/** A connection opens, sends a batch of protocol messages, or ends; or the database closes. */
export type SessionMessage =
  | { type: 'open' | 'end'; id: number; conn: number }
  | { type: 'exec'; id: number; conn: number; bytes: Uint8Array }
  | { type: 'close'; id: number; conn?: undefined };
export type Reply = { bytes?: Uint8Array; message?: string };

const PARSE = 0x50; // 'P'
const PARSE_COMPLETE = Uint8Array.of(0x31, 0, 0, 0, 4); // '1', length 4

/**
 * Lets several node-postgres connections share PGlite's one session, as if each had its own:
 *
 * - **One batch at a time, in arrival order.** A connection sends a whole query at once (its
 *   Parse/Bind/Execute/Sync, or a simple Query), so batches of different connections never mix.
 * - **A transaction holds the session.** From the batch that leaves the session in a transaction
 *   until the one that ends it, only that connection's batches run; the others wait in line (on
 *   PostgreSQL they would run beside it, unseen by it: here they simply run after it). A
 *   connection that goes away mid-transaction has it rolled back.
 * - **Named statements are the session's.** A statement name always stands for the same text in
 *   this code, so a Parse of a name another connection already prepared with that very text is
 *   answered from the session's copy (ParseComplete) instead of failing as a duplicate.
 */
export class SessionScheduler {
  private readonly waiting: SessionMessage[] = [];
  private running = false;
  /** The connection whose transaction holds the session. */
  private owner: number | undefined;
  /** Open connections: a batch of one that has ended (still on its way) is refused, never run. */
  private readonly open = new Set<number>();
  /** Prepared statement names of the session, and their text. */
  private readonly prepared = new Map<string, string>();

  constructor(
    private readonly db: Session,
    private readonly answer: (msg: SessionMessage, reply: Reply) => void,
  ) {}

  receive(msg: SessionMessage): void {
    this.waiting.push(msg);
    if (!this.running) void this.drain();
  }

  private async drain() {
    this.running = true;
    for (;;) {
      const i = this.waiting.findIndex(
        (m) => this.owner === undefined || m.type !== 'exec' || m.conn === this.owner,
      );
      if (i < 0) break;
      const [msg] = this.waiting.splice(i, 1) as [SessionMessage];
      let reply: Reply;
      try {
        reply = await this.handle(msg);
      } catch (err) {
        reply = { message: (err as Error).message };
      }
      this.answer(msg, reply);
    }
    this.running = false;
  }

  private async handle(msg: SessionMessage): Promise<Reply> {
    switch (msg.type) {
      case 'exec': {
        if (!this.open.has(msg.conn)) return { message: 'The connection has ended.' };
        const bytes = await this.exec(msg.bytes);
        this.owner = this.db.isInTransaction() ? msg.conn : undefined;
        return { bytes };
      }
      case 'end':
        this.open.delete(msg.conn);
        if (this.owner === msg.conn) {
          this.owner = undefined;
          if (this.db.isInTransaction()) await this.db.exec('rollback');
        }
        return {};
      case 'open':
        this.open.add(msg.conn);
        return {};
      case 'close':
        await this.db.close();
        return {};
    }
  }

  /** Runs one batch; a leading Parse of a statement the session already has is answered for it. */
  private async exec(bytes: Uint8Array): Promise<Uint8Array> {
    const parse = bytes[0] === PARSE ? readParse(bytes) : undefined;
    if (!parse?.name) return this.db.execProtocolRaw(bytes);
    const known = this.prepared.get(parse.name);
    if (known === parse.text) {
      const rest = await this.db.execProtocolRaw(bytes.subarray(parse.length));
      const out = new Uint8Array(PARSE_COMPLETE.length + rest.length);
      out.set(PARSE_COMPLETE);
      out.set(rest, PARSE_COMPLETE.length);
      return out;
    }
    // A name reused for another text fails on the session as it would on one PostgreSQL connection.
    const out = await this.db.execProtocolRaw(bytes);
    if (known === undefined && out[0] === PARSE_COMPLETE[0]) this.prepared.set(parse.name, parse.text);
    return out;
  }
}

/** The statement name and text of the Parse message at the start of `bytes`, and its length. */
function readParse(bytes: Uint8Array): { name: string; text: string; length: number } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const length = 1 + view.readInt32BE(1);
  const nameEnd = view.indexOf(0, 5);
  const textEnd = view.indexOf(0, nameEnd + 1);
  return {
    name: view.toString('utf8', 5, nameEnd),
    text: view.toString('utf8', nameEnd + 1, textEnd),
    length,
  };
}

/**
 * PGlite as the scheduler uses it, each reply in a buffer of its own. Not through its
 * execProtocolRaw: that also parses every message of the reply into JS objects and keeps them in a
 * list only its execProtocol empties, so this thread's heap held every row the server ever read
 * (ten 20 MB downloads grew it by ~900 MB in 5 s, bench:files) and spent its time building them.
 * The stream variant hands over the reply's bytes and nothing else.
 */
export function rawReplies(db: PGlite): Session {
  return {
    async execProtocolRaw(bytes) {
      const parts: Uint8Array[] = [];
      // A copy of each part: it is a view of the WASM memory, which the next statement overwrites.
      await db.execProtocolRawStream(bytes, { onRawData: (part) => parts.push(new Uint8Array(part)) });
      return parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts);
    },
    isInTransaction: () => db.isInTransaction(),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

/** The parts in one buffer of its own (never Buffer.concat: a small Buffer shares a pooled slab). */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
