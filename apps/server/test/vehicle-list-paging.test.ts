import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectInvalid } from './helpers/expect.js';

// Issue 54: GET /api/vehicles pages (an admin's is every car of the instance): ?limit and ?cursor,
// X-Next-Cursor and Link rel=next, the bare array it always was.

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let aliceCars: number[];

async function newCar(client: TestClient, i: number) {
  const res = await client.post('/api/vehicles', {
    make: 'Skoda',
    model: 'Octavia',
    year: 2019,
    fuelType: 'DIESEL',
    registrationNumber: `B-54-P${i}`,
    engineSize: 2,
    odometer: 10_000 + i,
  });
  expect(res.statusCode).toBe(201);
  return res.data.id as number;
}

/** Follows X-Next-Cursor from `first` to the last page; checks each Link. */
async function pagesOf(client: TestClient, first: string) {
  const pages: { id: number }[][] = [];
  let url: string | undefined = first;
  while (url && pages.length < 20) {
    const res = await client.get(url);
    expect(res.statusCode).toBe(200);
    pages.push(res.data);
    const cursor = res.headers['x-next-cursor'] as string | undefined;
    const link = res.headers.link as string | undefined;
    if (cursor) expect(link).toBe(`<${first}&cursor=${cursor}>; rel="next"`);
    else expect(link).toBeUndefined();
    url = cursor ? `${first}&cursor=${cursor}` : undefined;
  }
  return pages;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'vpage')).client;
  bob = (await registered(t.app, 'vpage')).client;
  aliceCars = [];
  for (let i = 0; i < 3; i++) aliceCars.push(await newCar(alice, i));
  await newCar(bob, 9);
});
afterAll(() => t.close());

describe('GET /api/vehicles pages', () => {
  it("an admin's list, page by page: every car once, newest first, as the whole list has them", async () => {
    const whole = await admin.get('/api/vehicles');
    expect(whole.statusCode).toBe(200);
    expect(whole.data).toHaveLength(4);
    expect(whole.headers['x-next-cursor']).toBeUndefined(); // under the cap: the answer it always was
    const pages = await pagesOf(admin, '/api/vehicles?limit=3');
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    expect(pages.flat()).toEqual(whole.data);
    expect((await pagesOf(admin, '/api/vehicles?limit=2')).flat()).toEqual(whole.data);
  });

  it("a user's pages hold only the cars they reach, whatever cursor they send", async () => {
    const pages = await pagesOf(alice, '/api/vehicles?limit=2');
    expect(pages.flat().map((v) => v.id)).toEqual([...aliceCars].reverse());
    // Bob's car is the newest; a cursor just above Alice's newest car asks for hers: none comes.
    const res = await bob.get(`/api/vehicles?limit=10&cursor=${Math.max(...aliceCars) + 1}`);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual([]);
    expect(res.body).not.toContain('B-54-P0');
  });

  it('refuses a limit or cursor it did not give with 400, naming the field', async () => {
    for (const limit of ['0', '501', 'x'])
      expectInvalid(await admin.get(`/api/vehicles?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '0', '99999999999', '-1'])
      expectInvalid(await admin.get(`/api/vehicles?cursor=${cursor}`), 'cursor');
  });
});
