import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '../src/lib/pdfjs.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';

// Issue 50: the vehicle history report prints the owner's money (each record at its stored rate) and
// measures in the owner's units; a euro owner's report reads as before (reports.test.ts).

/** Every page's text, any run of white space as one space (as reports.test.ts reads it). */
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await openPdf(new Uint8Array(bytes));
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : ' ');
  }
  await doc.destroy();
  return parts.join('').replace(/[\s\u00a0\u202f]+/g, ' ');
}

let t: TestApp;

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
  t = await createTestApp();
  await registered(t.app, 'admin');
});
afterAll(() => t.close());

describe('the report in the owner currency and units', () => {
  it("prints a Romanian owner's costs in lei, a service paid in euros at its rate", async () => {
    const { client } = await registerIn('ro');
    const car = await carWithRecords(client, 'B-50-REP');
    // 100 € at a typed 4.97 lei a euro: 497,00 lei in the owner's money.
    const service = await client.post('/api/revision', {
      vehicleId: car,
      date: '2026-06-01',
      km: 9_500,
      price: 100,
      currency: 'EUR',
      exchangeRate: 4.97,
      description: 'Revizie',
    });
    expect(service.statusCode).toBe(201);
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
