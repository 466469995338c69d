import { mkdtempSync, type ReadStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { type FileStore, localFileStore, openWhenAllowed, type StoredFile } from '../src/files/file-store.js';
import { notFound } from '../src/lib/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'evdra-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The local store, remembering every file it opened. */
function watchedStore(): FileStore & { opened: StoredFile[] } {
  const store = localFileStore(dir);
  const opened: StoredFile[] = [];
  return {
    ...store,
    opened,
    open: async (id) => {
      const file = await store.open(id);
      if (file) opened.push(file);
      return file;
    },
  };
}

describe('openWhenAllowed (a photo read beside its access check)', () => {
  it('answers the bytes and the type once access is granted', async () => {
    const store = watchedStore();
    await store.put('photo-allowed', Buffer.from('jpeg bytes'));
    const opened = await openWhenAllowed(store, 'photo-allowed', Promise.resolve('image/jpeg'));
    expect(opened?.contentType).toBe('image/jpeg');
    expect(await text(opened?.file.body as Readable)).toBe('jpeg bytes');
  });

  it('refuses with the access error and closes the file it opened, unread', async () => {
    const store = watchedStore();
    await store.put('photo-refused', Buffer.from('private'));
    await expect(
      openWhenAllowed(store, 'photo-refused', Promise.reject(notFound('File'))),
    ).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    await expect.poll(() => store.opened.length).toBe(1);
    const stream = store.opened[0]?.body as ReadStream | undefined;
    await expect.poll(() => stream?.destroyed).toBe(true);
    expect(stream?.bytesRead).toBe(0);
  });

  it('answers undefined for a file that is gone', async () => {
    expect(
      await openWhenAllowed(watchedStore(), 'photo-missing', Promise.resolve('image/jpeg')),
    ).toBeUndefined();
  });
});
