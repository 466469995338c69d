import { convertMoney, crossRate, formatAmount } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';

// Issue 50: the AI texts are in the reader's currency and units. A Romanian owner reads lei; a British
// reader reads mpg and miles; a euro account's texts are as they were; a shared car's euro viewer
// reads the lei owner's figures in euros, converted at the day's reference rate (as the analytics).

let t: TestApp;
const RON_PER_EUR = 4.9765;

async function registerIn(language: 'ro' | 'en' | 'es') {
  const client = new TestClient(t.app);
  const account = newAccount(`aimu${language}`);
  const res = await client.post('/api/auth/register', { ...account, language });
  expect(res.statusCode).toBe(201);
  return { client, account, username: res.data.user.username as string };
}

/** A petrol car with four full-tank fills (7.33 L/100 km on average) and a 987.65 service. */
async function carWithRecords(client: TestClient, reg: string) {
  const res = await client.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: reg,
    engineSize: 1.0,
    odometer: 12_000,
    aiEvaluationConsent: true,
  });
  expect(res.statusCode).toBe(201);
  const id = res.data.id as number;
  const fills = [
    { date: '2026-07-01', odometer: 10_000, liters: 40, fuelPrice: 300 },
    { date: '2026-08-01', odometer: 10_500, liters: 35, fuelPrice: 262.5 },
    { date: '2026-09-01', odometer: 11_000, liters: 30, fuelPrice: 225 },
    { date: '2026-10-01', odometer: 11_500, liters: 45, fuelPrice: 360 },
  ];
  for (const f of fills) {
    const r = await client.post('/api/fuel-consumptions', { vehicleId: id, fuelType: 'PETROL', ...f });
    expect(r.statusCode).toBe(201);
  }
  const service = await client.post('/api/revision', {
    vehicleId: id,
    date: '2026-06-01',
    km: 9_500,
    price: 987.65,
  });
  expect(service.statusCode).toBe(201);
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin'); // the first account is the administrator
  // The day's reference rate of the lei (units per euro), stored as the ECB job stores it.
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: new Date().toISOString().slice(0, 10), rate: RON_PER_EUR, source: 'ECB' },
  ]);
});

afterAll(async () => {
  await t.close();
});

