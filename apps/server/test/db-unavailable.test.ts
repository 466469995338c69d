import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../src/db/errors.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

// Which failures answer 503 (the database cannot be reached now) rather than 500 or a client error:
// real errors from the real driver, not hand-made objects.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('databaseUnavailable', () => {
  it('is true for a database that refuses connections, resets one, or keeps a pool waiting', async () => {
    const port = await closedPort();
    const refused = await failureOf(async () => {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'x', connectionTimeoutMillis: 2_000 });
      await client.connect();
    });
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(databaseUnavailable(refused)).toBe(true);

    // A server that accepts and hangs up at once: what a restarting PostgreSQL or a cut proxy does.
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const reset = await failureOf(async () => {
      const client = new pg.Client({
        host: '127.0.0.1',
        port: (hangUp.address() as { port: number }).port,
        user: 'x',
      });
      client.on('error', () => {});
      await client.connect();
    });
    hangUp.close();
    expect(databaseUnavailable(reset)).toBe(true);

    // A server that accepts and never says a word: the connection times out, and a query queued
    // behind it in a full pool gives up waiting.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: (silent.address() as { port: number }).port,
      user: 'x',
      max: 1,
      connectionTimeoutMillis: 300,
    });
    const [connecting, queued] = await Promise.all([
      failureOf(() => pool.query('select 1')),
      failureOf(() => pool.query('select 2')),
    ]);
    await pool.end();
    silent.close();
    expect(String(connecting)).toMatch(/timeout/);
    expect(databaseUnavailable(connecting)).toBe(true);
    expect(String(queued)).toMatch(/timeout exceeded when trying to connect/);
    expect(databaseUnavailable(queued)).toBe(true);
  });

  it('is false for what a request itself caused, and for an outbound call that failed', async () => {
    await database.db.execute(sql`create temporary table once (k int primary key)`);
    await database.db.execute(sql`insert into once values (1)`);
    const duplicate = await failureOf(() => database.db.execute(sql`insert into once values (1)`));
    expect(databaseUnavailable(duplicate)).toBe(false);
    const badDate = await failureOf(() => database.db.execute(sql`select '2026-13-45'::date`));
    expect(databaseUnavailable(badDate)).toBe(false);
    const port = await closedPort();
    const fetchFailed = await failureOf(() => fetch(`http://127.0.0.1:${port}/`));
    expect(databaseUnavailable(fetchFailed)).toBe(false);
    expect(databaseUnavailable(new Error('Something else broke'))).toBe(false);
  });
});
