import { convertMoney, crossRate, roundMoney } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

// Issue 50: analytics in the reader's currency. A Romanian owner (lei) and a Spanish editor (euros)
// share a car; each reads the same records' totals in their own currency.

let t: TestApp;
let admin: TestClient;
let ro: TestClient;
let roAccount: { username: string; email: string };
let es: TestClient;
let car: number;

// The ECB's euro reference rates of Friday 8 March 2024 (units per euro), stored as the job would.
const RON_PER_EUR = 4.9688;
const HUF_PER_EUR = 391.83;
const HUF_IN_RON = crossRate(HUF_PER_EUR, RON_PER_EUR);
const EUR_IN_RON = crossRate(1, RON_PER_EUR);
const RON_IN_EUR = crossRate(RON_PER_EUR, 1);

async function registerIn(language: 'ro' | 'es') {
  const client = new TestClient(t.app);
  const account = newAccount(`an${language}`);
  const res = await client.post('/api/auth/register', { ...account, language });
  expect(res.statusCode).toBe(201);
  return { client, account, user: res.data.user as { username: string } };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-03-08', rate: RON_PER_EUR, source: 'ECB' },
    { currency: 'HUF', date: '2024-03-08', rate: HUF_PER_EUR, source: 'ECB' },
  ]);
  const owner = await registerIn('ro');
  const editor = await registerIn('es');
  ro = owner.client;
  roAccount = owner.account;
  es = editor.client;
  car = (
    await ro.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Duster',
      year: 2020,
      fuelType: 'PETROL',
      registrationNumber: 'B-50-ANA',
      engineSize: 1.3,
      odometer: 10_000,
    })
  ).data.id;
  expect(
    (await ro.post(`/api/vehicles/${car}/shares`, { username: editor.user.username, role: 'EDITOR' }))
      .statusCode,
  ).toBe(201);
  const created = await Promise.all([
    // 280 lei, and 25,000 HUF filled in Hungary on the Saturday (the Friday's rate).
    ro.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 280,
      date: '2024-03-08',
      fullTank: false,
    }),
    es.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 41,
      fuelPrice: 25_000,
      currency: 'HUF',
      date: '2024-03-09',
      fullTank: false,
    }),
    // A policy priced in euros, paid by the lei owner.
    ro.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2024-03-08',
      endDate: '2025-03-07',
      price: 300,
      currency: 'EUR',
    }),
    ro.post('/api/expenses', { vehicleId: car, date: '2024-04-02', expenseType: 'Tyres', amount: 150.55 }),
  ]);
  for (const res of created) expect(res.statusCode).toBe(201);
});
afterAll(() => t.close());

const total = (client: TestClient, query = '') => client.get(`/api/analytics/vehicle/${car}/total${query}`);

/** The owner's sums in lei: each record's amount times its stored rate, to the cent. */
const marchFuelRon = roundMoney(280 + convertMoney(25_000, HUF_IN_RON));
const marchInsuranceRon = convertMoney(300, EUR_IN_RON);
const aprilExpensesRon = 150.55;

describe('vehicle analytics in the reader’s currency', () => {
  it('the lei owner reads lei: each record at its own rate, never 25,000 added to lei', async () => {
    const res = await total(ro);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      currency: 'RON',
      totalFuelLiters: 81,
      totalFuelCost: marchFuelRon,
      totalInsuranceCost: marchInsuranceRon,
      totalExpensesCost: aprilExpensesRon,
      totalCost: roundMoney(marchFuelRon + marchInsuranceRon + aprilExpensesRon),
    });
    expect(res.data.totalFuelCost).toBeLessThan(1000);
  });

  it('the euro editor reads the same records in euros, each month converted at the day’s rate', async () => {
    const fuel = convertMoney(marchFuelRon, RON_IN_EUR);
    const insurance = convertMoney(marchInsuranceRon, RON_IN_EUR);
    const expenses = convertMoney(aprilExpensesRon, RON_IN_EUR);
    const res = await total(es);
    expect(res.data).toMatchObject({
      currency: 'EUR',
      totalFuelLiters: 81,
      totalFuelCost: fuel,
      totalInsuranceCost: insurance,
      totalExpensesCost: expenses,
      totalCost: roundMoney(fuel + insurance + expenses),
    });
    // The policy priced at 300 € reads back as (about) 300 €.
    expect(Math.abs(insurance - 300)).toBeLessThanOrEqual(0.01);
    const monthly = (await es.get(`/api/analytics/vehicle/${car}/recompute`)).data;
    expect(monthly).toEqual([
      expect.objectContaining({ monthDate: '2024-04-01', totalExpensesCost: expenses, currency: 'EUR' }),
      expect.objectContaining({
        monthDate: '2024-03-01',
        totalFuelCost: fuel,
        totalInsuranceCost: insurance,
        totalCost: roundMoney(fuel + insurance),
        currency: 'EUR',
      }),
    ]);
    const yearly = (await es.get(`/api/analytics/vehicle/${car}/yearly`)).data;
    expect(yearly['2024']).toMatchObject({ totalFuelCost: fuel, currency: 'EUR' });
  });

  it('?currency= asks for another: the editor may read lei, the owner euros', async () => {
    expect((await total(es, '?currency=RON')).data).toEqual((await total(ro)).data);
    expect((await total(ro, '?currency=EUR')).data).toEqual((await total(es)).data);
  });

  it('a currency without any known rate is 404; an unknown one 400; a stranger learns nothing', async () => {
    const mdl = await total(ro, '?currency=MDL');
    expectError(mdl, 404, 'NOT_FOUND');
    expect(mdl.data.message).toBe('No exchange rate from RON to MDL is known.');
    expectInvalid(await total(ro, '?currency=XYZ'), 'currency');
    const stranger = (await registered(t.app, 'stranger')).client;
    const res = await total(stranger, '?currency=MDL');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.data.message).not.toMatch(/RON/);
  });
});

