import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from '../src/db/client.js';
import { rawReplies } from '../src/db/pglite-session.js';

// The embedded database's connections share PGlite's one session (db/pglite-session.ts); each must
// still behave as a connection of its own. Run once, in the PGlite project.
const onPglite = describe.skipIf(process.env.EVDRA_TEST_DB === 'postgres');

onPglite('PGlite: several connections on one session', () => {
  let database: Database;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await openPglite();
    pool = (database.db as unknown as { $client: pg.Pool }).$client;
    await pool.query('create table notes (id serial primary key, text text not null)');
  });
  afterAll(() => database.close());

  const count = async () => Number((await pool.query('select count(*) as n from notes')).rows[0].n);

  it('answers many statements at once, each with its own answer, the same named statement on every connection', async () => {
    const asked = Array.from({ length: 60 }, (_, i) => i);
    const answers = await Promise.all(
      asked.map((i) =>
        pool
          .query({ name: 'echo', text: 'select $1::int * 2 as twice', values: [i] })
          .then((r) => r.rows[0].twice),
      ),
    );
    expect(answers).toEqual(asked.map((i) => i * 2));
    expect(pool.totalCount).toBeGreaterThan(1); // more than one connection took part
  });

  it("runs another connection's statement after an open transaction, never inside it", async () => {
    await pool.query('delete from notes');
    const tx = await pool.connect();
    try {
      await tx.query('begin');
      await tx.query(`insert into notes (text) values ('rolled back')`);
      // Autocommit on another connection while the transaction is open: it waits for it.
      let settled = false;
      const other = pool.query(`insert into notes (text) values ('kept')`).then(() => {
        settled = true;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
      await tx.query('rollback');
      await other;
    } finally {
      tx.release();
    }
    const { rows } = await pool.query('select text from notes');
    expect(rows).toEqual([{ text: 'kept' }]);
  });

  it('rolls back the transaction of a connection that goes away, and the others go on', async () => {
    await pool.query('delete from notes');
    const tx = await pool.connect();
    await tx.query('begin');
    await tx.query(`insert into notes (text) values ('never committed')`);
    tx.release(new Error('the connection broke')); // the pool destroys it
    expect(await count()).toBe(0);
    await pool.query(`insert into notes (text) values ('after')`);
    expect(await count()).toBe(1);
  });

  it('keeps a failed statement to its own connection', async () => {
    const results = await Promise.allSettled([
      pool.query('select 1/0'),
      pool.query({ name: 'echo', text: 'select $1::int * 2 as twice', values: [21] }),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { rows: [{ twice: 42 }] } });
  });
});

onPglite('PGlite: a named statement after a notification', () => {
  it('is prepared once for the session even when a notification came first in its reply', async () => {
    const database = await openPglite();
    try {
      const pool = (database.db as unknown as { $client: pg.Pool }).$client;
      const heard: string[] = [];
      await database.listen(
        'news',
        (payload) => heard.push(payload),
        () => {},
      );
      // Every connection notifies, then runs the same named statement for its first time.
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      try {
        for (const [i, client] of clients.entries()) {
          await client.query(`notify news, 'n${i}'`);
          const { rows } = await client.query({ name: 'one', text: 'select 1 as one' });
          expect(rows).toEqual([{ one: 1 }]);
        }
      } finally {
        for (const client of clients) client.release();
      }
      expect(heard).toEqual(['n0', 'n1', 'n2']);
    } finally {
      await database.close();
    }
  });
});

onPglite('PGlite replies as its thread hands them over (rawReplies)', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(() => db.close());

  /** A simple-protocol Query message. */
  const query = (sql: string) => {
    const text = Buffer.from(`${sql}\0`);
    const message = Buffer.alloc(5 + text.length);
    message[0] = 0x51; // 'Q'
    message.writeInt32BE(4 + text.length, 1);
    text.copy(message, 5);
    return new Uint8Array(message);
  };

  it('answers the bytes PostgreSQL wrote, each reply in a buffer of its own (moved, not copied, to the server)', async () => {
    const sql = "select 1 as one, 'two' as two, repeat('z', 300000) as long";
    const reply = await rawReplies(db).execProtocolRaw(query(sql));
    expect(Buffer.from(reply)).toEqual(Buffer.from(await db.execProtocolRaw(query(sql))));
    expect(Buffer.from(reply).includes('two')).toBe(true);
    expect(reply.byteOffset).toBe(0);
    expect(reply.buffer.byteLength).toBe(reply.length);
  });

  it('keeps nothing of a reply once it is answered: 100 rows of 1 MB leave the heap as it was', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const session = rawReplies(db);
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed / 2 ** 20;
    };
    await session.execProtocolRaw(query('select 1')); // warm
    const before = heap();
    let bytes = 0;
    for (let i = 0; i < 100; i++)
      bytes += (await session.execProtocolRaw(query(`select repeat('x', 1000000) as r${i}`))).length;
    expect(bytes).toBeGreaterThan(100 * 1_000_000);
    // PGlite's own execProtocolRaw kept every row it answered, parsed, on this heap (~100 MB here).
    expect(heap() - before).toBeLessThan(20);
  });
});
