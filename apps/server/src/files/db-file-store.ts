import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { fileBlobs } from '../db/schema.js';
import type { FileStore } from './file-store.js';

const FILE_ID = /^[A-Za-z0-9_-]{8,64}$/;
/**
 * Bytes read per query when streaming. A re-encoded photo (≤ 600×400, well under this) comes back in
 * the first query with its length; only larger files take more queries, one chunk in memory at a time.
 */
export const STREAM_CHUNK = 256 * 1024;

/**
 * Bytes of recently served small files kept in memory. A file's bytes never change under its id
 * (ids are server-made and never reused), and every request still passes the access check, which
 * reads the `files` row, so a cached copy is only a faster read of the same bytes: photos, read
 * on every list screen, then cost the database no bytea read (on PGlite, its one thread).
 */
export const CACHE_BYTES = 32 * 1024 * 1024;

const asBuffer = (v: Buffer | Uint8Array) =>
  Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.length);

/**
 * File bytes in the database (`file_blobs`, bytea) on PostgreSQL and PGlite alike, so every replica
 * serves every file and one backup holds everything. Photos are small after re-encoding (≤ 600×400).
 */
export function databaseFileStore(db: Db): FileStore {
  const check = (id: string) => {
    if (!FILE_ID.test(id)) throw new Error(`bad file id ${id}`);
    return id;
  };
  // Every photo request reads this: planned once per connection.
  const head = db
    .select({ size: sql<number>`octet_length(${fileBlobs.bytes})`, bytes: chunkAt(0) })
    .from(fileBlobs)
    .where(eq(fileBlobs.id, sql.placeholder('id')))
    .prepare('file_head');
  const cache = new ByteCache(CACHE_BYTES);
  return {
    async put(id, bytes) {
      await db
        .insert(fileBlobs)
        .values({ id: check(id), bytes })
        .onConflictDoUpdate({ target: fileBlobs.id, set: { bytes } });
      cache.delete(id);
    },
    async get(id) {
      if (!FILE_ID.test(id)) return undefined;
      const [row] = await db.select({ bytes: fileBlobs.bytes }).from(fileBlobs).where(eq(fileBlobs.id, id));
      return row?.bytes;
    },
    async open(id) {
      if (!FILE_ID.test(id)) return undefined;
      const cached = cache.get(id);
      if (cached) return { size: cached.length, body: cached };
      const [row] = await head.execute({ id });
      if (!row) return undefined;
      const size = Number(row.size);
      const first = asBuffer(row.bytes);
      if (first.length === size) {
        cache.set(id, first);
        return { size, body: first };
      }
      async function* chunks() {
        yield first;
        // substring() on bytea reads only the TOAST chunks it needs, so each query costs one chunk.
        for (let offset = first.length; offset < size; ) {
          const [row] = await db
            .select({ bytes: chunkAt(offset) })
            .from(fileBlobs)
            .where(eq(fileBlobs.id, id));
          const bytes = row ? asBuffer(row.bytes) : Buffer.alloc(0);
          // Ids are never reused, so a missing or shorter row means the file was deleted mid-read.
          if (bytes.length === 0) throw new Error(`file ${id} went away while it was being read`);
          offset += bytes.length;
          yield bytes;
        }
      }
      // Byte mode with a one-chunk buffer: the next chunk is read only once the client took the last.
      return { size, body: Readable.from(chunks(), { objectMode: false, highWaterMark: STREAM_CHUNK }) };
    },
    async delete(id) {
      cache.delete(id);
      await db.delete(fileBlobs).where(eq(fileBlobs.id, check(id)));
    },
  };
}

/** `STREAM_CHUNK` bytes of the file from `offset` (0-based), as the driver's bytea value. */
const chunkAt = (offset: number) =>
  sql<Buffer | Uint8Array>`substring(${fileBlobs.bytes} from ${offset + 1} for ${STREAM_CHUNK})`;

/**
 * Moves files an older version kept in `dir` (DATA_DIR/files) into `store`, once: each file is
 * copied (an existing id is overwritten with the same bytes), then the folder is renamed to
 * `files.imported` so later starts skip it. Returns how many files moved.
 */
export async function importLocalFiles(
  dir: string,
  store: FileStore,
  log: FastifyBaseLogger,
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let moved = 0;
  for (const name of names) {
    if (!FILE_ID.test(name)) continue;
    await store.put(name, await readFile(join(dir, name)));
    moved += 1;
  }
  await rename(dir, `${dir}.imported`);
  log.info({ moved, from: dir }, 'files moved from the data directory into the database');
  return moved;
}

/** Least recently used first out, up to `limit` bytes in all. */
class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private total = 0;
  constructor(private readonly limit: number) {}

  get(id: string): Buffer | undefined {
    const bytes = this.entries.get(id);
    if (bytes) {
      this.entries.delete(id); // re-inserted: now the most recent
      this.entries.set(id, bytes);
    }
    return bytes;
  }

  set(id: string, bytes: Buffer) {
    if (bytes.length > this.limit / 8) return;
    this.delete(id);
    this.entries.set(id, bytes);
    this.total += bytes.length;
    for (const [oldest, old] of this.entries) {
      if (this.total <= this.limit) break;
      this.entries.delete(oldest);
      this.total -= old.length;
    }
  }

  delete(id: string) {
    const bytes = this.entries.get(id);
    if (!bytes) return;
    this.entries.delete(id);
    this.total -= bytes.length;
  }
}