describe('the virtual mechanic’s facts', () => {
  it('count the HUF fill-up at its rate: 25,000 HUF is never added to lei', async () => {
    const res = await ro.post('/api/chat', { prompt: 'How much did I spend on fuel?' });
    expect(res.statusCode).toBe(200);
    // In Romanian, the owner's language: 597,03.
    expect(res.data.response).toContain(marchFuelRon.toFixed(2).replace('.', ','));
    expect(res.data.response).not.toMatch(/25\.?280/);
  });
});

describe('user and admin analytics', () => {
  it('each reader’s rows are in their own currency', async () => {
    const mine = (await ro.get('/api/analytics/user')).data;
    const theirs = (await es.get('/api/analytics/user')).data;
    const march = (rows: { monthDate: string; vehicleId: number }[]) =>
      rows.find((r) => r.vehicleId === car && r.monthDate === '2024-03-01');
    expect(march(mine)).toMatchObject({ currency: 'RON', totalFuelCost: marchFuelRon });
    expect(march(theirs)).toMatchObject({
      currency: 'EUR',
      totalFuelCost: convertMoney(marchFuelRon, RON_IN_EUR),
    });
    const asked = (await es.get('/api/analytics/user?currency=RON')).data;
    expect(march(asked)).toMatchObject({ currency: 'RON', totalFuelCost: marchFuelRon });
  });

  it('the admin’s global analytics are in the instance’s currency (EUR) unless asked otherwise', async () => {
    const rows = (await admin.get('/api/analytics/admin/filter?start=2024-03&end=2024-03')).data;
    expect(rows).toEqual([
      expect.objectContaining({
        vehicleId: car,
        currency: 'EUR',
        totalFuelCost: convertMoney(marchFuelRon, RON_IN_EUR),
      }),
    ]);
    const inLei = (await admin.get('/api/analytics/admin/filter?start=2024-03&end=2024-03&currency=RON'))
      .data;
    expect(inLei).toEqual([expect.objectContaining({ currency: 'RON', totalFuelCost: marchFuelRon })]);
    expectInvalid(await admin.get('/api/analytics/admin/filter?currency=lei'), 'currency');
  });
});

describe('changing one’s currency converts every total, and back gives the same to the cent', () => {
  it('RON → EUR → RON', async () => {
    const me = (currency: string) =>
      ro.put('/api/users/me', { username: roAccount.username, email: roAccount.email, currency });
    const inLei = (await total(ro)).data;
    const monthlyInLei = (await ro.get(`/api/analytics/vehicle/${car}/recompute`)).data;
    const yearlyInLei = (await ro.get(`/api/analytics/vehicle/${car}/yearly`)).data;

    expect((await me('EUR')).data.currency).toBe('EUR');
    const inEuros = (await total(ro)).data;
    expect(inEuros.currency).toBe('EUR');
    expect(inEuros.totalCost).not.toBe(inLei.totalCost);
    expect(inEuros).toEqual((await total(es)).data);

    expect((await me('RON')).data.currency).toBe('RON');
    expect((await total(ro)).data).toEqual(inLei);
    expect((await ro.get(`/api/analytics/vehicle/${car}/recompute`)).data).toEqual(monthlyInLei);
    expect((await ro.get(`/api/analytics/vehicle/${car}/yearly`)).data).toEqual(yearlyInLei);
  });

  it('records written while the owner read euros stay euros: converted, never added to the lei', async () => {
    const me = (currency: string) =>
      ro.put('/api/users/me', { username: roAccount.username, email: roAccount.email, currency });
    const before = (await total(ro)).data;
    await me('EUR');
    const expense = await ro.post('/api/expenses', {
      vehicleId: car,
      date: '2024-04-20',
      expenseType: 'Tyres',
      amount: 100,
    });
    expect(expense.data).toMatchObject({ currency: 'EUR', exchangeRate: 1 });
    await me('RON');
    const after = (await total(ro)).data;
    // April's euro expense counts at the euro's rate to lei, beside April's lei (rounded per currency).
    expect(after.totalExpensesCost).toBe(roundMoney(aprilExpensesRon + convertMoney(100, EUR_IN_RON)));
    expect(after.totalFuelCost).toBe(before.totalFuelCost);
  });
});
