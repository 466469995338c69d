import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('indexes', () => {
  it('every foreign key has an index whose leading columns are its columns', async () => {
    const missing = rowsOf<{ fk: string }>(
      await database.db.execute(sql`
        select c.conrelid::regclass || '(' || string_agg(a.attname, ', ' order by k.ord) || ')' as fk
        from pg_constraint c
        cross join lateral unnest(c.conkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace
          and not exists (
            select 1 from pg_index i
            where i.indrelid = c.conrelid
              and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
              and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
          )
        group by c.oid, c.conrelid
        order by 1`),
    ).map((r) => r.fk);
    expect(missing).toEqual([]);
  });

  it('every timestamp that housekeeping prunes by is the leading column of an index', async () => {
    const pruned = [
      'refresh_tokens.expires_at',
      'password_reset_tokens.expires_at',
      'login_failures.created_at',
      'idempotency_keys.created_at',
      'notifications.created_at',
      'files.created_at',
      'file_blobs.created_at',
      'oidc_login_states.created_at',
      'oidc_sessions.created_at',
    ];
    const indexed = rowsOf<{ col: string }>(
      await database.db.execute(sql`
        select i.indrelid::regclass || '.' || a.attname as col
        from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
        where i.indrelid::regclass::text not like 'pg_%'`),
    ).map((r) => r.col);
    expect(pruned.filter((c) => !indexed.includes(c))).toEqual([]);
  });
});
