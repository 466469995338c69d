import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { findUp } from '../lib/paths.js';
import * as schema from './schema.js';

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
const migrationsFolder = () => findUp(import.meta.dirname, 'drizzle');

/**
 * PGlite keeps one connection in-process; `dataDir` undefined means in memory (tests).
 * `migrations`: the folder migrate() applies (the committed one unless a test says otherwise).
 */
export async function openPglite(dataDir?: string, migrations?: string): Promise<Database> {
  const client = await PGlite.create(dataDir);
  const db: Db = drizzlePglite(client, { schema });
  return {
    kind: 'pglite',
    db,
    migrate: async () =>
      migratePglite(drizzlePglite(client), { migrationsFolder: migrations ?? migrationsFolder() }),
    listen: (channel, onMessage) => client.listen(channel, onMessage).then((off) => () => off()),
    close: () => client.close(),
  };
}

export async function openPostgres(url: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection the server ended (restart, pg_terminate_backend) errors outside any query;
  // the pool drops it and opens a new one on demand. Unhandled, that event would end the process.
  pool.on('error', () => {});
  // The same on a connection in use (a transaction between statements): its query fails, and the
  // pool drops the connection when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  // Return timestamps/numerics as strings the domain layer converts itself.
  const db: Db = drizzlePg(pool, { schema });
  return {
    kind: 'postgres',
    db,
    migrate: async () => {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(conn), { migrationsFolder: migrationsFolder() });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        conn.release();
      }
    },
    listen: async (channel, onMessage, onLost) => {
      // A dedicated connection: pooled ones are shared, and LISTEN belongs to a session.
      const conn = new pg.Client({ connectionString: url });
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
