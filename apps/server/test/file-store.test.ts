import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBlobs } from '../src/db/schema.js';
import { databaseFileStore, importLocalFiles } from '../src/files/db-file-store.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const silent = { info() {}, warn() {} } as unknown as Parameters<typeof importLocalFiles>[2];

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
let vehicleId: number;
beforeAll(async () => {
  t = await createTestApp();
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
