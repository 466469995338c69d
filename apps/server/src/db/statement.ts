import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

type Driver = {
  query(
    config: string | { name: string; text: string; values: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: unknown[] }>;
};

const dialect = new PgDialect();

/**
 * A named statement run on the driver itself, its rows as the driver returns them (objects keyed
 * by the statement's column aliases). For the few reads that return thousands of rows: drizzle's
 * per-field result mapping cost more CPU than the driver's own reading (10,000 marketplace cards:
 * ~110 ms against ~75 ms). PostgreSQL plans it once per connection (named statement); PGlite runs
 * the same text. Not for transactions: it always uses the pool (or the embedded database).
 *
 * `query` uses `sql.placeholder(name)` for its inputs; the function takes their values by name.
 */
export type NamedStatement<Row> = (values: Record<string, unknown>) => Promise<Row[]>;

export function namedStatement<Row>(db: Db, name: string, query: SQL): NamedStatement<Row> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return async (values) => {
    const driver = (db as unknown as { $client?: Driver }).$client;
    if (!driver) throw new Error(`${name}: a named statement runs on the pool, not in a transaction`);
    // PGlite's query(text, values) has no named statements; node-postgres (a Pool) takes a config.
    const embedded = 'waitReady' in driver;
    const filled = fillPlaceholders(params, values);
    const res = embedded
      ? await driver.query(text, filled)
      : await driver.query({ name, text, values: filled });
    return res.rows as Row[];
  };
}
