import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../src/db/schema.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

// Issue 49: an active listing's photos are the market's; once the listing is sold or deactivated
// they are its seller's (and an admin's) alone, on every route that serves them. The car's own
// photo is a vehicle photo: its buyer keeps it.

const jpeg = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));
let n = 0;

let t: TestApp;
let admin: TestClient;
let seller: TestClient;
let buyer: TestClient;
let carol: TestClient;
let carolName: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  seller = (await registered(t.app, 'seller')).client;
  buyer = (await registered(t.app, 'buyer')).client;
  const c = await registered(t.app, 'carol');
  carol = c.client;
  carolName = c.user.username;
});
afterAll(() => t.close());

const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2017,
    fuelType: 'PETROL',
    registrationNumber: `LP-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.2,
    odometer: 90_000,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};

const upload = (c: TestClient, url: string, parts: Parameters<typeof multipart>[0]) => {
  const { payload, headers } = multipart(parts);
  return c.request('POST', url, payload, { headers });
};

/** A listing with two photos of its own. */
const listWithPhotos = async (vehicleId: number) => {
  const photo = { name: 'photos', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } };
  const res = await upload(seller, '/api/marketplace/list-with-photos', [
    { name: 'data', value: JSON.stringify({ vehicleId, price: 5000, description: 'For sale' }) },
    photo,
    photo,
  ]);
  expect(res.statusCode, res.body).toBe(201);
  expect(res.data.photoUrls).toHaveLength(2);
  return res.data as { id: number; photoUrls: string[]; reportUrl: string | null };
};

/** The same stored file through the signed-in file route (the vehicle's photos). */
const asFileUrl = (photoUrl: string) => `/api/files/${photoUrl.split('/').pop()}`;

/** Status of a plain GET and of a conditional one (the 304 path checks access as well). */
const statuses = async (c: TestClient, url: string) => {
  const res = await c.get(url);
  const conditional = await c.get(url, { headers: { 'if-none-match': `"${url.split('/').pop()}"` } });
  return [res.statusCode, conditional.statusCode];
};

const transferTo = async (c: TestClient, listingId: number) => {
  const interestId = (await c.post(`/api/marketplace/interest/${listingId}`)).data.interestId;
  const done = await seller.patch(`/api/marketplace/transfer/${interestId}`);
  expect(done.statusCode, done.body).toBe(200);
};

describe('photos of a listing', () => {
  it('of an active listing: any logged-in user sees them', async () => {
    const l = await listWithPhotos(await newCar(seller));
    for (const url of l.photoUrls) {
      const res = await carol.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.length).toBeGreaterThan(0);
      expect(await statuses(carol, url)).toEqual([200, 304]);
    }
  });

  it('of a deactivated listing: 404 for another user (and a grantee of the car), the seller and an admin still see them', async () => {
    const v = await newCar(seller);
    const l = await listWithPhotos(v);
    expect(
      (await seller.post(`/api/vehicles/${v}/shares`, { username: carolName, role: 'EDITOR' })).statusCode,
    ).toBe(201);
    // Sharing lets the editor read the car's files while the listing is on the market.
    expect((await carol.get(asFileUrl(l.photoUrls[0] as string))).statusCode).toBe(200);

    // No route deactivates a listing without a sale; the state is the one a sale leaves.
    await t.database.db.update(listings).set({ active: false }).where(eq(listings.id, l.id));

    for (const url of l.photoUrls) {
      expect(await statuses(buyer, url)).toEqual([404, 404]);
      expectError(await buyer.get(url), 404, 'NOT_FOUND');
      expect(await statuses(carol, url)).toEqual([404, 404]);
      expect(await statuses(carol, asFileUrl(url))).toEqual([404, 404]);
      expect(await statuses(seller, url)).toEqual([200, 304]);
      expect(await statuses(seller, asFileUrl(url))).toEqual([200, 304]);
      expect(await statuses(admin, url)).toEqual([200, 304]);
    }
    // Active again: the market's again.
    await t.database.db.update(listings).set({ active: true }).where(eq(listings.id, l.id));
    expect(await statuses(buyer, l.photoUrls[0] as string)).toEqual([200, 304]);
  });

  it('of a sold listing: 404 for another user and for the buyer on every route; the seller still sees them', async () => {
    const v = await newCar(seller);
    const vehiclePhoto = await upload(seller, `/api/vehicles/${v}/upload-photo`, [
      { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } },
    ]);
    expect(vehiclePhoto.statusCode, vehiclePhoto.body).toBe(200);
    const l = await listWithPhotos(v);
    expect(l.reportUrl).toMatch(/^\/r\//);
    expect((await carol.get(`${l.reportUrl}/photo`)).statusCode).toBe(200);

    await transferTo(buyer, l.id);

    for (const url of l.photoUrls) {
      expect(await statuses(carol, url)).toEqual([404, 404]);
      expect(await statuses(buyer, url)).toEqual([404, 404]);
      // The buyer now owns the car, whose files the listing's photos are: still the seller's.
      expect(await statuses(buyer, asFileUrl(url))).toEqual([404, 404]);
      expect(await statuses(seller, url)).toEqual([200, 304]);
      expect(await statuses(admin, asFileUrl(url))).toEqual([200, 304]);
    }
    // The listing's report link ended with the sale, its photo too.
    expect((await carol.get(`${l.reportUrl}/photo`)).statusCode).toBe(404);

    // The buyer keeps the car's own photo (a vehicle photo, not a listing photo).
    const bought = (await buyer.get(`/api/vehicles/${v}`)).data;
    expect(bought.photoUrl).toBe(vehiclePhoto.body);
    expect(await statuses(buyer, bought.photoUrl)).toEqual([200, 304]);
    expect(await statuses(seller, bought.photoUrl)).toEqual([404, 404]);

    // The buyer's data export holds the car's photo, not the seller's sale photos.
    const zip = unzipSync(new Uint8Array((await buyer.get('/api/account/export')).rawPayload));
    const exported = Object.keys(zip).filter((name) => name.startsWith('photos/'));
    const idOf = (url: string) => url.split('/').pop() as string;
    expect(exported).toEqual([`photos/${idOf(bought.photoUrl)}.jpg`]);
  });

  it('without photos of its own the car’s photo is shown, and after the sale it is the buyer’s', async () => {
    const v = await newCar(seller);
    const photoUrl = (
      await upload(seller, `/api/vehicles/${v}/upload-photo`, [
        { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } },
      ])
    ).body;
    const l = (await seller.post('/api/marketplace/list', { vehicleId: v, price: 4000 })).data;
    const [cardPhoto] = l.photoUrls as string[];
    expect(asFileUrl(cardPhoto as string)).toBe(photoUrl);
    expect(await statuses(carol, cardPhoto as string)).toEqual([200, 304]);

    await transferTo(buyer, l.id);

    expect(await statuses(carol, cardPhoto as string)).toEqual([404, 404]);
    expect(await statuses(buyer, photoUrl)).toEqual([200, 304]);
    expect((await buyer.get(`/api/vehicles/${v}`)).data.photoUrl).toBe(photoUrl);
  });

  it('a deleted listing’s photos are gone, for its seller too', async () => {
    const l = await listWithPhotos(await newCar(seller));
    expect((await seller.delete(`/api/marketplace/delete-permanent/${l.id}`)).statusCode).toBe(204);
    for (const url of l.photoUrls) {
      expect(await statuses(seller, url)).toEqual([404, 404]);
      expect(await statuses(admin, asFileUrl(url))).toEqual([404, 404]);
    }
  });
});
