import { type SQL, sql } from 'drizzle-orm';

/** The rows of a raw `db.execute`: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The rows of the subquery aliased `r` as one JSON array text ('[]' for none), sorted by `order`:
 * the database writes the answer, keyed by the subquery's column aliases, and the server sends it on.
 */
export const jsonArrayText = (order: SQL) => sql<string>`coalesce(json_agg(r order by ${order}), '[]')::text`;
