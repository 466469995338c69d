import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * Keyset paging of a list sorted by a time, latest first, then id (issue 54), for named statements:
 * the client's cursor is TimeIdCursor, `<microseconds since 1970>_<id>` of the page's last row.
 */

/**
 * The (time, id) a page starts after, from the placeholders `afterUs` (the cursor's microseconds)
 * and `afterId`: added as seconds and microseconds (exact, where one float multiplication is not),
 * or past every row when both are null. Parameters only, so it is an index condition of the scan.
 */
export const timeIdAfter = () => {
  const us = sql.placeholder('afterUs');
  return sql`(coalesce(timestamptz 'epoch' + (${us}::bigint / 1000000) * interval '1 second'
                       + (${us}::bigint % 1000000) * interval '1 microsecond', 'infinity'::timestamptz),
              coalesce(${sql.placeholder('afterId')}::int, 2147483647))`;
};

/** A row's cursor: where a page ending with it says the next one starts. */
export const timeIdCursor = (time: AnyColumn | SQL, id: AnyColumn | SQL) =>
  sql<string>`(extract(epoch from ${time}) * 1000000)::bigint::text || '_' || ${id}`;

/** The `afterUs` and `afterId` values of a TimeIdCursor (both null without one). */
export function timeIdValues(cursor: string | undefined): { afterUs: string | null; afterId: number | null } {
  if (!cursor) return { afterUs: null, afterId: null };
  const [us = '', id = ''] = cursor.split('_');
  return { afterUs: us, afterId: Number(id) };
}
