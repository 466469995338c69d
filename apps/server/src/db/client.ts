import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { findUp } from '../lib/paths.js';
import { PgliteThread } from './pglite-socket.js';
import type * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction opened on a Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repo runs its SQL on: the database, or a transaction on it (the same repo, bound to it). */
export type Executor = Db | Tx;

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Apply committed migrations; safe when several replicas start at once. */
  migrate(): Promise<void>;
  /**
   * Calls `onMessage` (with the payload) for every NOTIFY on `channel`, from any process on this database; `onLost`
   * when the subscription breaks (notifications may then be missed). Resolves to an unsubscribe.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onLost: (err: unknown) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

const MIGRATION_LOCK = 7_203_411;

/**
 * PGlite's default start parameters (0.5: PostgresModFactory.defaultStartParams, not exported), plus a
 * smaller shared_buffers: the WASM build zeroes the whole shared memory byte by byte at every start,
 * 0.6 s of a cold start at the default 128 MB. An embedded database of one household is a few MB;
 * 16 MB still holds it, and the rest comes from files through the OS cache.
 */
export const PGLITE_START_PARAMS = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'shared_buffers=16MB',
];
const migrationsFolder = () => findUp(import.meta.dirname, 'drizzle');

/**
 * True when the database already has every migration of `folder`: drizzle's own test (the newest
 * applied `created_at` against each migration's journal time) made with one query and the journal
 * alone, so a start on an up-to-date database skips migrate()'s DDL, the hashing of every migration
 * file and (PostgreSQL) the lock.
 */
async function migrationsApplied(query: (text: string) => Promise<{ rows: unknown[] }>, folder: string) {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  try {
    const { rows } = await query('select max(created_at) as last from drizzle.__drizzle_migrations');
    const last = (rows[0] as { last: string | number | null } | undefined)?.last;
    return last != null && Number(last) >= newest;
  } catch {
    return false; // no migrations table yet
  }
}

/**
 * The embedded database (PGlite) in its own thread, reached through node-postgres like a PostgreSQL
 * server (db/pglite-socket.ts): the server's thread keeps HTTP, auth and JSON while the WASM
 * database works beside it, and every statement the code names is planned once. A few connections
 * share PGlite's one session (pglite-session.ts): the next statement waits in the thread, not in the
 * server's, and a transaction holds the session while other connections' statements wait their turn.
 * `dataDir` undefined means in memory (tests). `migrations`: the folder migrate() applies (the
 * committed one unless a test says otherwise). `template`: a migrated data directory the thread copies
 * into `dataDir` when that holds no database yet (db/template.ts). `image`: in memory, a migrated
 * data directory image to start from (pglite-worker.ts).
 *
 * It resolves before PostgreSQL has started in the thread: queries wait for it, and while migrate()
 * runs every other query waits for the migrations too, so the server builds its app (whose set-up
 * queries need the current schema) while the database starts, not after. (migrate() runs at start,
 * before any transaction: one left open on the pool would wait for it while it waits for the session.)
 */
export async function openPglite(
  dataDir?: string,
  migrations?: string,
  template?: string,
  image?: string,
): Promise<Database> {
  // The thread first, before this function's first await: PostgreSQL starts there (~0.3 s of WASM)
  // while this one loads the driver and the app.
  const thread = new PgliteThread({ dataDir, startParams: PGLITE_START_PARAMS, template, image });
  thread.ready.catch(() => {}); // its failure reaches the first query
  // The schema (drizzle's table builders) loads here, after the thread has started: not on its path.
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }, schema] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
    import('./schema.js'),
  ]);
  const channels = new Map<string, Set<(payload: string) => void>>();
  // What a new pooled connection waits for: the thread's start, or a migration under way.
  let gate: Promise<unknown> = thread.ready;
  const connection = {
    // PGlite's one role and database (another name would end its session).
    user: 'postgres',
    database: 'postgres',
  };
  const pool = new pg.Pool({
    ...connection,
    // 4: the thread always has the next statement at hand (at 10 requests at once, 1 left it idle
    // 70% of the time, 4 doubled req/s, 10 added nothing).
    max: 4,
    idleTimeoutMillis: 0, // connections stay: opening one is a round trip to the worker
    stream: () => thread.socket(() => gate),
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // LISTEN is on PGlite's one session; its notifications arrive on whichever connection is open.
    client.on('notification', (n) => {
      for (const onMessage of channels.get(n.channel) ?? []) onMessage(n.payload ?? '');
    });
  });
  const db: Db = drizzlePg(pool, { schema });
  const migrateOnOwnConnection = async () => {
    const folder = migrations ?? migrationsFolder();
    const conn = new pg.Client({ ...connection, stream: () => thread.socket() });
    await conn.connect();
    try {
      if (await migrationsApplied((text) => conn.query(text), folder)) return;
      await migratePg(drizzlePg(conn), { migrationsFolder: folder });
    } finally {
      await conn.end();
    }
  };
  return {
    kind: 'pglite',
    db,
    migrate: () => {
      const migrating = migrateOnOwnConnection();
      gate = migrating;
      return migrating;
    },
    listen: async (channel, onMessage) => {
      let handlers = channels.get(channel);
      if (!handlers) {
        handlers = new Set();
        channels.set(channel, handlers);
        await pool.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      handlers.add(onMessage);
      return async () => {
        handlers.delete(onMessage);
      };
    },
    close: async () => {
      await pool.end();
      await thread.close();
    },
  };
}

