import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { fileBlobs } from '../db/schema.js';
import type { FileStore } from './file-store.js';

const FILE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * File bytes in the database (`file_blobs`, bytea) on PostgreSQL and PGlite alike, so every replica
 * serves every file and one backup holds everything. Photos are small after re-encoding (≤ 600×400).
 */
export function databaseFileStore(db: Db): FileStore {
  const check = (id: string) => {
    if (!FILE_ID.test(id)) throw new Error(`bad file id ${id}`);
    return id;
  };
  return {
    async put(id, bytes) {
      await db
        .insert(fileBlobs)
        .values({ id: check(id), bytes })
        .onConflictDoUpdate({ target: fileBlobs.id, set: { bytes } });
    },
    async get(id) {
      if (!FILE_ID.test(id)) return undefined;
      const [row] = await db.select({ bytes: fileBlobs.bytes }).from(fileBlobs).where(eq(fileBlobs.id, id));
      return row?.bytes;
    },
    async delete(id) {
      await db.delete(fileBlobs).where(eq(fileBlobs.id, check(id)));
    },
  };
}

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
