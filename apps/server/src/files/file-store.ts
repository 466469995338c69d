import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * A stored file being read: its length (for Content-Length) and its bytes, either whole when they
 * are at hand (a small file, sent in one write: through a stream, a photo cost ~10 µs more CPU) or
 * as a stream read a chunk at a time.
 */
export type StoredFile = { size: number; body: Buffer | Readable };

/**
 * Opens file `id` while `allowed` (the access check, resolving to the content type) runs: one wait
 * instead of two. A refused file is closed unread; undefined when the file is gone.
 */
export async function openWhenAllowed(
  store: FileStore,
  id: string,
  allowed: Promise<string>,
): Promise<{ file: StoredFile; contentType: string } | undefined> {
  const opening = store.open(id);
  let contentType: string;
  try {
    contentType = await allowed;
  } catch (err) {
    opening.then(
      (file) => {
        if (file && !Buffer.isBuffer(file.body)) file.body.destroy();
      },
      () => {},
    );
    throw err;
  }
  const file = await opening;
  return file && { file, contentType };
}

/** Where file bytes live. Local disk by default; an S3-compatible store can implement the same. */
export interface FileStore {
  put(id: string, bytes: Buffer): Promise<void>;
  /** undefined when the file is gone. */
  get(id: string): Promise<Buffer | undefined>;
  /** The file as a stream, so serving a large one does not hold it whole in memory; undefined when gone. */
  open(id: string): Promise<StoredFile | undefined>;
  delete(id: string): Promise<void>;
}

/** Files under `dir`, named by server-made ids only (never a client's name). */
export function localFileStore(dir: string): FileStore {
  const path = (id: string) => {
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(id)) throw new Error(`bad file id ${id}`);
    return join(dir, id);
  };
  return {
    async put(id, bytes) {
      await mkdir(dir, { recursive: true });
      await writeFile(path(id), bytes);
    },
    async get(id) {
      try {
        return await readFile(path(id));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async open(id) {
      try {
        const { size } = await stat(path(id));
        return { size, body: createReadStream(path(id)) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    delete: (id) => rm(path(id), { force: true }),
  };
}
