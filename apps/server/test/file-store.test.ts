import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBlobs, files } from '../src/db/schema.js';
import { databaseFileStore, importLocalFiles, STREAM_CHUNK } from '../src/files/db-file-store.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const silent = { info() {}, warn() {} } as unknown as Parameters<typeof importLocalFiles>[2];

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
let admin: TestClient;
let vehicleId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client; // the first account is the admin
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  vehicleId = (
    await alice.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'B-1-FS',
      engineSize: 1.2,
      odometer: 1000,
      aiEvaluationConsent: false,
    })
  ).data.id;
});
afterAll(() => t.close());

async function uploadPhoto() {
  const { payload, headers } = multipart([
    { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: fixture('car-gps.jpg') } },
  ]);
  const res = await alice.request('POST', `/api/vehicles/${vehicleId}/upload-photo`, payload, { headers });
  expect(res.statusCode).toBe(200);
  return { url: res.body, id: res.body.split('/').pop() as string };
}

describe('files in the database', () => {
  it('keeps the bytes of an upload in file_blobs and serves them from there', async () => {
    const { url, id } = await uploadPhoto();
    const [row] = await t.database.db.select().from(fileBlobs).where(eq(fileBlobs.id, id));
    expect(row?.bytes).toBeInstanceOf(Buffer);
    const img = await alice.get(url);
    expect(img.statusCode).toBe(200);
    expect(Buffer.compare(img.rawPayload, row?.bytes as Buffer)).toBe(0);
    expect(img.headers.etag).toBe(`"${id}"`);
    expect(img.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });

  it('answers 304 without a body on a matching If-None-Match, and 404 to another user even then', async () => {
    const { url, id } = await uploadPhoto();
    const again = await alice.get(url, { headers: { 'if-none-match': `W/"other", "${id}"` } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(`"${id}"`);
    const stale = await alice.get(url, { headers: { 'if-none-match': '"something-else"' } });
    expect(stale.statusCode).toBe(200);
    const foreign = await bob.get(url, { headers: { 'if-none-match': `"${id}"` } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.rawPayload.includes(Buffer.from([0xff, 0xd8]))).toBe(false);
    expect((await bob.get(url)).statusCode).toBe(404);
    // An administrator sees every vehicle, so every vehicle's photo.
    const asAdmin = await admin.get(url);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('streams a large file back byte-identical, a chunk at a time, with its length, ETag and 304', async () => {
    // Uploads are re-encoded small; a 5 MB file (e.g. from an older version) goes in directly.
    const bytes = randomBytes(5 * 1024 * 1024 + 123);
    const id = 'large_file_5mb_0001';
    const store = databaseFileStore(t.database.db);
    await store.put(id, bytes);
    await t.database.db
      .insert(files)
      .values({ id, vehicleId, contentType: 'image/jpeg', size: bytes.length });

    const chunks: Buffer[] = [];
    const opened = await store.open(id);
    expect(opened?.size).toBe(bytes.length);
    expect(opened?.body).toBeInstanceOf(Readable);
    for await (const c of (opened?.body ?? []) as Readable) chunks.push(c as Buffer);
    expect(chunks.length).toBe(Math.ceil(bytes.length / STREAM_CHUNK));
    expect(Math.max(...chunks.map((c) => c.length))).toBe(STREAM_CHUNK);

    const res = await alice.get(`/api/files/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toBe(`"${id}"`);
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);

    const again = await alice.get(`/api/files/${id}`, { headers: { 'if-none-match': `"${id}"` } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const foreign = await bob.get(`/api/files/${id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.rawPayload.length).toBeLessThan(1000);
  });

  it('ends the stream with an error, not a hang, when the file is deleted while it is read', async () => {
    const id = 'deleted_midway_0001';
    const store = databaseFileStore(t.database.db);
    await store.put(id, randomBytes(3 * STREAM_CHUNK));
    const opened = await store.open(id);
    await store.delete(id);
    const read = async () => {
      for await (const _ of (opened?.body ?? []) as Readable);
    };
    await expect(read()).rejects.toThrow(/went away/);
    expect(await store.open(id)).toBeUndefined();
  });

  it('serves a small file again from memory as stored, and never a deleted or replaced one', async () => {
    const id = 'cached_photo_0001';
    const store = databaseFileStore(t.database.db);
    const read = async () => {
      const opened = await store.open(id);
      if (!opened) return undefined;
      // A file under one chunk comes whole, to be sent in one write.
      expect(Buffer.isBuffer(opened.body)).toBe(true);
      return opened.body as Buffer;
    };
    const first = randomBytes(40_000);
    await store.put(id, first);
    expect(Buffer.compare((await read()) as Buffer, first)).toBe(0);
    expect(Buffer.compare((await read()) as Buffer, first)).toBe(0); // the cached copy
    const second = randomBytes(30_000);
    await store.put(id, second);
    expect(Buffer.compare((await read()) as Buffer, second)).toBe(0);
    await store.delete(id);
    expect(await read()).toBeUndefined();
  });

  it('deletes the bytes with the vehicle', async () => {
    const { id } = await uploadPhoto();
    expect((await alice.delete(`/api/vehicles/${vehicleId}`)).statusCode).toBe(204);
    expect(await t.database.db.select().from(fileBlobs).where(eq(fileBlobs.id, id))).toEqual([]);
  });

  it('moves files of DATA_DIR/files in once and renames the folder', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'evdra-import-')), 'files');
    mkdirSync(dir);
    const bytes = fixture('wide.png');
    writeFileSync(join(dir, 'legacyFile_0001'), bytes);
    writeFileSync(join(dir, 'not an id.txt'), 'ignored');
    const store = databaseFileStore(t.database.db);
    expect(await importLocalFiles(dir, store, silent)).toBe(1);
    expect(Buffer.compare((await store.get('legacyFile_0001')) as Buffer, bytes)).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.imported`)).toBe(true);
    expect(await importLocalFiles(dir, store, silent)).toBe(0);
  });
});
