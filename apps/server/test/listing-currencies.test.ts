import { crossRate, priceRating, roundMoney } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectInvalid } from './helpers/expect.js';

// Issue 50: a listing has a price and its currency (Romanian sellers price cars in euros); the price
// rating compares every listing in euros.

let t: TestApp;
let seller: TestClient;
let buyer: TestClient;

const today = new Date().toISOString().slice(0, 10);
const RON_PER_EUR = 4.9751;
const EUR_IN_RON = crossRate(1, RON_PER_EUR);

const car = {
  make: 'Dacia',
  model: 'Logan',
  year: 2018,
  fuelType: 'PETROL',
  engineSize: 1.0,
  odometer: 90_000,
};
let plate = 0;
async function newCar() {
  const res = await seller.post('/api/vehicles', { ...car, registrationNumber: `B-50-MK${++plate}` });
  expect(res.statusCode).toBe(201);
  await t.database.db.execute(sql`update vehicles set ai_score = 7 where id = ${res.data.id}`);
  return res.data.id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  // Today's reference rate, as the daily job would have stored it.
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: today, rate: RON_PER_EUR, source: 'ECB' },
  ]);
  seller = new TestClient(t.app);
  expect(
    (await seller.post('/api/auth/register', { ...newAccount('mkro'), language: 'ro' })).statusCode,
  ).toBe(201);
  buyer = (await registered(t.app, 'mkbuyer')).client;
});
afterAll(() => t.close());

const rated = (priceInEuros: number) =>
  priceRating(priceInEuros, {
    make: 'Dacia',
    year: 2018,
    engineSize: 1,
    odometer: 90_000,
    fuelType: 'PETROL',
    aiScore: 7,
  });

describe('a listing’s currency', () => {
  it('a lei seller prices in euros: the price stays 8,000 €, with today’s rate to lei; rated in euros', async () => {
    const res = await seller.post('/api/marketplace/list', {
      vehicleId: await newCar(),
      price: 8000,
      currency: 'EUR',
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      price: 8000,
      currency: 'EUR',
      exchangeRate: EUR_IN_RON,
      rateDate: today,
      rateSource: 'ECB',
      priceRating: { ...rated(8000), currency: 'EUR' },
    });
    const shown = (await buyer.get('/api/marketplace/listings')).data.find(
      (l: { id: number }) => l.id === res.data.id,
    );
    expect(shown).toEqual(res.data);
  });

  it('without a currency it is the seller’s (lei), and the rating compares its price in euros', async () => {
    const res = await seller.post('/api/marketplace/list', { vehicleId: await newCar(), price: 40_000 });
    expect(res.data).toMatchObject({ price: 40_000, currency: 'RON', exchangeRate: 1 });
    // 40,000 lei is about 8,040 €: rated as that, not as 40,000 €.
    expect(res.data.priceRating).toEqual({ ...rated(roundMoney(40_000 / RON_PER_EUR)), currency: 'EUR' });
    expect(res.data.priceRating.label).not.toBe('Very High');
  });

  it('an edit that sends no currency keeps the listing’s', async () => {
    const listed = (
      await seller.post('/api/marketplace/list', { vehicleId: await newCar(), price: 7000, currency: 'EUR' })
    ).data;
    const res = await seller.patch(`/api/marketplace/edit/${listed.id}`, { price: 6500 });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ price: 6500, currency: 'EUR', exchangeRate: EUR_IN_RON });
  });

  it('a currency without a known rate: 400 on exchangeRate unless sent; then no rating (it cannot be compared)', async () => {
    const vehicleId = await newCar();
    expectInvalid(
      await seller.post('/api/marketplace/list', { vehicleId, price: 150_000, currency: 'MDL' }),
      'exchangeRate',
    );
    const res = await seller.post('/api/marketplace/list', {
      vehicleId,
      price: 150_000,
      currency: 'MDL',
      exchangeRate: 0.26,
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ currency: 'MDL', exchangeRate: 0.26, rateSource: 'MANUAL' });
    expect(res.data.priceRating).toMatchObject({ label: 'N/A', level: 0, currency: null });
    expectInvalid(
      await seller.patch(`/api/marketplace/edit/${res.data.id}`, { price: 5, currency: 'GBP' }),
      'exchangeRate',
    );
  });
});
