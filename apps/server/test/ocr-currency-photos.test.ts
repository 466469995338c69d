/**
 * Where money enters (issue 50): the currency and the exchange rate a photographed receipt prints,
 * through the preview route, on real photos made by apps/server/ocr-dev/currency-fixtures.ts. A euro
 * or pound sign beside the total is the receipt's only currency mark (PaddleOCR's character set has
 * neither sign: its row is read again); a card slip abroad and a lei invoice print their rate.
 */
import { readFileSync } from 'node:fs';
import type { CurrencyCode } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createOcrEngine } from '../src/ocr/engines.js';
import { OcrService } from '../src/ocr/ocr.service.js';
import type { OcrEngine, OcrText } from '../src/ocr/worker-pool.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, type Res, TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

const dir = new URL('./fixtures/receipts/currency/', import.meta.url);
const photo = (name: string) => readFileSync(new URL(name, dir));

let t: TestApp;
/** A Romanian driver (lei) and a Spanish one (euros), each with a car. */
let ro: TestClient;
let es: TestClient;
let roCar: number;
let esCar: number;

const upload = (c: TestClient, url: string, bytes: Buffer) => {
  const { payload, headers } = multipart([
    { name: 'file', file: { filename: 'receipt.jpg', type: 'image/jpeg', bytes } },
  ]);
  return c.request('POST', url, payload, { headers });
};

