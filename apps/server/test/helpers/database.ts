import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../../src/db/client.js';
import { pgliteImage, postgresTemplate, untilIdle } from './migrated.js';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (EVDRA_TEST_DB=postgres)
 * a new database on the TEST_DATABASE_URL server, dropped on close; each a copy of one migrated
 * once (migrated.ts).
 */
export type TestDatabase = Database & {
  /** PostgreSQL only: where another process could connect. */ url?: string;
};

export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.EVDRA_TEST_DB !== 'postgres') {
    const database = await openPglite(undefined, undefined, undefined, await pgliteImage());
    await database.migrate(); // nothing left to apply unless a migration is newer than the image
    return database;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('EVDRA_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `evdra_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name} template ${await postgresTemplate(serverUrl)}`);
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

async function dropWhenIdle(url: string, name: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await untilIdle(client, name);
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
