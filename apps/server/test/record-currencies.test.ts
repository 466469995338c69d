import { crossRate } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, TestClient } from './helpers/client.js';
import { expectInvalid } from './helpers/expect.js';

// Issue 50: each record in the currency it was paid in, with its rate to the owner's currency.

let t: TestApp;
/** A Romanian owner (lei) and a Spanish editor of the same car (euros). */
let ro: TestClient;
let es: TestClient;
let car: number;

// The ECB's euro reference rates of Friday 8 March 2024 (units per euro), stored as the job would.
const RON_PER_EUR = 4.9688;
const HUF_PER_EUR = 391.83;
const HUF_IN_RON = crossRate(HUF_PER_EUR, RON_PER_EUR);
const EUR_IN_RON = crossRate(1, RON_PER_EUR);

async function registerIn(language: 'ro' | 'es') {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/register', { ...newAccount(`cur${language}`), language });
  expect(res.statusCode).toBe(201);
  return { client, user: res.data.user as { username: string; currency: string } };
}

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
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'B-50-CUR',
      engineSize: 1.0,
      odometer: 10_000,
    })
  ).data.id;
  const share = await ro.post(`/api/vehicles/${car}/shares`, {
    username: editor.user.username,
    role: 'EDITOR',
  });
  expect(share.statusCode).toBe(201);
});
afterAll(() => t.close());

const fill = (extra: Record<string, unknown> = {}) => ({
  vehicleId: car,
  fuelType: 'PETROL',
  liters: 40,
  fuelPrice: 280,
  date: '2024-03-08',
  fullTank: false,
  ...extra,
});

describe('a record in its owner’s currency', () => {
  it('is in lei at rate 1 when the client sends no currency, even when an editor paying in euros writes it', async () => {
    for (const client of [ro, es]) {
      const res = await client.post('/api/fuel-consumptions', fill());
      expect(res.statusCode).toBe(201);
      expect(res.data).toMatchObject({
        fuelPrice: 280,
        currency: 'RON',
        exchangeRate: 1,
        rateDate: '2024-03-08',
        rateSource: 'ECB',
      });
      // The owner's currency at the time is the server's own business: never answered.
      expect(res.data).not.toHaveProperty('rateCurrency');
    }
  });
});

