import { fillPlaceholders, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

/** node-postgres's Pool: the embedded database is reached through one too (db/client.ts). */
type Driver = {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
};

const dialect = new PgDialect();

/**
 * A named statement run on the driver itself, its rows as the driver returns them (objects keyed
 * by the statement's column aliases). For the few reads that return thousands of rows: drizzle's
 * per-field result mapping cost more CPU than the driver's own reading (10,000 marketplace cards:
 * ~110 ms against ~75 ms). And for the reads every page polls (a count, a list's version, JSON the
 * database writes): drizzle's prepared execute costs ~3.5 µs of CPU more per call than the driver's
 * query (promise layers, the result mapping), a few percent of a small GET. PostgreSQL plans it once
 * per connection (named statement), PGlite once per session. Not for transactions: it always uses
 * the pool.
 *
 * `query` (SQL or a select) uses `sql.placeholder(name)` for its inputs; the function takes their
 * values by name. Every selected value needs its key as alias (`.as(key)`): rows are keyed by column name.
 */
export type NamedStatement<Row> = (values: Record<string, unknown>) => Promise<Row[]>;

export function namedStatement<Row>(db: Executor, name: string, query: SQLWrapper): NamedStatement<Row> {
  const { sql: text, params } = dialect.sqlToQuery(query.getSQL());
  return (values) => {
    const driver = (db as unknown as { $client?: Driver }).$client;
    if (!driver) throw new Error(`${name}: a named statement runs on the pool, not in a transaction`);
    return driver
      .query({ name, text, values: fillPlaceholders(params, values) })
      .then((res) => res.rows as Row[]);
  };
}