describe('AI texts in the owner currency and the reader units', () => {
  it("writes a Romanian owner's summaries, evaluation and chat in lei", async () => {
    const { client } = await registerIn('ro');
    expect((await client.get('/api/users/me')).data.currency).toBe('RON');
    const car = await carWithRecords(client, 'B-50-AIL');

    const perf = await client.get(`/ai-feedback/vehicle/${car}/performance`);
    expect(perf.statusCode).toBe(200);
    // 1,147.50 lei of fuel and 987.65 lei of service.
    expect(perf.body).toMatch(/2\.135,15\slei/);
    expect(perf.body).not.toContain('€');

    const fuel = await client.get(`/ai-feedback/vehicle/${car}/fuel`);
    expect(fuel.body).toMatch(/1\.147,50\slei/);
    // 7.667 lei a litre on the last three fills against 7.500 before.
    expect(fuel.body).toMatch(/7,667\slei la ultimele 3 alimentări față de 7,500\slei/);
    expect(fuel.body).toContain('L/100 km');
    expect(fuel.body).not.toContain('€');

    const chat = await client.post('/api/chat', { prompt: 'Cât m-a costat mașina?' });
    expect(chat.statusCode).toBe(200);
    expect(chat.data.response).toMatch(/2\.135,15\slei în total/);

    const evaluated = await client.post(`/api/vehicles/${car}/evaluate-ai`);
    expect(evaluated.statusCode).toBe(200);
    expect(evaluated.data.aiScoreReason).not.toContain('€');
  });

  it('writes mpg, miles and pounds for a British reader, litres of fuel as gallons only if they read gallons', async () => {
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
    const car = await carWithRecords(client, 'GB-50-AI');

    const fuel = await client.get(`/ai-feedback/vehicle/${car}/fuel`);
    // The average of three measured tanks: (35/500, 30/500, 45/500) → 7.33 L/100 km = 38.5 mpg (UK).
    expect(fuel.body).toContain('38.5 mpg');
    expect(fuel.body).not.toContain('L/100 km');
    expect(fuel.body).toContain('£1,147.50');
    expect(fuel.body).toContain('150.00 L');

    const perf = await client.get(`/ai-feedback/vehicle/${car}/performance`);
    // 9,500 to 12,000 km on record: 2,500 km is 1,553 miles; £2,135.15 over them is £1.37 a mile.
    expect(perf.body).toContain('That is £1.37 per mi over 1,553 mi on record.');
    expect(perf.body).not.toMatch(/€|\bkm\b/);

    const chat = await client.post('/api/chat', { prompt: 'What is my fuel consumption?' });
    expect(chat.data.response).toContain('mpg');

    const evaluated = await client.post(`/api/vehicles/${car}/evaluate-ai`);
    expect(evaluated.statusCode).toBe(200);
    // 15,000 km is 9,321 miles; the consumption factor in mpg.
    expect(evaluated.data.aiScoreReason).toContain('the typical 9,321 mi');
    expect(evaluated.data.aiScoreReason).toMatch(/Real consumption 38\.5 mpg/);
    expect(evaluated.data.aiScoreReason).not.toMatch(/\bkm\b|L\/100/);
  });

  it('keeps the euro texts of an existing-style account unchanged', async () => {
    const { client } = await registered(t.app, 'aimueur');
    const car = await carWithRecords(client, 'EU-50-AI');
    const fuel = await client.get(`/ai-feedback/vehicle/${car}/fuel`);
    expect(fuel.body).toContain('4 fill-ups: 150.00 L for €1,147.50.');
    expect(fuel.body).toContain('7.33 L/100 km');
    expect(fuel.body).toMatch(/Price per litre: 7\.667 € on the last 3 fill-ups against 7\.500 € before/);
  });

  it("gives a shared car's owner in lei and its viewer in euros the same figures, each in their currency", async () => {
    const owner = await registerIn('ro');
    const viewer = await registerIn('es');
    expect((await viewer.client.get('/api/users/me')).data.currency).toBe('EUR');
    const car = await carWithRecords(owner.client, 'B-50-SHR');
    const share = await owner.client.post(`/api/vehicles/${car}/shares`, {
      username: viewer.username,
      role: 'VIEWER',
    });
    expect(share.statusCode).toBe(201);
    const eurPerRon = crossRate(RON_PER_EUR, 1);
    const eur = (lei: number) => formatAmount(convertMoney(lei, eurPerRon), 'EUR', 'es');
    // A price per litre keeps 3 decimals: 7.667 lei is 1,541 €.
    const perLitre = (lei: number) =>
      new RegExp(`${(Math.round(lei * eurPerRon * 1000) / 1000).toFixed(3).replace('.', ',')}\\s€`);

    // The owner reads lei, as before.
    const ownerPerf = await owner.client.get(`/ai-feedback/vehicle/${car}/performance`);
    expect(ownerPerf.body).toMatch(/2\.135,15\slei/);
    expect(ownerPerf.body).not.toContain('€');

    // The viewer reads the same totals in euros: 2,135.15 lei is 429.05 € (never "2135,15 €").
    const perf = await viewer.client.get(`/ai-feedback/vehicle/${car}/performance`);
    expect(perf.statusCode).toBe(200);
    expect(eur(2135.15)).toMatch(/^429,05\s€$/);
    expect(perf.body).toContain(eur(2135.15));
    expect(perf.body).toContain(eur(1147.5));
    expect(perf.body).toContain(eur(987.65));
    expect(perf.body).not.toMatch(/lei|2135,15/);

    const fuel = await viewer.client.get(`/ai-feedback/vehicle/${car}/fuel`);
    expect(fuel.statusCode).toBe(200);
    expect(fuel.body).toContain(eur(1147.5));
    // The price per litre: 7.667 and 7.500 lei.
    expect(fuel.body).toMatch(perLitre(7.667));
    expect(fuel.body).toMatch(perLitre(7.5));
    expect(fuel.body).not.toContain('lei');

    // The mechanic's chat over every car the viewer reaches: the shared car's total in euros.
    const chat = await viewer.client.post('/api/chat', {
      prompt: '¿Cuánto me ha costado el coche en total?',
    });
    expect(chat.statusCode).toBe(200);
    expect(chat.data.response).toContain(`${eur(2135.15)} en total`);
    expect(chat.data.response).not.toContain('lei');

    // The owner's chat is still in lei.
    const ownerChat = await owner.client.post('/api/chat', { prompt: 'Cât m-a costat mașina?' });
    expect(ownerChat.data.response).toMatch(/2\.135,15\slei în total/);
  });

  it("keeps a shared car's amounts in the owner's currency, labelled as such, when no rate to the reader's is known", async () => {
    const owner = await registerIn('ro');
    const reader = await registerIn('en');
    const put = await reader.client.put('/api/users/me', {
      username: reader.username,
      email: reader.account.email,
      country: 'US',
      currency: 'USD',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
    expect(put.statusCode).toBe(200);
    const car = await carWithRecords(owner.client, 'B-50-USD');
    await owner.client.post(`/api/vehicles/${car}/shares`, { username: reader.username, role: 'VIEWER' });
    const perf = await reader.client.get(`/ai-feedback/vehicle/${car}/performance`);
    expect(perf.statusCode).toBe(200);
    // No dollar rate is stored: the lei figure stays lei, never relabelled as dollars.
    expect(perf.body).toMatch(/lei\s2,135\.15/);
    expect(perf.body).not.toContain('$');
  });

  it('answers 404 and no figures to a user the car is not shared with', async () => {
    const owner = await registerIn('ro');
    const stranger = await registerIn('es');
    const car = await carWithRecords(owner.client, 'B-50-STR');
    const perf = await stranger.client.get(`/ai-feedback/vehicle/${car}/performance`);
    expect(perf.statusCode).toBe(404);
    expect(perf.body).not.toMatch(/lei|€/);
  });
});
