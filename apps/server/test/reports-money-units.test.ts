import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { pdfText } from './helpers/pdf-text.js';

// Issue 50: the vehicle history report prints the owner's money (each record at its stored rate) and
// measures in the owner's units; a euro owner's report reads as before (reports.test.ts). A signed-in
// reader of a shared car (or an administrator) gets it in their own currency and units, its
// verification code the owner's; the share link's public report stays in the owner's.

let t: TestApp;
// The clock only moves forward from the real time (sessions are checked against the database's).
let offset = 0;
const now = () => new Date(Date.now() + offset);
let admin: Awaited<ReturnType<typeof registered>>;
/** Lei for one euro, stored as today's reference rate. */
const RON_PER_EUR = 5;
const today = () => new Date().toISOString().slice(0, 10);
const codeIn = (text: string) =>
  text.match(/[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}/)?.[0];

async function registerIn(language: 'ro' | 'en') {
  const client = new TestClient(t.app);
  const account = newAccount(`rmu${language}`);
  const res = await client.post('/api/auth/register', { ...account, language });
  expect(res.statusCode).toBe(201);
  return { client, account };
}

async function carWithRecords(client: TestClient, reg: string) {
  const res = await client.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: reg,
    engineSize: 1.0,
    odometer: 12_000,
  });
  expect(res.statusCode).toBe(201);
  const id = res.data.id as number;
  for (const f of [
    { date: '2026-07-01', odometer: 10_000, liters: 40, fuelPrice: 300 },
    { date: '2026-08-01', odometer: 10_500, liters: 35, fuelPrice: 262.5 },
  ]) {
    const r = await client.post('/api/fuel-consumptions', { vehicleId: id, fuelType: 'PETROL', ...f });
    expect(r.statusCode).toBe(201);
  }
  return id;
}

const pdf = async (client: TestClient, url: string) => {
  const res = await client.get(url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return pdfText(res.rawPayload);
};

beforeAll(async () => {
  t = await createTestApp({}, now);
  admin = await registered(t.app, 'admin');
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: today(), rate: RON_PER_EUR, source: 'ECB' },
  ]);
});
afterAll(() => t.close());

/** A service paid in euros at a typed 4.97 lei a euro, on a lei owner's car. */
const euroService = (client: TestClient, car: number) =>
  client.post('/api/revision', {
    vehicleId: car,
    date: '2026-06-01',
    km: 9_500,
    price: 100,
    currency: 'EUR',
    exchangeRate: 4.97,
    description: 'Revizie',
  });

describe('the report in the owner currency and units', () => {
  it("prints a Romanian owner's costs in lei, a service paid in euros at its rate", async () => {
    const { client } = await registerIn('ro');
    const car = await carWithRecords(client, 'B-50-REP');
    // 100 € at a typed 4.97 lei a euro: 497,00 lei in the owner's money.
    expect((await euroService(client, car)).statusCode).toBe(201);
    const text = await pdf(client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(text).toContain('497,00 lei');
    // 300 + 262,50 lei of fuel and 497 lei of service.
    expect(text).toContain('562,50 lei');
    expect(text).toContain('1.059,50 lei');
    expect(text).toContain('L/100km');
    expect(text).not.toContain('€');

    // The public page of a share link says the same.
    const link = await client.post(`/api/vehicles/${car}/report-links`, { expiresInDays: 7 });
    expect(link.statusCode).toBe(201);
    const page = await new TestClient(t.app).get(`/r/${link.data.token}?lang=ro`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/1\.059,50(\s|&nbsp;)lei/);
    expect(page.body).not.toContain('€');
  });

  it("prints a British owner's report in pounds, miles and mpg", async () => {
    const { client, account } = await registerIn('en');
    const put = await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      country: 'GB',
      currency: 'GBP',
      distanceUnit: 'mi',
      volumeUnit: 'L',
      consumptionUnit: 'MPG_UK',
    });
    expect(put.statusCode).toBe(200);
    const car = await carWithRecords(client, 'GB-50-REP');
    const text = await pdf(client, `/api/vehicles/${car}/report.pdf?lang=en`);
    expect(text).toContain('£562.50');
    // 12,000 km on the odometer is 7,456 miles; 35 L over 500 km is 7.00 L/100 km = 40.4 mpg (UK).
    expect(text).toContain('7,456 mi');
    expect(text).toContain('40.4 mpg');
    expect(text).toContain('Cost per mi');
    expect(text).not.toMatch(/€|L\/100km/);
  });

  it('keeps the verification code of the same content when the owner reads other units', async () => {
    const { client, account } = await registerIn('ro');
    const car = await carWithRecords(client, 'B-50-COD');
    const code = (text: string) =>
      text.match(/[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}/)?.[0];
    const first = code(await pdf(client, `/api/vehicles/${car}/report.pdf?lang=ro`));
    expect(first).toBeDefined();
    const put = await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      distanceUnit: 'mi',
      consumptionUnit: 'MPG_UK',
    });
    expect(put.statusCode).toBe(200);
    const again = await pdf(client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(again).toContain('7.456 mi');
    expect(code(again)).toBe(first);
  });
});

