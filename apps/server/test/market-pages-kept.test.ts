import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

// A page of the market is kept and handed out again while the market's stamp is the same (migration
// 0043, issue 54). Every change a card shows must be in the next read: each test below changes one
// thing through the write that shows it, and fails if that write leaves the stamp as it was.

type Card = {
  id: number;
  price: number;
  listedByUsername: string;
  photoUrls: string[];
  reportUrl: string | null;
  history: { recordsSince: string | null; fuelEntries: number };
};

let t: TestApp;
let seller: TestClient;
let buyer: TestClient;
let sellerName: string;
let n = 0;

/** A car of its own make, listed: the page `?make=<make>` holds its card alone. */
async function listedCar() {
  n += 1;
  const make = `Keptmake${n}`;
  const v = await seller.post('/api/vehicles', {
    make,
    model: 'Golf',
    year: 2016,
    fuelType: 'DIESEL',
    registrationNumber: `KP-${n}-EVD`,
    engineSize: 1.6,
    odometer: 100_000,
  });
  expect(v.statusCode).toBe(201);
  const l = await seller.post('/api/marketplace/list', {
    vehicleId: v.data.id,
    price: 7000,
    description: 'Kept.',
  });
  expect(l.statusCode).toBe(201);
  const card = async (c = buyer) => {
    const res = await c.get(`/api/marketplace/listings?make=${make}`);
    expect(res.statusCode).toBe(200);
    return (res.data as Card[])[0];
  };
  // Read twice: the second read is the kept page.
  await card();
  return { vehicleId: v.data.id as number, listingId: l.data.id as number, card };
}

beforeAll(async () => {
  t = await createTestApp();
  const s = await registered(t.app, 'keptseller');
  seller = s.client;
  sellerName = s.user.username;
  buyer = (await registered(t.app, 'keptbuyer')).client;
});
afterAll(() => t.close());

describe('kept market pages', () => {
  it('an edited price and a new listing are in the next read; each page and cursor is its own', async () => {
    const { listingId, card } = await listedCar();
    expect((await card())?.price).toBe(7000);
    expect((await seller.patch(`/api/marketplace/edit/${listingId}`, { price: 6500 })).statusCode).toBe(200);
    expect((await card())?.price).toBe(6500);

    const { listingId: newest } = await listedCar();
    expect(((await buyer.get('/api/marketplace/listings?limit=1')).data as Card[])[0]?.id).toBe(newest);

    const first = (await buyer.get('/api/marketplace/listings?limit=1')).data as Card[];
    const two = (await buyer.get('/api/marketplace/listings?limit=2')).data as Card[];
    expect(two).toHaveLength(2);
    expect(two[0]?.id).toBe(first[0]?.id);
    const next = await buyer.get('/api/marketplace/listings?limit=1');
    const after = await buyer.get(
      `/api/marketplace/listings?limit=1&cursor=${next.headers['x-next-cursor']}`,
    );
    expect((after.data as Card[])[0]?.id).toBe(two[1]?.id);
  });

  it('one listing is kept the same way: an edit shows, and once sold only its seller reads it', async () => {
    const { listingId } = await listedCar();
    const one = (c: TestClient) => c.get(`/api/marketplace/listings/${listingId}`);
    expect((await one(buyer)).data.price).toBe(7000);
    expect((await one(buyer)).data.price).toBe(7000);
    expect((await seller.patch(`/api/marketplace/edit/${listingId}`, { price: 6900 })).statusCode).toBe(200);
    expect((await one(buyer)).data.price).toBe(6900);
    const interest = await buyer.post(`/api/marketplace/interest/${listingId}`);
    expect((await seller.patch(`/api/marketplace/transfer/${interest.data.interestId}`)).statusCode).toBe(
      200,
    );
    const other = (await registered(t.app, 'keptother')).client;
    const refused = await one(other);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('6900');
    expect((await one(seller)).data.price).toBe(6900);
  });

  it('a deleted listing is gone from the next read', async () => {
    const { listingId, card } = await listedCar();
    expect((await card())?.id).toBe(listingId);
    expect((await seller.delete(`/api/marketplace/delete-permanent/${listingId}`)).statusCode).toBe(204);
    expect(await card()).toBeUndefined();
  });

  it("a record in the car's history (its summary, not the car) is in the next read", async () => {
    const { vehicleId, card } = await listedCar();
    expect((await card())?.history.recordsSince).toBeNull();
    const expense = await seller.post('/api/expenses', {
      vehicleId,
      date: '2020-01-05',
      expenseType: 'Wash',
      amount: 20,
    });
    expect(expense.statusCode).toBe(201);
    expect((await card())?.history.recordsSince).toBe('2020-01-05');
  });

  it("the car's new photo is the card's photo in the next read", async () => {
    const { vehicleId, card } = await listedCar();
    expect((await card())?.photoUrls).toEqual([]);
    const { payload, headers } = multipart([
      {
        name: 'file',
        file: {
          filename: 'car.jpg',
          type: 'image/jpeg',
          bytes: readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url)),
        },
      },
    ]);
    const up = await seller.request('POST', `/api/vehicles/${vehicleId}/upload-photo`, payload, { headers });
    expect(up.statusCode).toBe(200);
    expect((await card())?.photoUrls).toHaveLength(1);
  });

  it("the seller's new name is in the next read", async () => {
    const { card } = await listedCar();
    expect((await card())?.listedByUsername).toBe(sellerName);
    // However a name changes (an admin's tool, a future route), the cards follow it.
    await t.database.db.execute(
      sql`update users set username = ${`${sellerName}x`} where username = ${sellerName}`,
    );
    expect((await card())?.listedByUsername).toBe(`${sellerName}x`);
    await t.database.db.execute(
      sql`update users set username = ${sellerName} where username = ${`${sellerName}x`}`,
    );
    expect((await card())?.listedByUsername).toBe(sellerName);
  });

  it('a report link revoked, or expired with no write at all, is off the card in the next read', async () => {
    const revoked = await listedCar();
    expect((await revoked.card())?.reportUrl).toMatch(/^\/r\//);
    await t.database.db.execute(
      sql`update report_links set revoked_at = now() where listing_id = ${revoked.listingId}`,
    );
    expect((await revoked.card())?.reportUrl).toBeNull();

    const expiring = await listedCar();
    await t.database.db.execute(
      sql`update report_links set expires_at = now() + interval '1 second' where listing_id = ${expiring.listingId}`,
    );
    expect((await expiring.card())?.reportUrl).toMatch(/^\/r\//);
    expect((await expiring.card())?.reportUrl).toMatch(/^\/r\//);
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await expiring.card())?.reportUrl).toBeNull();
  });

  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    "a second server process keeps its own pages and sees the first one's write",
    async () => {
      const other = await createTestApp({}, undefined, t);
      try {
        const there = new TestClient(other.app);
        const login = await there.post('/api/auth/login', {
          username: sellerName,
          password: 'correct horse 1',
        });
        expect(login.statusCode).toBe(200);
        const { listingId, card } = await listedCar();
        expect((await card(there))?.price).toBe(7000);
        expect((await card(there))?.price).toBe(7000);
        expect((await seller.patch(`/api/marketplace/edit/${listingId}`, { price: 5900 })).statusCode).toBe(
          200,
        );
        expect((await card(there))?.price).toBe(5900);
        expect((await there.patch(`/api/marketplace/edit/${listingId}`, { price: 5800 })).statusCode).toBe(
          200,
        );
        expect((await card())?.price).toBe(5800);
      } finally {
        await other.close();
      }
    },
  );
});
