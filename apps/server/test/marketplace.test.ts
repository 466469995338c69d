import { readFileSync } from 'node:fs';
import { Listing, priceRating } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
let n = 0;
const car = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    make: 'Volkswagen',
    model: 'Golf',
    year: 2015,
    fuelType: 'DIESEL',
    registrationNumber: `MK-${n}-EVD`,
    engineSize: 1.6,
    odometer: 120_000,
    aiEvaluationConsent: true,
    ...extra,
  };
};

let t: TestApp;
let admin: TestClient;
let seller: TestClient;
let buyer: TestClient;
let carol: TestClient;
let sellerName: string;
let buyerName: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  const s = await registered(t.app, 'seller');
  seller = s.client;
  sellerName = s.user.username;
  const b = await registered(t.app, 'buyer');
  buyer = b.client;
  buyerName = b.user.username;
  carol = (await registered(t.app, 'carol')).client;
});
afterAll(() => t.close());

const newCar = async (c: TestClient, extra: Record<string, unknown> = {}) => {
  const res = await c.post('/api/vehicles', car(extra));
  expect(res.statusCode).toBe(201);
  return res.data.id as number;
};
const list = async (c: TestClient, vehicleId: number, price = 9000, description = '  Well kept.  ') => {
  const res = await c.post('/api/marketplace/list', { vehicleId, price, description });
  expect(res.statusCode).toBe(201);
  return res.data;
};
const send = (
  c: TestClient,
  url: string,
  parts: Parameters<typeof multipart>[0],
  method: 'POST' | 'PATCH' = 'POST',
) => {
  const { payload, headers } = multipart(parts);
  return c.request(method, url, payload, { headers });
};
const photo = (name: string, file: string) => ({
  name,
  file: { filename: file, type: 'image/jpeg', bytes: fixture(file) },
});
const listings = async (c: TestClient, query = '') =>
  (await c.get(`/api/marketplace/listings${query}`)).data as { id: number }[];