describe("the report in a signed-in reader's currency and units", () => {
  let owner: Awaited<ReturnType<typeof registerIn>>;
  let viewer: Awaited<ReturnType<typeof registerIn>>;
  let car: number;

  beforeAll(async () => {
    owner = await registerIn('ro');
    viewer = await registerIn('en');
    const put = await viewer.client.put('/api/users/me', {
      username: viewer.account.username,
      email: viewer.account.email,
      currency: 'EUR',
      distanceUnit: 'mi',
      volumeUnit: 'L',
      consumptionUnit: 'MPG_UK',
    });
    expect(put.statusCode, put.body).toBe(200);
    car = await carWithRecords(owner.client, 'B-50-VWR');
    // 100 € at a typed 4.97 lei a euro: 497,00 lei in the owner's money.
    expect((await euroService(owner.client, car)).statusCode).toBe(201);
    const share = await owner.client.post(`/api/vehicles/${car}/shares`, {
      username: viewer.account.username,
      role: 'VIEWER',
    });
    expect(share.statusCode, share.body).toBe(201);
  });

  it("prints a euro, miles and mpg viewer's report in theirs, the owner's in lei and km, with one code", async () => {
    const theirs = await pdf(viewer.client, `/api/vehicles/${car}/report.pdf?lang=en`);
    // At 5 lei a euro: the service's 497,00 lei is €99.40, the fuel's 562,50 lei €112.50, all €211.90.
    expect(theirs).toContain('€99.40');
    expect(theirs).toContain('€112.50');
    expect(theirs).toContain('€211.90');
    // The same figure the viewer's own analytics give (the report converts as they do).
    const total = await viewer.client.get(`/api/analytics/vehicle/${car}/total`);
    expect(total.statusCode).toBe(200);
    expect(total.data.totalCost).toBe(211.9);
    // 12,000 km on the odometer is 7,456 miles; 35 L over 500 km is 7.00 L/100 km = 40.4 mpg (UK).
    expect(theirs).toContain('7,456 mi');
    expect(theirs).toContain('40.4 mpg');
    expect(theirs).toContain('Cost per mi');
    expect(theirs).not.toMatch(/lei|L\/100km|12,000 km/);

    const owners = await pdf(owner.client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(owners).toContain('497,00 lei');
    expect(owners).toContain('1.059,50 lei');
    expect(owners).toContain('12.000 km');
    expect(owners).toContain('L/100km');
    expect(owners).not.toMatch(/€|mpg/);

    // Same car, records and day: the same verification code whoever reads it, and it checks out.
    const code = codeIn(owners);
    expect(code).toBeDefined();
    expect(codeIn(theirs)).toBe(code);
    const check = await new TestClient(t.app).get(`/api/report/verify/${code}`);
    expect(check.statusCode).toBe(200);
    expect(check.data.genuine).toBe(true);
  });

  it("prints an administrator's report in theirs, with the owner's code", async () => {
    const put = await admin.client.put('/api/users/me', {
      username: admin.account.username,
      email: admin.account.email,
      currency: 'EUR',
      distanceUnit: 'km',
    });
    expect(put.statusCode, put.body).toBe(200);
    const text = await pdf(admin.client, `/api/vehicles/${car}/report.pdf?lang=en`);
    expect(text).toContain('€211.90');
    expect(text).toContain('12,000 km');
    expect(text).not.toContain('lei');
    const owners = await pdf(owner.client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(codeIn(text)).toBe(codeIn(owners));
  });

  it("keeps the share link's public report in the owner's lei and km, with the same code", async () => {
    const link = await owner.client.post(`/api/vehicles/${car}/report-links`, { expiresInDays: 7 });
    expect(link.statusCode).toBe(201);
    const anyone = new TestClient(t.app);
    const page = await anyone.get(`/r/${link.data.token}?lang=en`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/lei(\s|&nbsp;)1,059\.50/);
    expect(page.body).not.toContain('€');
    // Even opened by the euro viewer while signed in: the link is the owner's report.
    const text = await pdf(viewer.client, `/r/${link.data.token}/report.pdf?lang=en`);
    expect(text).toMatch(/lei 1,059\.50/);
    expect(text).toContain('12,000 km');
    expect(text).not.toMatch(/€|mpg/);
    const owners = await pdf(owner.client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(codeIn(text)).toBe(codeIn(owners));
  });

  it("keeps the owner's lei for a reader whose currency has no known rate, in the reader's units", async () => {
    const pounds = await registerIn('en');
    const put = await pounds.client.put('/api/users/me', {
      username: pounds.account.username,
      email: pounds.account.email,
      currency: 'GBP',
      distanceUnit: 'mi',
    });
    expect(put.statusCode, put.body).toBe(200);
    const share = await owner.client.post(`/api/vehicles/${car}/shares`, {
      username: pounds.account.username,
      role: 'VIEWER',
    });
    expect(share.statusCode, share.body).toBe(201);
    // No pound rate is stored: as their analytics, the report stays in lei (never relabelled £).
    const text = await pdf(pounds.client, `/api/vehicles/${car}/report.pdf?lang=en`);
    expect(text).toMatch(/lei 1,059\.50/);
    expect(text).toContain('7,456 mi');
    expect(text).not.toMatch(/£|€/);
    const owners = await pdf(owner.client, `/api/vehicles/${car}/report.pdf?lang=ro`);
    expect(codeIn(text)).toBe(codeIn(owners));
  });

  it('gives a user the car is not shared with 404 and no PDF', async () => {
    const stranger = await registerIn('en');
    const res = await stranger.client.get(`/api/vehicles/${car}/report.pdf?lang=en`);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toBe('application/pdf');
    expect(res.body).not.toMatch(/%PDF|lei|€/);
  });
});

// Issue 54: a drawn report is kept and sent again while what it prints is unchanged (ReportsRepo.stamp).
describe('a kept report', () => {
  it('is drawn again when a rate, the car, a record or a paper changes what it prints', async () => {
    const { client, account } = await registerIn('ro');
    const car = await carWithRecords(client, 'B-54-KPT');
    const report = () => pdf(client, `/api/vehicles/${car}/report.pdf?lang=en`);
    // The lei owner now reads euros: the lei records at today's rate, 562.50 lei at 5 lei a euro.
    const put = await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      currency: 'EUR',
    });
    expect(put.statusCode).toBe(200);
    expect(await report()).toContain('€112.50');
    expect(await report()).toContain('€112.50');
    // Today's rate corrected to 4.5 lei a euro: the report follows once the rates are read again
    // (they are kept a minute, as the analytics' are).
    const fx = new FxRepo(t.database.db);
    try {
      await fx.upsert([{ currency: 'RON', date: today(), rate: 4.5, source: 'ECB' }]);
      offset += 61_000;
      expect(await report()).toContain('€125.00');
    } finally {
      await fx.upsert([{ currency: 'RON', date: today(), rate: RON_PER_EUR, source: 'ECB' }]);
      offset += 61_000;
    }
    expect(await report()).toContain('€112.50');

    const v = (await client.get(`/api/vehicles/${car}`)).data;
    expect((await client.put(`/api/vehicles/${car}`, { ...v, make: 'Renault' })).statusCode).toBe(200);
    expect(await report()).toContain('Renault Logan');

    const rca = await client.post(`/api/vehicles/${car}/renewals`, {
      type: 'RCA',
      validFrom: '2026-01-01',
      validUntil: '2026-12-31',
      price: 1000,
    });
    expect(rca.statusCode).toBe(201);
    expect(await report()).toContain('RCA (liability insurance)');
  });
});
