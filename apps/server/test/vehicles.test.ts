import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const car = (n: number, extra: Record<string, unknown> = {}) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: `b-${100 + n}-evd`,
  engineSize: 1.2,
  odometer: 85_000,
  aiEvaluationConsent: true,
  ...extra,
});

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
});
afterAll(() => t.close());

const upload = (
  c: TestClient,
  url: string,
  parts: Parameters<typeof multipart>[0],
  method: 'POST' | 'PATCH' = 'POST',
) => {
  const { payload, headers } = multipart(parts);
  return c.request(method, url, payload, { headers });
};
const photoPart = (name: string, file: string, filename = file, type = 'image/jpeg') => ({
  name,
  file: { filename, type, bytes: fixture(file) },
});

describe('vehicles', () => {
  it('creates, lists newest first, reads, and deletes an own vehicle', async () => {
    const a = await alice.post('/api/vehicles', car(1));
    expect(a.statusCode).toBe(201);
    expect(a.data).toMatchObject({
      make: 'Dacia',
      registrationNumber: 'B-101-EVD',
      version: 0,
      photoUrl: null,
      aiScore: null,
    });
    const b = await alice.post('/api/vehicles', car(2, { make: 'Skoda', model: 'Octavia' }));
    const list = await alice.get('/api/vehicles');
    expect(list.data.map((v: { id: number }) => v.id)).toEqual([b.data.id, a.data.id]);
    expect(list.data[0].ownerUsername).toBe(alice.user?.username);
    expect((await alice.get(`/api/vehicles/${a.data.id}`)).data.model).toBe('Logan');
    expect((await alice.delete(`/api/vehicles/${b.data.id}`)).statusCode).toBe(204);
    expect((await alice.get(`/api/vehicles/${b.data.id}`)).statusCode).toBe(404);
  });

  it('rejects each invalid field with a 400 naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ year: 1885 }, 'year'],
      [{ year: new Date().getFullYear() + 2 }, 'year'],
      [{ engineSize: 10.5 }, 'engineSize'],
      [{ engineSize: -1 }, 'engineSize'],
      [{ odometer: -1 }, 'odometer'],
      [{ odometer: 10.5 }, 'odometer'],
      [{ fuelType: 'STEAM' }, 'fuelType'],
      [{ make: '' }, 'make'],
      [{ model: 'x'.repeat(51) }, 'model'],
      [{ registrationNumber: '' }, 'registrationNumber'],
    ];
    for (const [patch, field] of cases) {
      const res = await alice.post('/api/vehicles', car(50, patch));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.data.code).toBe('VALIDATION_FAILED');
      expect(res.data.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('keeps registration numbers unique per owner, not across owners', async () => {
    expect((await alice.post('/api/vehicles', car(3))).statusCode).toBe(201);
    const dup = await alice.post('/api/vehicles', car(3, { registrationNumber: ' B-103-evd ' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.data).toMatchObject({
      code: 'DUPLICATE_REGISTRATION',
      details: [{ field: 'registrationNumber' }],
    });
    expect((await bob.post('/api/vehicles', car(3))).statusCode).toBe(201);
  });

  it('refuses a stale version with 409 and the current vehicle, changing nothing', async () => {
    const v = (await alice.post('/api/vehicles', car(4))).data;
    const first = await alice.put(`/api/vehicles/${v.id}`, { ...car(4, { odometer: 90_000 }), version: 0 });
    expect(first.statusCode).toBe(200);
    expect(first.data.version).toBe(1);
    const stale = await alice.put(`/api/vehicles/${v.id}`, { ...car(4, { odometer: 1 }), version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.code).toBe('VERSION_CONFLICT');
    expect(stale.data.details).toMatchObject({ id: v.id, odometer: 90_000, version: 1 });
    expect((await alice.get(`/api/vehicles/${v.id}`)).data.odometer).toBe(90_000);
  });

  it('replays a create retried with the same Idempotency-Key instead of creating again', async () => {
    const headers = { 'idempotency-key': 'client-uuid-0001-aaaa' };
    const first = await alice.request('POST', '/api/vehicles', car(5), { headers });
    const again = await alice.request('POST', '/api/vehicles', car(5), { headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data.id).toBe(first.data.id);
    const mine = (await alice.get('/api/vehicles')).data.filter(
      (v: { registrationNumber: string }) => v.registrationNumber === 'B-105-EVD',
    );
    expect(mine).toHaveLength(1);
    // The same key from another user is theirs alone.
    const bobs = await bob.request('POST', '/api/vehicles', car(5), { headers });
    expect(bobs.statusCode).toBe(201);
    expect(bobs.data.id).not.toBe(first.data.id);
  });

  it('lets an admin see every vehicle with its owner, and a user only their own', async () => {
    const all = (await admin.get('/api/vehicles')).data as { ownerUsername: string }[];
    const owners = new Set(all.map((v) => v.ownerUsername));
    expect(owners).toContain(alice.user?.username);
    expect(owners).toContain(bob.user?.username);
    const bobs = (await bob.get('/api/vehicles')).data as { ownerUsername: string }[];
    expect(new Set(bobs.map((v) => v.ownerUsername))).toEqual(new Set([bob.user?.username]));
  });

  it('gives another user 404 and no data on every vehicle call', async () => {
    const v = (await alice.post('/api/vehicles', car(6))).data;
    const checks = [
      await bob.get(`/api/vehicles/${v.id}`),
      await bob.put(`/api/vehicles/${v.id}`, { ...car(6), version: v.version }),
      await upload(
        bob,
        `/api/vehicles/${v.id}`,
        [{ name: 'data', value: JSON.stringify({ ...car(6), version: 0 }) }],
        'PATCH',
      ),
      await upload(bob, `/api/vehicles/${v.id}/upload-photo`, [photoPart('file', 'wide.png')]),
      await bob.delete(`/api/vehicles/${v.id}`),
    ];
    for (const res of checks) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Logan');
    }
    expect((await alice.get(`/api/vehicles/${v.id}`)).data.version).toBe(0);
  });
});

describe('VIN', () => {
  const VIN = 'WVWZZZ1JZXW000001';

  it('is optional: a vehicle created without one has vin null', async () => {
    const res = await alice.post('/api/vehicles', car(30));
    expect(res.statusCode).toBe(201);
    expect(res.data.vin).toBeNull();
  });

  it('is stored trimmed and upper-cased, returned by every read, and may repeat (not unique)', async () => {
    const res = await alice.post('/api/vehicles', car(31, { vin: ` ${VIN.toLowerCase()} ` }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.vin).toBe(VIN);
    expect((await alice.get(`/api/vehicles/${res.data.id}`)).data.vin).toBe(VIN);
    const listed = (await alice.get('/api/vehicles')).data.find((v: { id: number }) => v.id === res.data.id);
    expect(listed.vin).toBe(VIN);
    // The same car recorded again (by the same user or another) is allowed.
    expect((await alice.post('/api/vehicles', car(32, { vin: VIN }))).data.vin).toBe(VIN);
    expect((await bob.post('/api/vehicles', car(31, { vin: VIN }))).data.vin).toBe(VIN);
  });

  it('is changed by PUT and PATCH, kept when a body leaves it out, cleared by "" or null', async () => {
    const v = (await alice.post('/api/vehicles', car(33, { vin: VIN }))).data;
    const other = 'ZFA31200000123456';
    const changed = await alice.put(`/api/vehicles/${v.id}`, { ...car(33), vin: other, version: 0 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.data.vin).toBe(other);
    // A client that knows nothing of the VIN does not erase it.
    const without = await alice.put(`/api/vehicles/${v.id}`, {
      ...car(33, { odometer: 90_000 }),
      version: 1,
    });
    expect(without.data).toMatchObject({ vin: other, odometer: 90_000, version: 2 });
    const cleared = await alice.put(`/api/vehicles/${v.id}`, { ...car(33), vin: '', version: 2 });
    expect(cleared.data.vin).toBeNull();
    const patched = await upload(
      alice,
      `/api/vehicles/${v.id}`,
      [{ name: 'data', value: JSON.stringify({ ...car(33), vin: VIN.toLowerCase(), version: 3 }) }],
      'PATCH',
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.data.vin).toBe(VIN);
    const nulled = await alice.put(`/api/vehicles/${v.id}`, { ...car(33), vin: null, version: 4 });
    expect(nulled.data.vin).toBeNull();
    expect((await alice.get(`/api/vehicles/${v.id}`)).data.vin).toBeNull();
  });

  it('refuses a malformed VIN with a 400 naming the field, on create and on update, storing nothing', async () => {
    const bad = [
      'WVWZZZ1JZXW00000', // 16 characters
      'WVWZZZ1JZXW0000012', // 18
      'WVWZZZ1JZXW00000I', // I
      'WVWZZZ1JZXW00000O', // O
      'WVWZZZ1JZXW00000Q', // Q
      'WVWZZZ1JZXW-00001',
      12345, // not a string
    ];
    for (const vin of bad) {
      const res = await alice.post('/api/vehicles', car(34, { vin }));
      expect(res.statusCode, String(vin)).toBe(400);
      expect(res.data.code).toBe('VALIDATION_FAILED');
      expect(res.data.details.map((d: { field: string }) => d.field)).toEqual(['vin']);
    }
    expect(
      (await alice.get('/api/vehicles')).data.some(
        (v: { registrationNumber: string }) => v.registrationNumber === 'B-134-EVD',
      ),
    ).toBe(false);
    const v = (await alice.post('/api/vehicles', car(34, { vin: VIN }))).data;
    const res = await alice.put(`/api/vehicles/${v.id}`, { ...car(34), vin: 'not a vin', version: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.data.details).toEqual([
      { field: 'vin', message: 'VIN must be 17 letters and digits, without I, O or Q.' },
    ]);
    expect((await alice.get(`/api/vehicles/${v.id}`)).data).toMatchObject({ vin: VIN, version: 0 });
  });

  it('is never shown to another user', async () => {
    const v = (await alice.post('/api/vehicles', car(35, { vin: VIN }))).data;
    const read = await bob.get(`/api/vehicles/${v.id}`);
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain(VIN);
    expect((await bob.get('/api/vehicles')).body).not.toContain('B-135-EVD');
    // An admin sees it, as every other field.
    expect((await admin.get(`/api/vehicles/${v.id}`)).data.vin).toBe(VIN);
  });
});

describe('cached vehicle lists', () => {
  it('show every change at once: a new vehicle, an edit, an owner rename, a fuel odometer, a delete', async () => {
    const { client: carol, account } = await registered(t.app, 'carol');
    const regs = async (c: TestClient) =>
      (
        (await c.get('/api/vehicles')).data as {
          registrationNumber: string;
          odometer: number;
          ownerUsername: string;
        }[]
      ).filter((v) => v.registrationNumber.startsWith('C-'));
    expect(await regs(carol)).toEqual([]);
    const v = (await carol.post('/api/vehicles', car(1, { registrationNumber: 'C-1' }))).data;
    expect((await regs(carol)).map((x) => x.registrationNumber)).toEqual(['C-1']);
    expect((await regs(admin)).map((x) => x.registrationNumber)).toContain('C-1');
    await carol.put(`/api/vehicles/${v.id}`, {
      ...car(1, { registrationNumber: 'C-1', odometer: 90_000 }),
      version: v.version,
    });
    expect((await regs(carol))[0]?.odometer).toBe(90_000);
    await carol.post('/api/fuel-consumptions', {
      vehicleId: v.id,
      fuelType: 'PETROL',
      liters: 30,
      fuelPrice: 200,
      odometer: 91_234,
      date: '2025-06-01',
    });
    expect((await regs(carol))[0]?.odometer).toBe(91_234);
    await carol.put('/api/users/me', { username: `${account.username}x`, email: account.email });
    expect((await regs(admin)).find((x) => x.registrationNumber === 'C-1')?.ownerUsername).toBe(
      `${account.username}x`,
    );
    expect(await regs(bob)).toEqual([]);
    await carol.delete(`/api/vehicles/${v.id}`);
    expect(await regs(carol)).toEqual([]);
    expect((await regs(admin)).map((x) => x.registrationNumber)).not.toContain('C-1');
  });

  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    "show another server process's changes (LISTEN/NOTIFY)",
    async () => {
      const other = await createTestApp({}, undefined, t);
      try {
        const here = new TestClient(t.app);
        const there = new TestClient(other.app);
        const login = { username: alice.user?.username, password: 'correct horse 1' };
        await here.post('/api/auth/login', login);
        await there.post('/api/auth/login', login);
        const count = async () => ((await here.get('/api/vehicles')).data as unknown[]).length;
        const before = await count();
        await there.post('/api/vehicles', car(90, { registrationNumber: 'OTHER-1' }));
        await expect.poll(count, { timeout: 2000 }).toBe(before + 1);
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    "drop a car from its grantee's list when the share ends in another server process",
    async () => {
      const other = await createTestApp({}, undefined, t);
      try {
        const owner = await registered(t.app, 'sharer');
        const grantee = await registered(t.app, 'grantee');
        const v = (await owner.client.post('/api/vehicles', car(91, { registrationNumber: 'SHARED-1' })))
          .data;
        const shared = await owner.client.post(`/api/vehicles/${v.id}/shares`, {
          username: grantee.account.username,
          role: 'VIEWER',
        });
        expect(shared.statusCode).toBe(201);
        const sees = async () =>
          ((await grantee.client.get('/api/vehicles')).data as { id: number }[]).some((x) => x.id === v.id);
        expect(await sees()).toBe(true);
        const there = new TestClient(other.app);
        await there.post('/api/auth/login', {
          username: owner.account.username,
          password: owner.account.password,
        });
        expect((await there.delete(`/api/vehicles/${v.id}/shares/${grantee.user.id}`)).statusCode).toBe(204);
        await expect.poll(sees, { timeout: 2000 }).toBe(false);
      } finally {
        await other.close();
      }
    },
  );
});

describe('photos', () => {
  let vehicleId: number;
  beforeAll(async () => {
    vehicleId = (await alice.post('/api/vehicles', car(20))).data.id;
  });

  it('re-encodes an upload as a JPEG within 600×400 without EXIF or GPS, served only to who may see it', async () => {
    const original = await sharp(fixture('car-gps.jpg')).metadata();
    expect(original.exif).toBeDefined();
    const res = await upload(alice, `/api/vehicles/${vehicleId}/upload-photo`, [
      photoPart('file', 'car-gps.jpg'),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^\/api\/files\/[A-Za-z0-9_-]+$/);
    const img = await alice.get(res.body);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['cache-control']).toContain('private');
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([533, 400]);
    expect(meta.exif).toBeUndefined();
    expect(img.rawPayload.includes(Buffer.from('TestCam'))).toBe(false);
    expect((await bob.get(res.body)).statusCode).toBe(404);
    expect((await admin.get(res.body)).statusCode).toBe(200);
  });

  it('GET /api/vehicles/{id} (written by the database) equals the list item and the edit answer, for every reader', async () => {
    const created = await alice.post(
      '/api/vehicles',
      car(21, { make: 'Škoda "Octavia"', engineSize: 1.25, vin: 'WVWZZZ1JZXW000001' }),
    );
    const id = created.data.id;
    await upload(alice, `/api/vehicles/${id}/upload-photo`, [photoPart('file', 'car-gps.jpg')]);
    await t.database.db.execute(
      sql`update vehicles set ai_score = 7.5, ai_score_reason = 'Well kept' where id = ${id}`,
    );
    const listed = (await alice.get('/api/vehicles')).data.find((v: { id: number }) => v.id === id);
    const edited = await alice.put(`/api/vehicles/${id}`, {
      ...car(21, { make: 'Škoda "Octavia"', engineSize: 1.4, vin: 'WVWZZZ1JZXW000001', odometer: 90_000 }),
      version: listed.version,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.data).toMatchObject({
      engineSize: 1.4,
      aiScore: 7.5,
      photoUrl: expect.stringMatching(/^\/api\/files\//),
    });
    const read = await alice.get(`/api/vehicles/${id}`);
    expect(read.data).toEqual(edited.data);
    expect(read.body).toBe(JSON.stringify(edited.data)); // the same keys, in the same order
    expect((await alice.get('/api/vehicles')).data.find((v: { id: number }) => v.id === id)).toEqual(
      read.data,
    );
    // An administrator reads it with the owner's rights; a stranger not at all.
    expect((await admin.get(`/api/vehicles/${id}`)).data).toEqual(read.data);
    const stranger = await bob.get(`/api/vehicles/${id}`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain('Octavia');
  });

  it('accepts a PNG named .jpg and fits a wide one by width', async () => {
    const res = await upload(alice, `/api/vehicles/${vehicleId}/upload-photo`, [
      photoPart('file', 'wide.png', 'holiday.jpg'),
    ]);
    expect(res.statusCode).toBe(200);
    const meta = await sharp((await alice.get(res.body)).rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([600, 200]);
  });

  it('refuses a text file named .jpg (415) and an 11 MB upload (413)', async () => {
    const text = await upload(alice, `/api/vehicles/${vehicleId}/upload-photo`, [
      photoPart('file', 'not-an-image.txt', 'car.jpg', 'image/jpeg'),
    ]);
    expect(text.statusCode).toBe(415);
    expect(text.data.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([fixture('car-gps.jpg'), Buffer.alloc(11 * 1024 * 1024)]);
    const { payload, headers } = multipart([
      { name: 'file', file: { filename: 'big.jpg', type: 'image/jpeg', bytes: big } },
    ]);
    const tooBig = await alice.request('POST', `/api/vehicles/${vehicleId}/upload-photo`, payload, {
      headers,
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.data.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('replaces and removes the photo through PATCH, deleting the old file', async () => {
    const before = (await alice.get(`/api/vehicles/${vehicleId}`)).data;
    const oldUrl = before.photoUrl as string;
    expect((await alice.get(oldUrl)).statusCode).toBe(200);
    const patched = await upload(
      alice,
      `/api/vehicles/${vehicleId}`,
      [
        {
          name: 'data',
          value: JSON.stringify({ ...car(20, { model: 'Sandero' }), version: before.version }),
        },
        photoPart('photo', 'tall.webp'),
      ],
      'PATCH',
    );
    expect(patched.statusCode).toBe(200);
    expect(patched.data.model).toBe('Sandero');
    expect(patched.data.photoUrl).not.toBe(oldUrl);
    expect((await alice.get(oldUrl)).statusCode).toBe(404);
    const tall = await sharp((await alice.get(patched.data.photoUrl)).rawPayload).metadata();
    expect([tall.width, tall.height]).toEqual([267, 400]);

    const removed = await upload(
      alice,
      `/api/vehicles/${vehicleId}`,
      [
        { name: 'data', value: JSON.stringify({ ...car(20), version: patched.data.version }) },
        { name: 'removePhoto', value: 'true' },
      ],
      'PATCH',
    );
    expect(removed.data.photoUrl).toBeNull();
    expect((await alice.get(patched.data.photoUrl)).statusCode).toBe(404);
  });

  it('answers 400 naming the field when the PATCH data part is missing or invalid', async () => {
    const missing = await upload(
      alice,
      `/api/vehicles/${vehicleId}`,
      [{ name: 'removePhoto', value: 'true' }],
      'PATCH',
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.data.details[0].field).toBe('data');
    const bad = await upload(
      alice,
      `/api/vehicles/${vehicleId}`,
      [{ name: 'data', value: JSON.stringify({ ...car(20, { year: 1700 }), version: 0 }) }],
      'PATCH',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.data.details[0].field).toBe('year');
  });
});