/**
 * How long PostgreSQL may take before a request gives up (and answers 503, plugins/errors.ts) instead
 * of hanging while the database is away: to open a connection or get one from a busy pool, and to
 * answer a statement. TCP keep-alive finds a connection whose server vanished without a word.
 */
export const POSTGRES_TIMEOUTS = { connectMs: 5_000, queryMs: 30_000 };

export async function openPostgres(
  url: string,
  max = 10,
  timeouts: { connectMs: number; queryMs: number } = POSTGRES_TIMEOUTS,
): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }, schema] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
    import('./schema.js'),
  ]);
  const connection = {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  const pool = new pg.Pool({ ...connection, max });
  // An idle connection the server ended (restart, pg_terminate_backend) errors outside any query;
  // the pool drops it and opens a new one on demand. Unhandled, that event would end the process.
  pool.on('error', () => {});
  // The same on a connection in use (a transaction between statements): its query fails, and the
  // pool drops the connection when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  releaseLostClients(pool);
  // Return timestamps/numerics as strings the domain layer converts itself.
  const db: Db = drizzlePg(pool, { schema });
  return {
    kind: 'postgres',
    db,
    migrate: async () => {
      if (await migrationsApplied((text) => pool.query(text), migrationsFolder())) return;
      // A connection of its own without the read timeout: waiting for another replica's migration,
      // or one long DDL statement, may take longer than any request should.
      const conn = new pg.Client({ ...connection, query_timeout: undefined });
      conn.on('error', () => {});
      await conn.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(conn), { migrationsFolder: migrationsFolder() });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        await conn.end().catch(() => {});
      }
    },
    listen: async (channel, onMessage, onLost) => {
      // A dedicated connection: pooled ones are shared, and LISTEN belongs to a session.
      const conn = new pg.Client(connection);
      conn.on('notification', (n) => n.channel === channel && onMessage(n.payload ?? ''));
      conn.on('error', onLost);
      await conn.connect();
      await conn.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        // Keep a listener: a dying connection may still emit errors while it ends.
        conn.removeListener('error', onLost);
        conn.on('error', () => {});
        await conn.end();
      };
    },
    close: () => pool.end(),
  };
}

type PoolClientLike = {
  release: (err?: Error | boolean) => void;
  once(e: 'end', f: () => void): unknown;
  removeListener(e: 'end', f: () => void): unknown;
};
type PoolLike = { connect: (...args: never[]) => unknown };

/**
 * drizzle's transaction() (0.45, node-postgres) sends BEGIN before its try/finally: when BEGIN fails
 * because the database went away, the connection is never released. Each outage then took a pool
 * slot for good (the tenth left the server answering 503 after the database was back) and kept
 * pool.end() from returning at shutdown. A checked-out connection whose socket ends is released here,
 * with an error so the pool drops it; its owner's own release() later does nothing.
 */
function releaseLostClients(pool: PoolLike) {
  const connect = pool.connect.bind(pool) as (
    cb?: (err: Error | undefined, client?: PoolClientLike, done?: unknown) => void,
  ) => Promise<PoolClientLike> | undefined;
  const guard = (client: PoolClientLike) => {
    const release = client.release;
    let released = false;
    const onEnd = () => once(new Error('Connection terminated while checked out'));
    const once = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      client.removeListener('end', onEnd);
      release(err); // the pool gives the client a new release() at its next checkout
    };
    client.once('end', onEnd);
    client.release = once;
    return client;
  };
  // pool.query calls connect with a callback; drizzle and migrate() without one.
  pool.connect = ((cb?: (err: Error | undefined, client?: PoolClientLike, done?: unknown) => void) => {
    if (!cb) return (connect() as Promise<PoolClientLike>).then(guard);
    return connect((err, client) => {
      if (err || !client) return cb(err, client);
      guard(client);
      cb(undefined, client, client.release);
    });
  }) as PoolLike['connect'];
}