describe('a record in another currency', () => {
  it('a HUF fill-up on a Saturday keeps 25,000 HUF and the Friday’s rate to lei, in its answer and the lists', async () => {
    const res = await ro.post(
      '/api/fuel-consumptions',
      fill({ fuelPrice: 25_000, currency: 'HUF', date: '2024-03-09' }),
    );
    expect(res.statusCode).toBe(201);
    const expected = {
      fuelPrice: 25_000,
      currency: 'HUF',
      exchangeRate: HUF_IN_RON,
      rateDate: '2024-03-08',
      rateSource: 'ECB',
    };
    expect(res.data).toMatchObject(expected);
    const list = (await ro.get(`/api/fuel-consumptions/vehicle/${car}`)).data;
    expect(list.find((f: { id: number }) => f.id === res.data.id)).toMatchObject(expected);
    // The editor reads the same record, as it was paid.
    const page = (await es.get('/api/fuel-consumptions?limit=100')).data.items;
    expect(page.find((f: { id: number }) => f.id === res.data.id)).toMatchObject(expected);
  });

  it('a rate the client sends is kept: MANUAL unless it names its source', async () => {
    const manual = await ro.post('/api/expenses', {
      vehicleId: car,
      date: '2024-03-08',
      expenseType: 'Tyres',
      amount: 200,
      currency: 'EUR',
      exchangeRate: 4.95,
    });
    expect(manual.statusCode).toBe(201);
    expect(manual.data).toMatchObject({
      amount: 200,
      currency: 'EUR',
      exchangeRate: 4.95,
      rateSource: 'MANUAL',
    });
    const receipt = await ro.post('/api/expenses', {
      vehicleId: car,
      date: '2024-03-08',
      expenseType: 'Tyres',
      amount: 100,
      currency: 'EUR',
      exchangeRate: 4.96,
      rateDate: '2024-03-07',
      rateSource: 'RECEIPT',
    });
    expect(receipt.data).toMatchObject({ exchangeRate: 4.96, rateDate: '2024-03-07', rateSource: 'RECEIPT' });
  });

  it('an insurance priced in euros and paid by a lei owner takes the euro’s reference rate', async () => {
    const res = await ro.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2024-03-08',
      endDate: '2025-03-07',
      price: 300,
      currency: 'EUR',
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      price: 300,
      currency: 'EUR',
      exchangeRate: EUR_IN_RON,
      rateSource: 'ECB',
    });
  });

  it('with no rate known and none sent: 400 on exchangeRate, nothing stored; sent, it is stored', async () => {
    const before = (await ro.get(`/api/vehicles/${car}/renewals`)).data.length;
    const body = {
      vehicleId: car,
      date: '2024-03-08',
      km: 12_000,
      price: 1500,
      currency: 'MDL',
    };
    const refused = await ro.post('/api/revision', body);
    expectInvalid(refused, 'exchangeRate');
    expect(refused.data.message).toBe(
      'No exchange rate from MDL to RON is known for 2024-03-08. Enter the rate you paid at (RON for 1 MDL).',
    );
    // A day the ECB has no HUF rate for (nor the ten days before) is refused too.
    expectInvalid(
      await ro.post('/api/fuel-consumptions', fill({ currency: 'HUF', date: '2023-01-10' })),
      'exchangeRate',
    );
    const revisions = (await ro.get(`/api/revision/vehicle/${car}`)).data;
    expect(revisions).toHaveLength(0);
    const sent = await ro.post('/api/revision', { ...body, exchangeRate: 0.26 });
    expect(sent.statusCode).toBe(201);
    expect(sent.data).toMatchObject({
      price: 1500,
      currency: 'MDL',
      exchangeRate: 0.26,
      rateSource: 'MANUAL',
    });
    // A renewal without a price needs no rate.
    const renewal = await ro.post(`/api/vehicles/${car}/renewals`, {
      type: 'RCA',
      validFrom: '2024-03-08',
      validUntil: '2025-03-07',
      currency: 'MDL',
    });
    expect(renewal.statusCode).toBe(201);
    expect(renewal.data).toMatchObject({ price: null, currency: 'MDL', exchangeRate: null });
    expect((await ro.get(`/api/vehicles/${car}/renewals`)).data).toHaveLength(before + 1);
  });

  it('refuses an unknown currency, a rate of 0 and an unknown source with 400 naming the field', async () => {
    expectInvalid(await ro.post('/api/fuel-consumptions', fill({ currency: 'XYZ' })), 'currency');
    expectInvalid(
      await ro.post('/api/fuel-consumptions', fill({ currency: 'HUF', exchangeRate: 0 })),
      'exchangeRate',
    );
    expectInvalid(
      await ro.post(
        '/api/fuel-consumptions',
        fill({ currency: 'HUF', exchangeRate: 0.01, rateSource: 'BANK' }),
      ),
      'rateSource',
    );
    // 9 billion euros at 5 lei is more than an amount may be in lei.
    const huge = await ro.post('/api/expenses', {
      vehicleId: car,
      date: '2024-03-08',
      expenseType: 'Tyres',
      amount: 9_000_000_000,
      currency: 'EUR',
      exchangeRate: 5,
    });
    expectInvalid(huge, 'exchangeRate');
    expect(huge.data.message).toBe('At this rate the amount would be more than 9999999999.99 RON.');
  });
});

