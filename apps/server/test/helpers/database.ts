import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../../src/db/client.js';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (EVDRA_TEST_DB=postgres)
 * a new database on the TEST_DATABASE_URL server, dropped on close.
 */
export type TestDatabase = Database & {
  /** PostgreSQL only: where another process could connect. */ url?: string;
};

export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.EVDRA_TEST_DB !== 'postgres') {
    const database = await openPglite();
    await database.migrate();
    return database;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('EVDRA_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `evdra_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 5);
  await database.migrate();
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      await dropWhenIdle(serverUrl, name);
    },
  };
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * pg's pool.end() resolves before its sockets have closed; dropping `with (force)` at that moment
 * kills a closing connection and its client throws an uncaught error. Wait until they are gone.
 */
async function dropWhenIdle(url: string, name: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
