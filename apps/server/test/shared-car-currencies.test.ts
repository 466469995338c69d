import { convertMoney, crossRate, roundMoney, roundRate } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, TestClient } from './helpers/client.js';
import { expectInvalid } from './helpers/expect.js';

// Issue 50: a shared car whose editor pays in another currency than its owner. The editor's form
// asks the rate to the editor's own currency (euros); the server stores every rate to the owner's
// (lei), so both read the same records and the same totals, each in their own currency.

let t: TestApp;
let ro: TestClient;
let es: TestClient;
let car: number;
/** The editor's HUF fill-up, as answered on create. */
let huf: { id: number; version: number; exchangeRate: number; rateSource: string };

// The ECB's euro reference rates of Friday 8 March 2024 (units per euro), stored as the job would.
const RON_PER_EUR = 4.9688;
const HUF_PER_EUR = 391.83;
const EUR_IN_RON = crossRate(1, RON_PER_EUR);
const RON_IN_EUR = crossRate(RON_PER_EUR, 1);
/** The rate the euro editor typed: euros for 1 forint (a card's statement: 25,000 Ft = 63.75 €). */
const TYPED_EUR_PER_HUF = 0.00255;
const STORED_RON_PER_HUF = roundRate(TYPED_EUR_PER_HUF * EUR_IN_RON);

async function registerIn(language: 'ro' | 'es') {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/register', { ...newAccount(`shcur${language}`), language });
  expect(res.statusCode).toBe(201);
  return { client, user: res.data.user as { username: string; currency: string } };
}

const fill = (client: TestClient, extra: Record<string, unknown>) =>
  client.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'PETROL',
    liters: 40,
    date: '2024-03-08',
    fullTank: false,
    ...extra,
  });

beforeAll(async () => {
  t = await createTestApp();
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-03-08', rate: RON_PER_EUR, source: 'ECB' },
    { currency: 'HUF', date: '2024-03-08', rate: HUF_PER_EUR, source: 'ECB' },
  ]);
  const owner = await registerIn('ro');
  const editor = await registerIn('es');
  ro = owner.client;
  es = editor.client;
  expect([owner.user.currency, editor.user.currency]).toEqual(['RON', 'EUR']);
  car = (
    await ro.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Sandero',
      year: 2021,
      fuelType: 'PETROL',
      registrationNumber: 'B-50-SHR',
      engineSize: 1.0,
      odometer: 20_000,
    })
  ).data.id;
  const share = await ro.post(`/api/vehicles/${car}/shares`, {
    username: editor.user.username,
    role: 'EDITOR',
  });
  expect(share.statusCode).toBe(201);
  expect((await fill(ro, { fuelPrice: 280 })).statusCode).toBe(201);
  const res = await fill(es, {
    liters: 41,
    fuelPrice: 25_000,
    currency: 'HUF',
    date: '2024-03-09',
    exchangeRate: TYPED_EUR_PER_HUF,
    rateSource: 'MANUAL',
  });
  expect(res.statusCode).toBe(201);
  huf = res.data;
});
afterAll(() => t.close());

const total = (client: TestClient) => client.get(`/api/analytics/vehicle/${car}/total`);

describe('an editor paying in euros on a lei owner’s car', () => {
  it('types the rate to euros; it is stored to the owner’s lei, and both read the same record', async () => {
    const expected = {
      fuelPrice: 25_000,
      currency: 'HUF',
      exchangeRate: STORED_RON_PER_HUF,
      rateSource: 'MANUAL',
    };
    expect(huf).toMatchObject(expected);
    for (const client of [ro, es]) {
      const list = (await client.get(`/api/fuel-consumptions/vehicle/${car}`)).data;
      expect(list.find((f: { id: number }) => f.id === huf.id)).toMatchObject(expected);
    }
  });

  it('each reads the same totals in their own currency: 25,000 Ft is 63.75 € to the editor, not 63.75 lei', async () => {
    const hufInRon = convertMoney(25_000, STORED_RON_PER_HUF);
    const fuelRon = roundMoney(280 + hufInRon);
    const mine = (await total(ro)).data;
    expect(mine).toMatchObject({ currency: 'RON', totalFuelLiters: 81, totalFuelCost: fuelRon });
    // Not 280 + 63.75 lei: the euro rate read as a lei one.
    expect(mine.totalFuelCost).toBeGreaterThan(500);
    const theirs = (await total(es)).data;
    expect(theirs).toMatchObject({
      currency: 'EUR',
      totalFuelLiters: 81,
      totalFuelCost: convertMoney(fuelRon, RON_IN_EUR),
    });
    // The forints at the rate the editor typed read back as the euros they paid, to the cent.
    expect(Math.abs(convertMoney(hufInRon, RON_IN_EUR) - 63.75)).toBeLessThanOrEqual(0.01);
  });

  it('the vehicle answer names the owner’s currency, the one every stored rate is to, to both of them', async () => {
    for (const client of [ro, es]) {
      const one = await client.get(`/api/vehicles/${car}`);
      expect(one.statusCode).toBe(200);
      expect(one.data).toMatchObject({ ownerCurrency: 'RON' });
      const list = (await client.get('/api/vehicles')).data as { id: number; ownerCurrency: string }[];
      expect(list.find((v) => v.id === car)?.ownerCurrency).toBe('RON');
    }
  });

  it('an edit that sends back the record’s own rate keeps it, whoever of the two edits', async () => {
    let version = huf.version;
    for (const client of [es, ro]) {
      const res = await client.put(`/api/fuel-consumptions/${huf.id}`, {
        vehicleId: car,
        fuelType: 'PETROL',
        liters: 42,
        fuelPrice: 25_000,
        date: '2024-03-09',
        fullTank: false,
        currency: 'HUF',
        exchangeRate: STORED_RON_PER_HUF,
        rateSource: 'MANUAL',
        version,
      });
      expect(res.statusCode).toBe(200);
      expect(res.data).toMatchObject({ liters: 42, exchangeRate: STORED_RON_PER_HUF, rateSource: 'MANUAL' });
      version = res.data.version;
    }
  });

  it('a rate to euros for a currency without a reference rate (MDL) is stored in lei; none sent: 400 asks it in euros', async () => {
    const body = { vehicleId: car, date: '2024-03-08', expenseType: 'Tyres', amount: 1000, currency: 'MDL' };
    const refused = await es.post('/api/expenses', body);
    expectInvalid(refused, 'exchangeRate');
    expect(refused.data.message).toBe(
      'No exchange rate from MDL to RON is known for 2024-03-08. Enter the rate you paid at (EUR for 1 MDL).',
    );
    const sent = await es.post('/api/expenses', { ...body, exchangeRate: 0.052 });
    expect(sent.statusCode).toBe(201);
    expect(sent.data).toMatchObject({
      amount: 1000,
      currency: 'MDL',
      exchangeRate: roundRate(0.052 * EUR_IN_RON),
      rateSource: 'MANUAL',
    });
  });

  it('a rate sent for a record in the editor’s own euros can only be to the owner’s lei: kept as sent', async () => {
    const res = await es.post('/api/expenses', {
      vehicleId: car,
      date: '2024-03-08',
      expenseType: 'Parking',
      amount: 10,
      currency: 'EUR',
      exchangeRate: 4.95,
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ currency: 'EUR', exchangeRate: 4.95, rateSource: 'MANUAL' });
  });
});