describe('listings', () => {
  it('lists an own vehicle with the current vehicle values, a price rating and its history', async () => {
    const v = await newCar(seller, {
      make: 'Dacia',
      model: 'Duster',
      year: 2018,
      odometer: 60_000,
      engineSize: 1.5,
    });
    await seller.post('/api/revision', { vehicleId: v, date: '2023-04-01', km: 40_000, price: 300 });
    await seller.post('/api/revision', { vehicleId: v, date: '2024-05-02', km: 52_000, price: 350 });
    for (const [date, odometer] of [
      ['2024-01-10', 50_000],
      ['2024-02-10', 50_800],
    ] as const)
      await seller.post('/api/fuel-consumptions', {
        vehicleId: v,
        fuelType: 'DIESEL',
        liters: 40,
        fuelPrice: 70,
        odometer,
        date,
      });
    const created = await list(seller, v);
    expect(created).toMatchObject({
      vehicleId: v,
      vehicleMake: 'Dacia',
      vehicleModel: 'Duster',
      vehicleYear: 2018,
      engineSize: 1.5,
      odometer: 60_000,
      fuelType: 'DIESEL',
      vehicleAiScore: null,
      price: 9000,
      description: 'Well kept.',
      photoUrls: [],
      listedByUsername: sellerName,
      priceRating: { label: 'N/A', level: 0, estimate: null, factors: [] },
      history: {
        services: 2,
        lastService: { date: '2024-05-02', km: 52_000 },
        recordsSince: '2023-04-01',
        fuelEntries: 2,
        consumptionPer100km: 5,
      },
    });
    // Snapshot fields follow the vehicle; an AI score gives a rating with its factors.
    await t.database.db.execute(sql`update vehicles set ai_score = 7, odometer = 61000 where id = ${v}`);
    const [shown] = (await buyer.get('/api/marketplace/listings?make=duster')).data;
    expect(shown).toBeUndefined(); // make filter: Duster is the model
    const found = (await buyer.get('/api/marketplace/listings?model=DUST')).data;
    expect(found).toHaveLength(1);
    // (15000 − 7000) × 0.9 + 1800 + 450 + 695 = 10,145 → 9000 is Fair.
    expect(found[0]).toMatchObject({ odometer: 61_000, vehicleAiScore: 7 });
    expect(found[0].priceRating).toMatchObject({
      label: 'Fair',
      level: 3,
      estimate: 10_145,
      difference: -1145,
    });
    expect(found[0].priceRating.factors.map((f: { key: string }) => f.key)).toEqual([
      'aiScore',
      'brand',
      'age',
      'engine',
      'km',
      'electric',
    ]);
  });

  it('filters in SQL: contains (case-insensitive), year contains, max odometer; newest first', async () => {
    const a = await list(
      seller,
      await newCar(seller, { make: 'Skoda', model: 'Fabia', year: 2012, odometer: 150_000 }),
    );
    const b = await list(
      seller,
      await newCar(seller, {
        make: 'Skoda',
        model: 'Octavia',
        year: 2020,
        odometer: 40_000,
        fuelType: 'GPL',
      }),
    );
    const ids = async (q: string) => (await listings(buyer, q)).map((l) => l.id);
    expect(await ids('?make=sKo')).toEqual([b.id, a.id]);
    expect(await ids('?make=skoda&year=201')).toEqual([a.id]);
    expect(await ids('?make=skoda&maxOdometer=40000')).toEqual([b.id]);
    expect(await ids('?make=skoda&fuelType=gp')).toEqual([b.id]);
    expect(await ids('?make=%25')).toEqual([]); // a literal %, not a wildcard
    const all = await ids('');
    expect(all.indexOf(b.id)).toBeLessThan(all.indexOf(a.id));
  });

  it('refuses others’ vehicles, a second listing, a bad price and a long description', async () => {
    const v = await newCar(seller);
    expectError(await buyer.post('/api/marketplace/list', { vehicleId: v, price: 1000 }), 404, 'NOT_FOUND');
    expectInvalid(await seller.post('/api/marketplace/list', { vehicleId: v, price: 0 }), 'price');
    expectInvalid(await seller.post('/api/marketplace/list', { vehicleId: v, price: 'x' }), 'price');
    expectInvalid(
      await seller.post('/api/marketplace/list', { vehicleId: v, price: 5, description: 'x'.repeat(2001) }),
      'description',
    );
    await list(seller, v);
    expectError(await seller.post('/api/marketplace/list', { vehicleId: v, price: 1000 }), 409, 'CONFLICT');
    const mine = (await seller.get('/api/marketplace/my-vehicles')).data as { id: number }[];
    expect(mine.map((m) => m.id)).not.toContain(v);
    const other = await newCar(seller);
    expect((await seller.get('/api/marketplace/my-vehicles')).data[0]).toEqual({
      id: other,
      make: 'Volkswagen',
      model: 'Golf',
      year: 2015,
    });
    expect((await buyer.get('/api/marketplace/my-vehicles')).data).toEqual([]);
  });

  it('answers a user’s unlisted cars as they are now, each read after a listing, a car or a write elsewhere', async () => {
    const dan = (await registered(t.app, 'dan')).client;
    const unlisted = async (c: TestClient) =>
      ((await c.get('/api/marketplace/my-vehicles')).data as { id: number; make: string }[]).map(
        (x) => `${x.id}:${x.make}`,
      );
    const a = await newCar(dan);
    const b = await newCar(dan, { make: 'Skoda' });
    expect(await unlisted(dan)).toEqual([`${b}:Skoda`, `${a}:Volkswagen`]);
    expect(await unlisted(dan)).toEqual([`${b}:Skoda`, `${a}:Volkswagen`]); // read again, as kept
    const listed = await list(dan, a);
    expect(await unlisted(dan)).toEqual([`${b}:Skoda`]);
    const skoda = (await dan.get(`/api/vehicles/${b}`)).data;
    expect((await dan.put(`/api/vehicles/${b}`, { ...skoda, make: 'Dacia' })).statusCode).toBe(200);
    expect(await unlisted(dan)).toEqual([`${b}:Dacia`]);
    // Another process ends the listing (the reminder job, a second server): the car is back.
    await t.database.db.execute(sql`update listings set active = false where id = ${listed.id}`);
    expect(await unlisted(dan)).toEqual([`${b}:Dacia`, `${a}:Volkswagen`]);
    expect((await dan.delete(`/api/vehicles/${b}`)).statusCode).toBe(204);
    expect(await unlisted(dan)).toEqual([`${a}:Volkswagen`]);
    // Another user reads only their own, never dan's kept answer.
    expect(await unlisted(carol)).not.toContain(`${a}:Volkswagen`);
  });

  it('lists with photos through the image pipeline, readable by any user; edit adds and removes photos', async () => {
    const v = await newCar(seller);
    const res = await send(seller, '/api/marketplace/list-with-photos', [
      { name: 'data', value: JSON.stringify({ vehicleId: v, price: 7000, description: 'Photos' }) },
      photo('photos', 'car-gps.jpg'),
      { name: 'photos', file: { filename: 'w.png', type: 'image/png', bytes: fixture('wide.png') } },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.data.photoUrls).toHaveLength(2);
    const img = await carol.get(res.data.photoUrls[0]);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBeLessThanOrEqual(600);
    expect(meta.height).toBeLessThanOrEqual(400);
    // Streamed with its length, and cached: the same ETag answers 304 with no body.
    expect(Number(img.headers['content-length'])).toBe(img.rawPayload.length);
    const again = await carol.get(res.data.photoUrls[0], {
      headers: { 'if-none-match': String(img.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // Not an image → 415, nothing listed.
    const bad = await send(seller, '/api/marketplace/list-with-photos', [
      { name: 'data', value: JSON.stringify({ vehicleId: await newCar(seller), price: 7000 }) },
      { name: 'photos', file: { filename: 'x.jpg', type: 'image/jpeg', bytes: fixture('not-an-image.txt') } },
    ]);
    expectError(bad, 415, 'UNSUPPORTED_MEDIA_TYPE');

    const edited = await send(
      seller,
      `/api/marketplace/edit-with-photos/${res.data.id}`,
      [
        {
          name: 'data',
          value: JSON.stringify({
            price: 6500,
            description: ' New ',
            removePhotoUrls: [res.data.photoUrls[0]],
          }),
        },
        photo('newPhotos', 'car-gps.jpg'),
      ],
      'PATCH',
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.data).toMatchObject({ price: 6500, description: 'New' });
    expect(edited.data.photoUrls).toHaveLength(2);
    expect(edited.data.photoUrls[0]).toBe(res.data.photoUrls[1]);
    expect((await carol.get(res.data.photoUrls[0])).statusCode).toBe(404);

    // Eleven photos are too many.
    const many = await send(seller, '/api/marketplace/list-with-photos', [
      { name: 'data', value: JSON.stringify({ vehicleId: await newCar(seller), price: 7000 }) },
      ...Array.from({ length: 11 }, () => photo('photos', 'car-gps.jpg')),
    ]);
    expect([400, 413]).toContain(many.statusCode);
  });

  it('without photos the vehicle photo is first, and it becomes visible to buyers', async () => {
    const v = await newCar(seller);
    await send(seller, `/api/vehicles/${v}/upload-photo`, [photo('file', 'car-gps.jpg')]);
    const l = await list(seller, v);
    expect(l.photoUrls).toHaveLength(1);
    expect((await buyer.get(l.photoUrls[0])).statusCode).toBe(200);
    // Once the car is no longer listed, its own photo is private again.
    expect((await seller.delete(`/api/marketplace/delete-permanent/${l.id}`)).statusCode).toBe(204);
    expectError(await buyer.get(l.photoUrls[0]), 404, 'NOT_FOUND');
    expect((await seller.get(`/api/vehicles/${v}`)).data.photoUrl).toMatch(/^\/api\/files\//);
  });

  it('edit and delete: seller or admin only (404 for others), delete removes photos and conversations', async () => {
    const l = await list(seller, await newCar(seller));
    expectError(await buyer.patch(`/api/marketplace/edit/${l.id}`, { price: 1 }), 404, 'NOT_FOUND');
    expectError(await buyer.delete(`/api/marketplace/delete-permanent/${l.id}`), 404, 'NOT_FOUND');
    const foreignEdit = await send(
      buyer,
      `/api/marketplace/edit-with-photos/${l.id}`,
      [{ name: 'data', value: JSON.stringify({ price: 1, description: 'mine now' }) }],
      'PATCH',
    );
    expectError(foreignEdit, 404, 'NOT_FOUND');
    expect(JSON.stringify(foreignEdit.data)).not.toContain('Well kept');
    expectInvalid(await seller.patch(`/api/marketplace/edit/${l.id}`, { price: -5 }), 'price');
    expect(
      (await seller.patch(`/api/marketplace/edit/${l.id}`, { price: 8100, description: 'x' })).data.price,
    ).toBe(8100);
    expect((await admin.patch(`/api/marketplace/edit/${l.id}`, { price: 8200 })).data.price).toBe(8200);
    const i = (await buyer.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
    expect((await admin.delete(`/api/marketplace/delete-permanent/${l.id}`)).statusCode).toBe(204);
    expect((await listings(buyer)).map((x) => x.id)).not.toContain(l.id);
    expectError(await buyer.get(`/api/marketplace/chat/${i}`), 404, 'NOT_FOUND');
    expectError(await buyer.post(`/api/marketplace/interest/${l.id}`), 404, 'NOT_FOUND');
    expectError(await seller.delete(`/api/marketplace/delete-permanent/${l.id}`), 404, 'NOT_FOUND');
    expectError(await seller.patch(`/api/marketplace/edit/${l.id}`, { price: 5 }), 404, 'NOT_FOUND');
  });

  it('every read is current: record history, vehicle values and edits show at once', async () => {
    const v = await newCar(seller, { make: 'Freshtest' });
    const l = await list(seller, v);
    const card = async () =>
      (
        (await buyer.get('/api/marketplace/listings?make=freshtest')).data as Record<string, never>[]
      )[0] as unknown as {
        price: number;
        odometer: number;
        history: { services: number; fuelEntries: number };
      };
    expect((await card()).history.services).toBe(0);
    const r = await seller.post('/api/revision', { vehicleId: v, date: '2024-01-01', km: 1000, price: 100 });
    expect((await card()).history.services).toBe(1);
    await seller.delete(`/api/revision/${r.data.id}`);
    expect((await card()).history.services).toBe(0);
    const vehicle = (await seller.get(`/api/vehicles/${v}`)).data;
    await seller.put(`/api/vehicles/${v}`, {
      ...car({ make: 'Freshtest' }),
      registrationNumber: vehicle.registrationNumber,
      odometer: 130_000,
      version: vehicle.version,
    });
    expect((await card()).odometer).toBe(130_000);
    await seller.patch(`/api/marketplace/edit/${l.id}`, { price: 4321 });
    expect((await card()).price).toBe(4321);
  });

  it('answers exactly the Listing schema: ISO dates, plain numbers, the domain’s rating', async () => {
    const v = await newCar(seller, {
      make: 'Shapetest',
      model: 'Exact',
      engineSize: 1.6,
      odometer: 87_654,
      fuelType: 'ELECTRIC',
    });
    await t.database.db.execute(sql`update vehicles set ai_score = 6.5 where id = ${v}`);
    await seller.post('/api/fuel-consumptions', {
      vehicleId: v,
      fuelType: 'ELECTRIC',
      liters: 33.3,
      fuelPrice: 20,
      odometer: 87_000,
      date: '2024-02-03',
    });
    const created = await list(seller, v, 12_345.67, 'Exact shape');
    const res = await buyer.get('/api/marketplace/listings?make=shapetest');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const [shown] = JSON.parse(res.body) as Record<string, unknown>[];
    expect(shown).toEqual(created); // the list and the single answer agree
    expect(Object.keys(shown ?? {}).sort()).toEqual(Object.keys(Listing.shape).sort());
    const parsed = Listing.parse(shown);
    expect(parsed).toMatchObject({
      engineSize: 1.6,
      odometer: 87_654,
      vehicleAiScore: 6.5,
      price: 12_345.67,
      fuelType: 'ELECTRIC',
      history: { services: 0, lastService: null, recordsSince: '2024-02-03', fuelEntries: 1 },
    });
    expect(parsed.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(parsed.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(parsed.priceRating).toEqual({
      ...priceRating(12_345.67, {
        make: 'Shapetest',
        year: 2015,
        engineSize: 1.6,
        odometer: 87_654,
        fuelType: 'ELECTRIC',
        aiScore: 6.5,
      }),
      // The rating's figures are euros (issue 50); so is this price, the seller's currency.
      currency: 'EUR',
    });
    expect(parsed).toMatchObject({ currency: 'EUR', exchangeRate: 1, rateSource: 'ECB' });
  });
});

describe('interest, conversations and chat', () => {
  let listingId: number;
  let interestId: number;
  beforeAll(async () => {
    listingId = (await list(seller, await newCar(seller, { model: 'Passat' }))).id;
  });

  it('sends interest once, refuses one’s own listing, and notifies the seller', async () => {
    const first = await buyer.post(`/api/marketplace/interest/${listingId}`);
    expect(first.statusCode).toBe(200);
    expect(first.data.message).toBe('Interest sent!');
    interestId = first.data.interestId;
    const again = await buyer.post(`/api/marketplace/interest/${listingId}`);
    expect(again.data).toEqual({ message: 'Interest sent!', interestId });
    expectError(await seller.post(`/api/marketplace/interest/${listingId}`), 409, 'CONFLICT');
    expectError(await buyer.post('/api/marketplace/interest/999999'), 404, 'NOT_FOUND');
    const notes = (await seller.get('/api/notifications')).data as { type: string; content: string }[];
    expect(notes.filter((x) => x.type === 'MARKET_INTEREST' && x.content.includes('Passat'))).toHaveLength(1);
  });

  it('chats between the two parties only, with unread counts; others get 404', async () => {
    expectInvalid(await buyer.post(`/api/marketplace/chat/${interestId}`, { message: '   ' }), 'message');
    expectInvalid(
      await buyer.post(`/api/marketplace/chat/${interestId}`, { message: 'x'.repeat(2001) }),
      'message',
    );
    const sent = await buyer.post(`/api/marketplace/chat/${interestId}`, {
      message: ' Is it still available? ',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.data.at(-1)).toMatchObject({
      sender: buyerName,
      content: 'Is it still available?',
      mine: true,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const sellerConvs = (await seller.get('/api/marketplace/conversations')).data;
    expect(sellerConvs.find((c: { interestId: number }) => c.interestId === interestId)).toMatchObject({
      listingId,
      counterparty: buyerName,
      vehicle: { make: 'Volkswagen', model: 'Passat', year: 2015 },
      message: 'Is it still available?',
      role: 'seller',
      unread: 1,
    });
    const read = (await seller.get(`/api/marketplace/chat/${interestId}`)).data;
    expect(read).toEqual([expect.objectContaining({ sender: buyerName, mine: false })]);
    await seller.post(`/api/marketplace/chat/${interestId}`, { message: 'Yes.' });
    const buyerConv = (await buyer.get('/api/marketplace/conversations')).data[0];
    expect(buyerConv).toMatchObject({ role: 'buyer', counterparty: sellerName, unread: 1, message: 'Yes.' });
    const after = read[0].id;
    expect(
      (await buyer.get(`/api/marketplace/chat/${interestId}?after=${after}`)).data.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['Yes.']);
    expect(((await seller.get('/api/marketplace/conversations')).data[0] as { unread: number }).unread).toBe(
      0,
    );
    // Reading marks the new message read; reading it again changes nothing.
    expect(((await buyer.get('/api/marketplace/conversations')).data[0] as { unread: number }).unread).toBe(
      0,
    );
    expect((await buyer.get(`/api/marketplace/chat/${interestId}`)).data).toHaveLength(2);
    expect(((await buyer.get('/api/marketplace/conversations')).data[0] as { unread: number }).unread).toBe(
      0,
    );
    const notes = (await buyer.get('/api/notifications')).data as { type: string }[];
    expect(notes.some((x) => x.type === 'MARKET_MESSAGE')).toBe(true);

    for (const c of [carol, admin]) {
      expectError(await c.get(`/api/marketplace/chat/${interestId}`), 404, 'NOT_FOUND');
      expectError(await c.post(`/api/marketplace/chat/${interestId}`, { message: 'hi' }), 404, 'NOT_FOUND');
      expectError(await c.delete(`/api/marketplace/conversations/${interestId}`), 404, 'NOT_FOUND');
      expectError(await c.patch(`/api/marketplace/transfer/${interestId}`), 404, 'NOT_FOUND');
      expect((await c.get('/api/marketplace/conversations')).data).toEqual([]);
    }
  });

  it('deleting a conversation removes it for the caller only', async () => {
    expect((await buyer.delete(`/api/marketplace/conversations/${interestId}`)).statusCode).toBe(204);
    expect((await buyer.get('/api/marketplace/conversations')).data).toEqual([]);
    expectError(await buyer.get(`/api/marketplace/chat/${interestId}`), 404, 'NOT_FOUND');
    expect((await seller.get('/api/marketplace/conversations')).data.length).toBeGreaterThan(0);
    // Interest again brings the same conversation back.
    expect((await buyer.post(`/api/marketplace/interest/${listingId}`)).data.interestId).toBe(interestId);
    expect((await buyer.get('/api/marketplace/conversations')).data).toHaveLength(1);
  });
});

describe('transfer', () => {
  it('hands the car with its records to the buyer in one transaction; retry harmless; buyer 403', async () => {
    const v = await newCar(seller, { model: 'Tiguan', registrationNumber: 'SOLD-1' });
    await seller.post('/api/fuel-consumptions', {
      vehicleId: v,
      fuelType: 'DIESEL',
      liters: 40,
      fuelPrice: 70,
      odometer: 1000,
      date: '2024-01-10',
    });
    await seller.post('/api/expenses', {
      vehicleId: v,
      date: '2024-01-11',
      expenseType: 'Tyres',
      amount: 400,
      description: '',
    });
    await seller.post('/api/insurance', {
      vehicleId: v,
      provider: 'Allianz',
      startDate: '2024-07-01',
      endDate: '2025-06-30',
      price: 300,
    });
    await seller.post('/api/revision', { vehicleId: v, date: '2024-03-01', km: 1000, price: 200 });
    expect(await runReminderScan(t.database.db, new Date('2025-06-29T08:00:00Z'))).toBeGreaterThan(0);
    const sellerReminders = async () =>
      ((await seller.get('/api/notifications')).data as { type: string; vehicleId: number }[]).filter(
        (x) => x.vehicleId === v && x.type.endsWith('_REMINDER'),
      );
    expect((await sellerReminders()).length).toBeGreaterThan(0);

    const l = await list(seller, v);
    const i = (await buyer.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
    const other = (await carol.post(`/api/marketplace/interest/${l.id}`)).data.interestId;

    expectError(await buyer.patch(`/api/marketplace/transfer/${i}`), 403, 'FORBIDDEN');
    const done = await seller.patch(`/api/marketplace/transfer/${i}`);
    expect(done.statusCode).toBe(200);
    expect(done.data.message).toBe('[Vehicle transferred to buyer]');

    const bought = (await buyer.get(`/api/vehicles/${v}`)).data;
    expect(bought.ownerUsername).toBe(buyerName);
    expectError(await seller.get(`/api/vehicles/${v}`), 404, 'NOT_FOUND');
    expect((await buyer.get('/api/vehicles')).data.map((x: { id: number }) => x.id)).toContain(v);
    for (const path of ['fuel-consumptions', 'expenses', 'insurance', 'revision'])
      expect((await buyer.get(`/api/${path}/vehicle/${v}`)).data).toHaveLength(1);
    expect((await listings(buyer)).map((x) => x.id)).not.toContain(l.id);
    expectError(await buyer.post(`/api/marketplace/interest/${l.id}`), 404, 'NOT_FOUND');
    expectError(await seller.patch(`/api/marketplace/edit/${l.id}`, { price: 5 }), 409, 'CONFLICT');
    // The old owner can no longer list it; the new owner can.
    expectError(await seller.post('/api/marketplace/list', { vehicleId: v, price: 1000 }), 404, 'NOT_FOUND');
    expect((await buyer.get('/api/marketplace/my-vehicles')).data.map((x: { id: number }) => x.id)).toContain(
      v,
    );

    // Chat history stays for both; other buyers are told.
    const chat = (await buyer.get(`/api/marketplace/chat/${i}`)).data as { content: string }[];
    expect(chat.map((m) => m.content)).toEqual(['[Vehicle transferred to buyer]']);
    expect(
      (await carol.get(`/api/marketplace/chat/${other}`)).data.map((m: { content: string }) => m.content),
    ).toEqual(['[Vehicle sold to another buyer]']);
    const buyerNotes = (await buyer.get('/api/notifications')).data as { type: string }[];
    expect(buyerNotes.filter((x) => x.type === 'MARKET_TRANSFER')).toHaveLength(1);

    // Old owner's reminders stop; sent_reminders does not block the new owner's.
    expect(await sellerReminders()).toEqual([]);
    expect(await runReminderScan(t.database.db, new Date('2025-06-29T08:00:00Z'))).toBeGreaterThan(0);
    const buyerReminders = (
      (await buyer.get('/api/notifications')).data as { type: string; vehicleId: number }[]
    ).filter((x) => x.vehicleId === v && x.type.endsWith('_REMINDER'));
    expect(buyerReminders.length).toBeGreaterThan(0);
    expect(await sellerReminders()).toEqual([]);

    // A retry changes nothing.
    expect((await seller.patch(`/api/marketplace/transfer/${i}`)).statusCode).toBe(200);
    expect((await buyer.get(`/api/marketplace/chat/${i}`)).data).toHaveLength(1);
    expect(
      ((await buyer.get('/api/notifications')).data as { type: string }[]).filter(
        (x) => x.type === 'MARKET_TRANSFER',
      ),
    ).toHaveLength(1);
    // Transferring the sold listing to another buyer is refused.
    expectError(await seller.patch(`/api/marketplace/transfer/${other}`), 409, 'CONFLICT');
    expect((await buyer.get(`/api/vehicles/${v}`)).data.ownerUsername).toBe(buyerName);
  });

  it('a failing step leaves the owner, the listing and the chat unchanged', async () => {
    // The buyer already owns a car with this registration: the owner change fails late in the transaction.
    await newCar(buyer, { registrationNumber: 'CLASH-1' });
    const v = await newCar(seller, { registrationNumber: 'CLASH-1' });
    const l = await list(seller, v);
    const i = (await buyer.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
    const res = await seller.patch(`/api/marketplace/transfer/${i}`);
    expectError(res, 409, 'DUPLICATE_REGISTRATION');
    expect((await seller.get(`/api/vehicles/${v}`)).data.ownerUsername).toBe(sellerName);
    expect((await listings(buyer)).map((x) => x.id)).toContain(l.id);
    expect((await seller.get(`/api/marketplace/chat/${i}`)).data).toEqual([]);
    expect(
      ((await buyer.get('/api/notifications')).data as { content: string }[]).some((x) =>
        x.content.includes('CLASH'),
      ),
    ).toBe(false);
  });

  it.runIf(process.env.EVDRA_TEST_DB === 'postgres')(
    'two server processes on one PostgreSQL pass chat messages both ways',
    async () => {
      const other = await createTestApp({}, undefined, t);
      try {
        const l = await list(seller, await newCar(seller));
        const i = (await buyer.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
        const there = new TestClient(other.app);
        await there.post('/api/auth/login', { username: sellerName, password: 'correct horse 1' });
        await buyer.post(`/api/marketplace/chat/${i}`, { message: 'From process one' });
        const seen = async (c: TestClient) =>
          ((await c.get(`/api/marketplace/chat/${i}`)).data as { content: string }[]).map((m) => m.content);
        await expect.poll(() => seen(there), { timeout: 2000 }).toEqual(['From process one']);
        await there.post(`/api/marketplace/chat/${i}`, { message: 'From process two' });
        await expect
          .poll(() => seen(buyer), { timeout: 2000 })
          .toEqual(['From process one', 'From process two']);
      } finally {
        await other.close();
      }
    },
  );
});

describe('notifications in the recipient’s saved language', () => {
  const speaker = async (prefix: string, language: 'ro' | 'es') => {
    const client = new TestClient(t.app);
    const res = await client.post('/api/auth/register', { ...newAccount(prefix), language });
    expect(res.statusCode).toBe(201);
    return { client, username: res.data.user.username as string };
  };
  const notes = async (c: TestClient) =>
    ((await c.get('/api/notifications')).data as { type: string; title: string; content: string }[]).map(
      ({ type, title, content }) => ({ type, title, content }),
    );

  it('a Romanian seller and Spanish buyers read interest, message, sold and transfer in their language', async () => {
    const ioana = await speaker('ioana', 'ro');
    const lucia = await speaker('lucia', 'es');
    const pablo = await speaker('pablo', 'es');
    const v = await newCar(ioana.client, {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      registrationNumber: 'LANG-1',
    });
    const l = await list(ioana.client, v);
    const i = (await lucia.client.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
    const other = (await pablo.client.post(`/api/marketplace/interest/${l.id}`)).data.interestId;
    await lucia.client.post(`/api/marketplace/chat/${i}`, { message: '¿Sigue disponible?' });
    await ioana.client.post(`/api/marketplace/chat/${i}`, { message: 'Da.' });
    expect((await ioana.client.patch(`/api/marketplace/transfer/${i}`)).statusCode).toBe(200);

    expect(await notes(ioana.client)).toEqual([
      { type: 'MARKET_MESSAGE', title: `Mesaj nou de la ${lucia.username}`, content: '¿Sigue disponible?' },
      {
        type: 'MARKET_INTEREST',
        title: 'Interes nou pentru anunțul tău',
        content: `${pablo.username} și-a arătat interesul pentru Dacia Logan (2019) din anunțul tău.`,
      },
      {
        type: 'MARKET_INTEREST',
        title: 'Interes nou pentru anunțul tău',
        content: `${lucia.username} și-a arătat interesul pentru Dacia Logan (2019) din anunțul tău.`,
      },
    ]);
    expect(await notes(lucia.client)).toEqual([
      {
        type: 'MARKET_TRANSFER',
        title: 'Vehículo transferido a ti',
        content: 'El Dacia Logan (2019) ya es tuyo, con todos sus registros, en Vehículos.',
      },
      { type: 'MARKET_MESSAGE', title: `Nuevo mensaje de ${ioana.username}`, content: 'Da.' },
    ]);
    expect(await notes(pablo.client)).toEqual([
      {
        type: 'MARKET_MESSAGE',
        title: 'Vehículo vendido',
        content: 'El Dacia Logan (2019) que te interesaba se ha vendido a otro comprador.',
      },
    ]);
    // The chat lines are the same for both parties, as the spec writes them.
    const chat = async (c: TestClient, id: number) =>
      ((await c.get(`/api/marketplace/chat/${id}`)).data as { content: string }[]).map((m) => m.content);
    expect((await chat(lucia.client, i)).at(-1)).toBe('[Vehicle transferred to buyer]');
    expect(await chat(pablo.client, other)).toEqual(['[Vehicle sold to another buyer]']);
  });
});

describe('access', () => {
  it('needs a login and the CSRF header', async () => {
    const anon = new TestClient(t.app);
    expectError(await anon.get('/api/marketplace/listings'), 401, 'UNAUTHENTICATED');
    expectError(
      await buyer.post('/api/marketplace/interest/1', undefined, { csrf: false }),
      403,
      'CSRF_FAILED',
    );
  });
});
