import { convertMoney, crossRate, formatAmount, roundMoney } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, TestClient } from './helpers/client.js';

// Issue 50: the AI texts and the report's lines convert every amount to the owner's currency, also
// a record paid in another one (an expense in euros on a lei owner's car) and every record written
// before the owner changed currency; changing RON → EUR → RON gives back the same texts to the cent.
// The instance is in pounds (CURRENCY=GBP): its admin's global analytics default to them.

let t: TestApp;
let ro: TestClient;
let account: { username: string; email: string };
let car: number;
let token: string;

// The ECB's euro reference rate of Friday 8 March 2024 (lei per euro), the latest the server knows.
const RON_PER_EUR = 4.9688;
const EUR_IN_RON = crossRate(1, RON_PER_EUR);
const RON_IN_EUR = crossRate(RON_PER_EUR, 1);
const GBP_PER_EUR = 0.8556;
const RON_IN_GBP = crossRate(RON_PER_EUR, GBP_PER_EUR);
/** 300 € of tyres at the day's rate: 1.490,64 lei. */
const TYRES_RON = convertMoney(300, EUR_IN_RON);
const TOTAL_RON = roundMoney(280 + 150 + TYRES_RON);

/** A text with any run of white space (no-break spaces included) as one space. */
const plain = (s: string) => s.replace(/&nbsp;/g, ' ').replace(/[\s\u00a0\u202f]+/g, ' ');
const lei = (n: number) => plain(formatAmount(n, 'RON', 'ro'));
const euros = (n: number) => plain(formatAmount(n, 'EUR', 'ro'));

const performance = async () => {
  const res = await ro.get(`/ai-feedback/vehicle/${car}/performance`);
  expect(res.statusCode).toBe(200);
  return plain(res.body);
};
/** The public report page from its first section to its footer (the header has the minute it was made). */
const reportPage = async () => {
  const res = await new TestClient(t.app).get(`/r/${token}?lang=ro`);
  expect(res.statusCode).toBe(200);
  const page = plain(res.body);
  return page.slice(page.indexOf('<section>'), page.indexOf('<footer>'));
};
/** The service line's price (the costs table below it comes from the analytics). */
const servicePrice = (page: string) => page.match(/11\.000 km<\/td><td class="num">([^<]+)</)?.[1];
const setCurrency = async (currency: string) => {
  const res = await ro.put('/api/users/me', { username: account.username, email: account.email, currency });
  expect(res.data.currency).toBe(currency);
};

beforeAll(async () => {
  t = await createTestApp({ CURRENCY: 'GBP' });
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-03-08', rate: RON_PER_EUR, source: 'ECB' },
    { currency: 'GBP', date: '2024-03-08', rate: GBP_PER_EUR, source: 'ECB' },
  ]);
  // The first account is the administrator: a Romanian paying in lei.
  ro = new TestClient(t.app);
  account = newAccount('occro');
  expect((await ro.post('/api/auth/register', { ...account, language: 'ro' })).data.user.currency).toBe(
    'RON',
  );
  car = (
    await ro.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'B-50-OCC',
      engineSize: 1.0,
      odometer: 12_000,
      aiEvaluationConsent: true,
    })
  ).data.id;
  const created = await Promise.all([
    ro.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 280,
      date: '2024-03-08',
      fullTank: false,
    }),
    ro.post('/api/revision', { vehicleId: car, date: '2024-03-08', km: 11_000, price: 150 }),
    ro.post('/api/expenses', {
      vehicleId: car,
      date: '2024-03-08',
      expenseType: 'Tyres',
      amount: 300,
      currency: 'EUR',
    }),
  ]);
  for (const res of created) expect(res.statusCode).toBe(201);
  token = (await ro.post(`/api/vehicles/${car}/report-links`, { expiresInDays: 7 })).data.token;
});
afterAll(() => t.close());

describe('the virtual mechanic’s facts', () => {
  it('name the largest expense at its rate in lei: 300 € of tyres is 1.490,64 lei, most of the costs', async () => {
    const text = await performance();
    expect(text).toContain(`${lei(TOTAL_RON)}`);
    expect(text).toContain(`o singură cheltuială Tyres de ${lei(TYRES_RON)}`);
    expect(text).not.toContain(lei(300));
  });
});

describe('the admin’s global analytics on an instance in pounds (CURRENCY=GBP)', () => {
  it('are in pounds unless asked otherwise, not in the admin’s own lei', async () => {
    expect((await ro.get('/api/users/me')).data).toMatchObject({ role: 'ADMIN', currency: 'RON' });
    const rows = (await ro.get('/api/analytics/admin/filter?start=2024-03&end=2024-03')).data;
    const [fuel, expenses, revisions] = [280, TYRES_RON, 150].map((n) => convertMoney(n, RON_IN_GBP));
    expect(rows).toEqual([
      expect.objectContaining({
        vehicleId: car,
        currency: 'GBP',
        totalFuelCost: fuel,
        totalExpensesCost: expenses,
        totalRevisionCost: revisions,
      }),
    ]);
    const inLei = (await ro.get('/api/analytics/admin/filter?start=2024-03&end=2024-03&currency=RON')).data;
    expect(inLei).toEqual([
      expect.objectContaining({ currency: 'RON', totalCost: TOTAL_RON, totalExpensesCost: TYRES_RON }),
    ]);
  });
});

describe('the owner changes currency: RON → EUR → RON', () => {
  it('the AI texts and the report lines are converted, never relabelled, and come back to the cent', async () => {
    const textInLei = await performance();
    const pageInLei = await reportPage();
    expect(servicePrice(pageInLei)).toBe(lei(150));

    await setCurrency('EUR');
    // The month's lei at the day's rate, to the cent, as the analytics convert it.
    const totalEur = convertMoney(TOTAL_RON, RON_IN_EUR);
    const inEuros = await performance();
    expect(inEuros).toContain(euros(totalEur));
    expect(inEuros).not.toContain(euros(TOTAL_RON));
    expect(inEuros).not.toContain('lei');
    const analytics = (await ro.get(`/api/analytics/vehicle/${car}/total`)).data;
    expect(analytics).toMatchObject({ currency: 'EUR', totalCost: totalEur });
    const pageInEuros = await reportPage();
    expect(servicePrice(pageInEuros)).toBe(euros(convertMoney(150, RON_IN_EUR)));
    expect(pageInEuros).toContain(euros(totalEur));
    expect(pageInEuros).not.toContain('lei');

    await setCurrency('RON');
    expect(await performance()).toBe(textInLei);
    expect(await reportPage()).toBe(pageInLei);
  });
});
