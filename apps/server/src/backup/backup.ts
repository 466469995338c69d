import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * One-file backups of a whole instance (users, records, files: every table of the `public`
 * schema), for PGlite and PostgreSQL alike: gzipped JSON lines, a header then rows in batches,
 * written from one consistent snapshot. Values go through `to_jsonb` and come back through
 * `jsonb_populate_recordset`, so every column type (bytea, numeric, timestamptz) round-trips
 * exactly and tables other modules add are included without code here.
 */
export const BACKUP_FORMAT = 'evdra-backup';
const VERSION = 1;

/**
 * Kept by triggers from other tables (cost rollup, listing history, record versions, the analytics' and
 * the market's generations): rebuilt by the restore, not copied.
 */
const DERIVED = new Set([
  'analytics_generation',
  'market_generation',
  'vehicle_month_costs',
  'global_month_costs',
  'vehicle_history',
  'vehicle_record_versions',
]);

type Header = { format: string; version: number; createdAt: string; migrations: number; tables: string[] };

export class BackupError extends Error {}

const ident = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/** Public tables, parents before children (foreign keys), then by name. */
export async function tablesInOrder(db: Executor): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`),
  ).map((r) => r.name);
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and c.conrelid <> c.confrelid`),
  );
  const ordered: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (ordered.includes(t) || path.has(t)) return;
    path.add(t);
    for (const e of edges) if (e.child === t) visit(e.parent.replaceAll('"', ''), path);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered.filter((t) => tables.includes(t));
}

async function migrationCount(db: Executor): Promise<number> {
  try {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    );
    return row?.n ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Rows per line of the backup: at most BATCH, fewer for a table whose rows are big (files' bytes),
 * so that a line holds about BATCH_BYTES.
 */
const BATCH = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

/** Rows of `table` to read at a time, from its size on disk and its row count estimate. */
async function batchOf(db: Executor, table: string): Promise<number> {
  const [row] = rowsOf<{ bytes: number }>(
    await db.execute(sql`
      select pg_total_relation_size(c.oid)::float8 / greatest(c.reltuples, 1) as bytes
        from pg_class c where c.oid = ${`public."${table.replaceAll('"', '""')}"`}::regclass`),
  );
  return Math.max(1, Math.min(BATCH, Math.floor(BATCH_BYTES / Math.max(1, Number(row?.bytes ?? 1)))));
}

/**
 * Writes the whole instance to `file`; returns the row count per table. Streams: each table is read
 * through a cursor, a batch of rows at a time, each row as the database writes its JSON (the text
 * goes to the file as it is), so memory holds one batch whatever the tables' sizes.
 */
export async function backup(db: Db, file: string): Promise<Record<string, number>> {
  const gzip = createGzip();
  const out = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  const counts: Record<string, number> = {};
  await db.transaction(
    async (tx) => {
      const t: Executor = tx;
      const tables = await tablesInOrder(t);
      const header: Header = {
        format: BACKUP_FORMAT,
        version: VERSION,
        createdAt: new Date().toISOString(),
        migrations: await migrationCount(t),
        tables,
      };
      await write(JSON.stringify(header));
      for (const table of tables) {
        counts[table] = 0;
        const batch = await batchOf(t, table);
        await t.execute(
          sql`declare backup_rows no scroll cursor for select to_jsonb(x)::text as row from ${ident(table)} x`,
        );
        for (;;) {
          const rows = rowsOf<{ row: string }>(
            await t.execute(sql`fetch forward ${sql.raw(String(batch))} from backup_rows`),
          );
          if (rows.length === 0) break;
          counts[table] += rows.length;
          // The line restore() reads: {"table": …, "rows": [each row's JSON]}.
          await write(`{"table":${JSON.stringify(table)},"rows":[${rows.map((r) => r.row).join(',')}]}`);
          if (rows.length < batch) break;
        }
        await t.execute(sql`close backup_rows`);
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  gzip.end();
  await out;
  return counts;
}

/**
 * Restores `file` into a migrated database, in one transaction (a failure leaves it as it was).
 * Refuses a database that holds any row unless `force`, which empties it first.
 */
export async function restore(db: Db, file: string, { force = false } = {}): Promise<Record<string, number>> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  let header: Header;
  try {
    const first = await iterator.next();
    header = JSON.parse(first.value ?? '');
  } catch {
    throw new BackupError(`${file} is not an Evdra backup.`);
  }
  if (header.format !== BACKUP_FORMAT || header.version !== VERSION)
    throw new BackupError(`${file} is not an Evdra backup (format ${VERSION}).`);

  const counts: Record<string, number> = Object.fromEntries(header.tables.map((t) => [t, 0]));
  await db.transaction(async (tx) => {
    const t: Executor = tx;
    const target = await tablesInOrder(t);
    if (header.migrations > (await migrationCount(t)))
      throw new BackupError('This backup comes from a newer Evdra version: update first, then restore.');
    const nonEmpty = [];
    for (const table of target) {
      const [row] = rowsOf<{ any: boolean }>(
        await t.execute(sql`select exists(select 1 from ${ident(table)}) as any`),
      );
      if (row?.any) nonEmpty.push(table);
    }
    if (nonEmpty.length && !force)
      throw new BackupError(
        `The target database is not empty (${nonEmpty.join(', ')}). Restore into an empty one, or pass --force to replace everything in it.`,
      );
    if (nonEmpty.length)
      await t.execute(sql`truncate ${sql.join(target.map(ident), sql`, `)} restart identity cascade`);

    const columns = new Map<string, Set<string>>();
    for (const table of target) {
      const cols = rowsOf<{ name: string }>(
        await t.execute(
          sql`select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ${table}`,
        ),
      );
      columns.set(table, new Set(cols.map((c) => c.name)));
    }
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (!next.value.trim()) continue;
      const { table, rows } = JSON.parse(next.value) as { table: string; rows: Record<string, unknown>[] };
      const known = columns.get(table);
      if (!known) throw new BackupError(`The backup has a table this version does not know: ${table}.`);
      counts[table] = (counts[table] ?? 0) + rows.length;
      if (DERIVED.has(table) || rows.length === 0) continue;
      // Columns the backup has and this version knows (a newer column takes its default).
      const cols = Object.keys(rows[0] as object).filter((c) => known.has(c));
      const list = sql.join(cols.map(ident), sql`, `);
      await t.execute(
        sql`insert into ${ident(table)} (${list}) select ${list} from jsonb_populate_recordset(null::${ident(table)}, ${JSON.stringify(rows)}::jsonb)`,
      );
    }
    // Serial columns continue after the restored ids.
    const serials = rowsOf<{ table: string; column: string }>(
      await t.execute(sql`
        select table_name as table, column_name as column from information_schema.columns
        where table_schema = 'public' and column_default like 'nextval(%'`),
    );
    for (const s of serials) {
      await t.execute(
        sql`select setval(pg_get_serial_sequence(${`public."${s.table}"`}, ${s.column}), coalesce((select max(${ident(s.column)}) from ${ident(s.table)}), 0) + 1, false)`,
      );
    }
  });
  return counts;
}
