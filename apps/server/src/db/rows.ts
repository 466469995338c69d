import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** The rows of a raw `db.execute`: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The rows of the subquery aliased `r` as one JSON array text ('[]' for none), in the subquery's own
 * order (its ORDER BY): the database writes the answer, keyed by the subquery's column aliases, and
 * the server sends it on. Not `json_agg(r order by …)`: an ordered aggregate sorts copies of whole
 * rows, which made it half of the 300-row fuel list's execution time (EXPLAIN ANALYZE on PostgreSQL
 * 15: 1.5 ms against 0.8 ms); PostgreSQL aggregates a sorted subquery in its order when, as here, the
 * outer query only aggregates (no join or grouping that could reorder it).
 */
export const jsonArrayText = () => sql<string>`coalesce(json_agg(r), '[]')::text`;

/** A timestamptz as Date#toISOString writes it (UTC, milliseconds, 'Z'), for JSON the database writes. */
export const isoTimestamp = (column: AnyColumn | SQL) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Each expression under its own key as its column alias: a select whose row is the JSON object the database writes. */
export function aliased<K extends string>(columns: Record<K, SQL>): Record<K, SQL.Aliased> {
  return Object.fromEntries(
    Object.entries<SQL>(columns).map(([key, value]) => [key, value.as(key)]),
  ) as Record<K, SQL.Aliased>;
}