async function driver(language: 'ro' | 'es') {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/register', { ...newAccount(`ocrcur${language}`), language });
  expect(res.statusCode).toBe(201);
  const car = await client.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: `OCR-${language}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.0,
    odometer: 1000,
  });
  expect(car.statusCode).toBe(201);
  return { client, currency: res.data.user.currency as CurrencyCode, car: car.data.id as number };
}

/** Each photo read once by each driver it is shown to (OCR is the slow part). */
const previews = new Map<string, Res>();
const key = (file: string, who: 'ro' | 'es') => `${who}:${file}`;

beforeAll(async () => {
  // The currency re-read given all the time it needs: previews read at once queue for it, and what it
  // reads is under test here (its time budget is, with a stand-in reader, in ocr-currency-photos).
  t = await createTestApp({ OCR_CURRENCY_REREAD_MS: '60000' });
  // The ECB's rates of the receipts' day, as the job stores them: they orient and check printed rates.
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2025-03-14', rate: 4.9749, source: 'ECB' },
    { currency: 'HUF', date: '2025-03-14', rate: 398.5, source: 'ECB' },
  ]);
  const a = await driver('ro');
  const b = await driver('es');
  expect([a.currency, b.currency]).toEqual(['RON', 'EUR']);
  [ro, roCar, es, esCar] = [a.client, a.car, b.client, b.car];
  const shown: [string, string, ('ro' | 'es')[]][] = [
    ['parking-eur-sign.jpg', 'expense', ['ro']],
    ['fuel-gbp-sign.jpg', 'fuel', ['ro']],
    ['parking-huf-rate.jpg', 'expense', ['ro', 'es']],
    ['service-ron-rate.jpg', 'revision', ['ro', 'es']],
  ];
  for (const [file, kind, whom] of shown)
    for (const who of whom)
      previews.set(
        key(file, who),
        await upload(
          who === 'ro' ? ro : es,
          `/api/${kind}-ocr/preview/${who === 'ro' ? roCar : esCar}`,
          photo(file),
        ),
      );
}, 240_000);
afterAll(() => t.close());

const preview = (file: string, who: 'ro' | 'es') => {
  const res = previews.get(key(file, who)) as Res;
  expect(res.statusCode, res.body).toBe(200);
  return res.data;
};

describe('a sign the OCR engine cannot read, read again', () => {
  it('a parking ticket whose only currency mark is "6,40 €" is in euros, for a lei user too', () => {
    const p = preview('parking-eur-sign.jpg', 'ro');
    expect(p).toMatchObject({ amount: 6.4, currency: 'EUR' });
    // Read, not the user's own currency proposed with confidence 0.
    expect(p.confidence.currency).toBeGreaterThan(0.5);
    // No rate printed: the form proposes the day's reference rate, not one from the receipt.
    expect(p.exchangeRate).toBeUndefined();
    expect(p.rateSource).toBeUndefined();
  });

  it('a fill-up whose only currency mark is "£46.91" is in pounds', () => {
    const p = preview('fuel-gbp-sign.jpg', 'ro');
    expect(p).toMatchObject({ fuelPrice: 46.91, liters: 32.15, currency: 'GBP' });
    expect(p.confidence.currency).toBeGreaterThan(0.5);
  });
});

describe('the exchange rate the receipt prints', () => {
  it('a card slip in forints with "1 HUF = 0.0127 RON": a lei user gets the receipt’s rate', () => {
    const p = preview('parking-huf-rate.jpg', 'ro');
    expect(p).toMatchObject({ amount: 2500, currency: 'HUF', exchangeRate: 0.0127, rateSource: 'RECEIPT' });
    expect(p.confidence.exchangeRate).toBeGreaterThan(0.5);
  });

  it('the same slip for a euro user: a rate to lei is not theirs, so none', () => {
    const p = preview('parking-huf-rate.jpg', 'es');
    expect(p.currency).toBe('HUF');
    expect(p.exchangeRate).toBeUndefined();
    expect(p.rateSource).toBeUndefined();
  });

  it('a lei invoice with "1 EUR = 4,9750 RON": a euro user gets it inverted, 1 RON in euros', () => {
    const p = preview('service-ron-rate.jpg', 'es');
    expect(p).toMatchObject({ price: 248.75, currency: 'RON', rateSource: 'RECEIPT' });
    expect(p.exchangeRate).toBeCloseTo(1 / 4.975, 9);
  });

  it('the same invoice for a lei user: in their own currency, no rate', () => {
    const p = preview('service-ron-rate.jpg', 'ro');
    expect(p.currency).toBe('RON');
    expect(p.exchangeRate).toBeUndefined();
    expect(p.rateSource).toBeUndefined();
  });

  it('confirmed as proposed, the record keeps the amount in forints and the receipt’s rate', async () => {
    const p = preview('parking-huf-rate.jpg', 'ro');
    const res = await ro.post('/api/expense-ocr/confirm', {
      vehicleId: roCar,
      date: p.date,
      amount: p.amount,
      expenseType: p.expenseType,
      description: 'Parking',
      currency: p.currency,
      exchangeRate: p.exchangeRate,
      rateSource: p.rateSource,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({
      amount: 2500,
      currency: 'HUF',
      exchangeRate: 0.0127,
      rateSource: 'RECEIPT',
    });
    // Another user's car: 404, nothing saved there.
    const other = await es.post('/api/expense-ocr/confirm', {
      vehicleId: roCar,
      date: p.date,
      amount: p.amount,
      expenseType: p.expenseType,
      description: 'Parking',
      currency: p.currency,
      exchangeRate: p.exchangeRate,
      rateSource: p.rateSource,
    });
    expect(other.statusCode).toBe(404);
    expect((await ro.get(`/api/expenses/vehicle/${roCar}`)).data).toHaveLength(1);
  });
});

describe('the re-read costs nothing to a receipt that prints its currency, and never fails a preview', () => {
  let pool: OcrEngine;
  beforeAll(() => {
    pool = createOcrEngine({ name: 'paddle' });
  });
  afterAll(() => pool.close());

  /** A reader that counts its calls and answers as told. */
  const reader = (answer: () => Promise<OcrText>) => {
    const calls = { n: 0 };
    const engine: OcrEngine = {
      recognize: () => {
        calls.n++;
        return answer();
      },
      warmUp: async () => {},
      close: async () => {},
      size: 1,
      pending: 0,
    };
    return { engine, calls };
  };
  const service = (currencyReader: OcrEngine, rereadBudgetMs = 300) =>
    new OcrService({
      pool,
      currencyReader,
      rereadBudgetMs,
      vehicle: async () => ({ odometer: 0 }),
      language: async () => 'en',
      currency: async () => 'RON',
      now: () => new Date('2025-06-01T12:00:00Z'),
    });
  const principal = { userId: 1, role: 'USER' } as never;

  it('a receipt that prints "LEI" is not read again', async () => {
    const r = reader(async () => ({ text: '', confidence: 0, lines: [] }));
    const p = await service(r.engine).preview(principal, 'revision', 1, photo('service-ron-rate.jpg'));
    expect(p.currency).toBe('RON');
    expect(r.calls.n).toBe(0);
  });

  it('a reader slower than the budget, or failing: the preview answers in time with the user’s currency', async () => {
    for (const answer of [
      () => new Promise<OcrText>(() => {}),
      () => Promise.reject(new Error('tesseract died')),
    ]) {
      const r = reader(answer);
      // A reader that never answers would hold the preview for ever without the budget.
      const p = await service(r.engine, 300).preview(principal, 'expense', 1, photo('parking-eur-sign.jpg'));
      expect(r.calls.n).toBe(1);
      expect(p).toMatchObject({ amount: 6.4, currency: 'RON' });
      expect(p.confidence.currency).toBe(0);
    }
  }, 120_000);
});