describe('edits and the offline queue', () => {
  it('an edit from a client that sends no currency (queued before currencies) keeps the record’s currency and rate', async () => {
    const created = (
      await ro.post(
        '/api/fuel-consumptions',
        fill({ fuelPrice: 20_000, currency: 'HUF', exchangeRate: 0.0125 }),
      )
    ).data;
    const old = fill({ fuelPrice: 21_000, version: created.version });
    const res = await ro.put(`/api/fuel-consumptions/${created.id}`, old);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      fuelPrice: 21_000,
      currency: 'HUF',
      exchangeRate: 0.0125,
      rateSource: 'MANUAL',
      version: created.version + 1,
    });
    // The same queued edit replayed is stale: 409 with the current record, money included.
    const replay = await ro.put(`/api/fuel-consumptions/${created.id}`, old);
    expect(replay.statusCode).toBe(409);
    expect(replay.data.details).toMatchObject({ currency: 'HUF', exchangeRate: 0.0125 });
  });

  it('an edit that moves the record to another day takes that day’s rate; back to lei, rate 1', async () => {
    const created = (
      await ro.post(
        '/api/fuel-consumptions',
        fill({ fuelPrice: 10_000, currency: 'HUF', date: '2024-03-08' }),
      )
    ).data;
    expect(created.exchangeRate).toBe(HUF_IN_RON);
    const moved = await ro.put(
      `/api/fuel-consumptions/${created.id}`,
      fill({ fuelPrice: 10_000, date: '2024-03-10' }),
    );
    expect(moved.data).toMatchObject({ currency: 'HUF', exchangeRate: HUF_IN_RON, rateDate: '2024-03-08' });
    // A client that sends back the reference rate it read, with the day changed, gets the new day's.
    await new FxRepo(t.database.db).upsert([
      { currency: 'RON', date: '2024-03-11', rate: 4.9702, source: 'ECB' },
      { currency: 'HUF', date: '2024-03-11', rate: 392.5, source: 'ECB' },
    ]);
    const echoed = await ro.put(
      `/api/fuel-consumptions/${created.id}`,
      fill({
        fuelPrice: 10_000,
        date: '2024-03-11',
        currency: 'HUF',
        exchangeRate: moved.data.exchangeRate,
        rateDate: moved.data.rateDate,
        rateSource: 'ECB',
      }),
    );
    expect(echoed.data).toMatchObject({
      exchangeRate: crossRate(392.5, 4.9702),
      rateDate: '2024-03-11',
      rateSource: 'ECB',
    });
    // A rate the user typed is theirs: kept when the day moves.
    const typed = await ro.put(
      `/api/fuel-consumptions/${created.id}`,
      fill({
        fuelPrice: 10_000,
        date: '2024-03-11',
        currency: 'HUF',
        exchangeRate: 0.0131,
        rateSource: 'MANUAL',
      }),
    );
    const kept = await ro.put(
      `/api/fuel-consumptions/${created.id}`,
      fill({
        fuelPrice: 10_000,
        date: '2024-03-12',
        currency: 'HUF',
        exchangeRate: 0.0131,
        rateSource: 'MANUAL',
      }),
    );
    expect([typed.data.exchangeRate, kept.data.exchangeRate, kept.data.rateSource]).toEqual([
      0.0131,
      0.0131,
      'MANUAL',
    ]);
    const lei = await ro.put(
      `/api/fuel-consumptions/${created.id}`,
      fill({ fuelPrice: 50, currency: 'RON' }),
    );
    expect(lei.data).toMatchObject({ fuelPrice: 50, currency: 'RON', exchangeRate: 1 });
  });

  it('a create replayed with its Idempotency-Key makes one record', async () => {
    const headers = { 'idempotency-key': 'cur-replay-0000000001' };
    const body = fill({ fuelPrice: 30_000, currency: 'HUF', date: '2024-03-08' });
    const first = await ro.request('POST', '/api/fuel-consumptions', body, { headers });
    const second = await ro.request('POST', '/api/fuel-consumptions', body, { headers });
    expect(first.statusCode).toBe(201);
    expect(second.data).toEqual(first.data);
    const list = (await ro.get(`/api/fuel-consumptions/vehicle/${car}`)).data;
    expect(list.filter((f: { fuelPrice: number }) => f.fuelPrice === 30_000)).toHaveLength(1);
  });
});
