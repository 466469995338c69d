import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
let n = 0;

const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Skoda',
    model: 'Octavia',
    year: 2018,
    fuelType: 'PETROL',
    registrationNumber: `ACC-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.4,
    odometer: 50_000,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};
const uploadPhoto = async (c: TestClient, vehicleId: number) => {
  const bytes = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));
  const { payload, headers } = multipart([
    { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes } },
  ]);
  const res = await c.request('POST', `/api/vehicles/${vehicleId}/upload-photo`, payload, { headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.body as string;
};
const deleteAccount = (c: TestClient, password?: string) =>
  c.request('DELETE', '/api/account', password === undefined ? {} : { password });

beforeAll(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());

describe('GET /api/account/export', () => {
  it('is a ZIP of everything the user owns, with a README and every photo as stored', async () => {
    const alice = await registered(t.app, 'alice');
    const bob = await registered(t.app, 'bob');
    const car = await newCar(alice.client);
    const photoUrl = await uploadPhoto(alice.client, car);
    const photoId = photoUrl.split('/').pop() as string;
    await alice.client.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 300,
      date: '2024-05-01',
      odometer: 51_000,
    });
    await alice.client.post('/api/expenses', {
      vehicleId: car,
      date: '2024-05-02',
      expenseType: 'Parking',
      amount: 5,
    });
    const bobsCar = await newCar(bob.client);
    await alice.client.post(`/api/vehicles/${car}/renewals`, {
      type: 'ROVINIETA',
      validUntil: '2025-05-01',
      price: 28,
    });
    await bob.client.post(`/api/vehicles/${bobsCar}/renewals`, { type: 'ITP', validUntil: '2026-01-01' });

    const res = await alice.client.get('/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="evdra-.+\.zip"$/);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const text = (name: string) => strFromU8(files[name] as Uint8Array);
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'account.json',
        'assistant-chat.json',
        // The vehicles' papers (issue 52): none here, so only the list.
        'documents.json',
        'listings.json',
        'messages.json',
        'notifications.json',
        `photos/${photoId}.jpg`,
        `records/vehicle-${car}.csv`,
        'renewals.json',
        'vehicles.json',
      ].sort(),
    );
    expect(text('README.txt')).toContain('records/vehicle-ID.csv');
    expect(JSON.parse(text('account.json'))).toMatchObject({
      username: alice.account.username,
      email: alice.account.email,
      settings: { language: 'en', gdprConsent: true },
    });
    expect(text('account.json')).not.toMatch(/password/i);
    const vehicles = JSON.parse(text('vehicles.json'));
    expect(vehicles.map((v: { id: number }) => v.id)).toEqual([car]);
    expect(vehicles[0]).toMatchObject({
      photo: `photos/${photoId}.jpg`,
      records: `records/vehicle-${car}.csv`,
    });
    expect(vehicles.some((v: { id: number }) => v.id === bobsCar)).toBe(false);
    expect(JSON.parse(text('renewals.json'))).toEqual([
      expect.objectContaining({ vehicleId: car, type: 'ROVINIETA', validUntil: '2025-05-01', price: 28 }),
    ]);
    // The records file is the vehicle's re-importable CSV export.
    expect(text(`records/vehicle-${car}.csv`)).toBe(
      (await alice.client.get(`/api/vehicles/${car}/export.csv`)).body,
    );
    // The photo is byte for byte the stored file.
    const served = await alice.client.get(photoUrl);
    expect(Buffer.from(files[`photos/${photoId}.jpg`] as Uint8Array).equals(served.rawPayload)).toBe(true);
  });

  it('needs a login', async () => {
    expectError(await new TestClient(t.app).get('/api/account/export'), 401, 'UNAUTHENTICATED');
  });
});

describe('DELETE /api/account', () => {
  it('needs the right password: missing is 400, wrong is 403, and nothing is deleted', async () => {
    const carol = await registered(t.app, 'carol');
    const car = await newCar(carol.client);
    expectInvalid(await deleteAccount(carol.client), 'password');
    const wrong = await deleteAccount(carol.client, 'not my password');
    expectError(wrong, 403, 'INVALID_CREDENTIALS');
    expect((await carol.client.get(`/api/vehicles/${car}`)).statusCode).toBe(200);
  });

  it('refuses the last active admin', async () => {
    expectError(await deleteAccount(admin.client, admin.account.password), 409, 'LAST_ADMIN');
    expect((await admin.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('deletes the account and all it owns, ends its sessions, clears its cookies; login fails after', async () => {
    const dave = await registered(t.app, 'dave');
    const car = await newCar(dave.client);
    const photoUrl = await uploadPhoto(dave.client, car);
    await dave.client.post('/api/expenses', {
      vehicleId: car,
      date: '2024-05-02',
      expenseType: 'Tolls',
      amount: 7,
    });
    // A second login of the same account, on another device.
    const other = new TestClient(t.app);
    expect(
      (
        await other.post('/api/auth/login', {
          username: dave.account.username,
          password: dave.account.password,
        })
      ).statusCode,
    ).toBe(200);

    const res = await deleteAccount(dave.client, dave.account.password);
    expect(res.statusCode, res.body).toBe(204);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => c.startsWith('evdra_access=;'))).toBe(true);
    expect(cookies.some((c) => c.startsWith('evdra_refresh=;'))).toBe(true);

    expectError(await other.get('/api/auth/me'), 401, 'UNAUTHENTICATED');
    expectError(await other.post('/api/auth/refresh'), 401, 'SESSION_EXPIRED');
    const login = await new TestClient(t.app).post('/api/auth/login', {
      username: dave.account.username,
      password: dave.account.password,
    });
    expectError(login, 401, 'INVALID_CREDENTIALS');
    // Gone for an admin too: the vehicle, its records, its photo.
    expectError(await admin.client.get(`/api/vehicles/${car}`), 404, 'NOT_FOUND');
    expectError(await admin.client.get(`/api/expenses/vehicle/${car}`), 404, 'NOT_FOUND');
    expectError(await admin.client.get(photoUrl), 404, 'NOT_FOUND');
    const users = (await admin.client.get('/api/admin/users')).data as { username: string }[];
    expect(users.map((u) => u.username)).not.toContain(dave.account.username);
  });
});
