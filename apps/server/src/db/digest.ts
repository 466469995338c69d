import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * An aggregate: the (id, version) pairs of the rows it reads as one short text, which changes when a
 * pair comes, goes or its version moves. The count, then two 64-bit XORs of each pair's hash (its
 * version hashed with its id as the seed, and with the id negated): no sort and no text per row. A
 * stamp of a fleet's 200 cars listed as 'id:version,…' in id order took 0.44–0.50 ms of PostgreSQL;
 * with this, 0.16–0.22 (pgbench, issue 54). Two different sets share a digest only when 128 bits of
 * hashes collide; the ids are unique in each set, so no pair cancels itself.
 */
export const versionsDigest = (id: AnyColumn | SQL, version: AnyColumn | SQL) =>
  sql<string>`count(*) || ':' || coalesce(bit_xor(hashint8extended(${version}, ${id})), 0)
    || ':' || coalesce(bit_xor(hashint8extended(${version}, -${id})), 0)`;
