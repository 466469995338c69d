import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '../src/lib/pdfjs.js';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

// Issue 51: a Dacia Logan Eco-G runs on petrol and LPG (GPL), each fill in its own full-to-full chain.
let t: TestApp;
let ro: TestClient;
let bob: TestClient;
let logan: number;
let clio: number;
const fillIds: number[] = [];

const RON_PER_EUR = 4.9688;
const car = (reg: string, extra: Record<string, unknown> = {}) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2022,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1,
  odometer: 49_000,
  aiEvaluationConsent: true, // the AI summaries need it
  ...extra,
});

// Hand-computed: the consumption each fill gets from its own fuel's chain, in lei.
const FILLS = [
  { date: '2024-12-20', odometer: 49_600, fuelType: 'GPL', liters: 35, fuelPrice: 105 }, // first LPG: null
  { date: '2025-01-02', odometer: 50_000, fuelType: 'GPL', liters: 30, fuelPrice: 90 }, // 30 / 400 = 7.50
  { date: '2025-01-03', odometer: 50_050, liters: 20, fuelPrice: 140 }, // no fuelType: petrol, the first: null
  { date: '2025-01-10', odometer: 50_400, fuelType: 'GPL', liters: 36, fuelPrice: 108 }, // 36 / 400 = 9.00
  { date: '2025-01-25', odometer: 50_800, fuelType: 'GPL', liters: 20, fuelPrice: 60, fullTank: false }, // partial: null
  { date: '2025-02-01', odometer: 51_100, fuelType: 'GPL', liters: 46, fuelPrice: 138 }, // (20 + 46) / 700 = 9.43
  { date: '2025-02-12', odometer: 51_200, fuelType: 'PETROL', liters: 10, fuelPrice: 70 }, // 10 / 1,150 = 0.87
  {
    date: '2025-03-10',
    odometer: 51_700,
    fuelType: 'PETROL',
    liters: 25,
    fuelPrice: 175,
    missedPrevious: true,
  }, // null
  // The trip counter says 600 km on LPG since the last LPG fill: 45 / 600 = 7.50 (not 45 / 650 = 6.92).
  {
    date: '2025-03-11',
    odometer: 51_750,
    fuelType: 'GPL',
    liters: 45,
    fuelPrice: 135,
    distanceOnThisFuel: 600,
  },
];
const EXPECTED = [null, 7.5, null, 9, null, 9.43, 0.87, null, 7.5];

beforeAll(async () => {
  t = await createTestApp();
  await new FxRepo(t.database.db).upsert([
    { currency: 'RON', date: '2024-12-20', rate: RON_PER_EUR, source: 'ECB' },
  ]);
  ro = new TestClient(t.app);
  expect((await ro.post('/api/auth/register', { ...newAccount('gpl'), language: 'ro' })).statusCode).toBe(
    201,
  );
  bob = (await registered(t.app, 'bob')).client;
  const created = await ro.post(
    '/api/vehicles',
    car('B-51-GPL', {
      model: 'Logan Eco-G',
      secondaryFuelType: 'GPL',
      tankCapacity: 50,
      secondaryTankCapacity: 40,
    }),
  );
  expect(created.statusCode).toBe(201);
  logan = created.data.id;
  clio = (await ro.post('/api/vehicles', car('B-51-ONE', { make: 'Renault', model: 'Clio' }))).data.id;
  for (const f of FILLS) {
    const res = await ro.post('/api/fuel-consumptions', { vehicleId: logan, ...f });
    expect(res.statusCode, res.body).toBe(201);
    fillIds.push(res.data.id);
  }
});
afterAll(() => t.close());

describe('a two-fuel vehicle', () => {
  it('keeps its second fuel and both tanks; a single-fuel vehicle says null', async () => {
    const read = await ro.get(`/api/vehicles/${logan}`);
    expect(read.data).toMatchObject({
      fuelType: 'PETROL',
      secondaryFuelType: 'GPL',
      tankCapacity: 50,
      secondaryTankCapacity: 40,
    });
    const list = (await ro.get('/api/vehicles')).data as { id: number }[];
    expect(list.find((v) => v.id === logan)).toEqual(read.data);
    expect((await ro.get(`/api/vehicles/${clio}`)).data).toMatchObject({
      secondaryFuelType: null,
      tankCapacity: null,
      secondaryTankCapacity: null,
    });
  });

  it('refuses a pair that does not exist and a second tank without a second fuel (400 on the field)', async () => {
    expectInvalid(
      await ro.post('/api/vehicles', car('B-51-BAD', { fuelType: 'DIESEL', secondaryFuelType: 'GPL' })),
      'secondaryFuelType',
    );
    expectInvalid(
      await ro.post('/api/vehicles', car('B-51-BAD', { secondaryFuelType: 'PETROL' })),
      'secondaryFuelType',
    );
    expectInvalid(
      await ro.post('/api/vehicles', car('B-51-BAD', { secondaryTankCapacity: 40 })),
      'secondaryTankCapacity',
    );
    // An update that leaves the second fuel out keeps it: the pair is checked as it would be.
    const v = (await ro.get(`/api/vehicles/${logan}`)).data;
    const rest = car('B-51-GPL', { model: 'Logan Eco-G' });
    expectInvalid(
      await ro.put(`/api/vehicles/${logan}`, { ...rest, fuelType: 'DIESEL', version: v.version }),
      'secondaryFuelType',
    );
  });

  it('gives each fill the consumption of its own fuel’s chain, in the answers and the list', async () => {
    const list = (await ro.get(`/api/fuel-consumptions/vehicle/${logan}`)).data as {
      id: number;
      fuelType: string;
      consumptionPer100km: number | null;
      distanceOnThisFuel: number | null;
    }[];
    const byId = new Map(list.map((f) => [f.id, f]));
    expect(fillIds.map((id) => byId.get(id)?.consumptionPer100km)).toEqual(EXPECTED);
    expect(byId.get(fillIds[2] as number)?.fuelType).toBe('PETROL'); // sent without one: the primary
    expect(byId.get(fillIds[8] as number)?.distanceOnThisFuel).toBe(600);
    expect(byId.get(fillIds[1] as number)?.distanceOnThisFuel).toBeNull();
  });

  it('refuses a fill of a fuel the vehicle does not have: 400 on fuelType', async () => {
    const res = await ro.post('/api/fuel-consumptions', {
      vehicleId: logan,
      fuelType: 'DIESEL',
      liters: 30,
      fuelPrice: 210,
      date: '2025-03-20',
    });
    expectInvalid(res, 'fuelType');
    expect(res.data.message).toBe('This vehicle runs on petrol and LPG, not diesel.');
    expectInvalid(
      await ro.post('/api/fuel-consumptions', {
        vehicleId: clio,
        fuelType: 'GPL',
        liters: 30,
        fuelPrice: 90,
        date: '2025-03-20',
      }),
      'fuelType',
    );
  });

  it('keeps a fill’s fuel on an edit that sends none, and recomputes only its chain', async () => {
    const id = fillIds[4] as number; // the partial LPG fill, now full
    const { fuelType: _f, ...partial } = FILLS[4] as Record<string, unknown>;
    const res = await ro.put(`/api/fuel-consumptions/${id}`, { ...partial, fullTank: true });
    expect(res.statusCode, res.body).toBe(200);
    // 20 / (50,800 − 50,400) = 5.00; the next LPG fill 46 / 300 = 15.33; petrol unchanged.
    expect(res.data).toMatchObject({ fuelType: 'GPL', consumptionPer100km: 5 });
    const list = (await ro.get(`/api/fuel-consumptions/vehicle/${logan}`)).data as {
      id: number;
      consumptionPer100km: number | null;
    }[];
    const figure = (i: number) => list.find((f) => f.id === fillIds[i])?.consumptionPer100km;
    expect([figure(5), figure(6)]).toEqual([15.33, 0.87]);
    expect((await ro.put(`/api/fuel-consumptions/${id}`, { ...FILLS[4] })).statusCode).toBe(200);
    expect(figure(5)).toBe(15.33);
    expect(
      (await ro.get(`/api/fuel-consumptions/vehicle/${logan}`)).data.find(
        (f: { id: number }) => f.id === fillIds[5],
      ).consumptionPer100km,
    ).toBe(9.43);
  });

  it('splits /total and /yearly by fuel, in lei and in euros', async () => {
    const total = (await ro.get(`/api/analytics/vehicle/${logan}/total`)).data;
    // 1,021 lei of fuel over 51,750 − 49,600 km (the readings) = 0.475 lei/km: the headline, whatever the fuel.
    expect(total).toMatchObject({ totalFuelCost: 1021, currency: 'RON', totalKm: 2150, costPerKm: 0.475 });
    expect(total.byFuel).toEqual([
      // Petrol: 55 L, 385 lei, 3 fills; one closed span: 10 L over 1,150 km.
      { fuelType: 'PETROL', unit: 'L', quantity: 55, cost: 385, fills: 3, per100km: 0.87 },
      // LPG: 212 L, 636 lei, 6 fills; spans 30/400 + 36/400 + 66/700 + 45/600 = 177 L over 2,100 km.
      { fuelType: 'GPL', unit: 'L', quantity: 212, cost: 636, fills: 6, per100km: 8.43 },
    ]);
    const yearly = (await ro.get(`/api/analytics/vehicle/${logan}/yearly`)).data;
    expect(yearly['2024'].byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null },
      { fuelType: 'GPL', unit: 'L', quantity: 35, cost: 105, fills: 1, per100km: null },
    ]);
    expect(yearly['2025'].byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 55, cost: 385, fills: 3, per100km: 0.87 },
      { fuelType: 'GPL', unit: 'L', quantity: 177, cost: 531, fills: 5, per100km: 8.43 },
    ]);
    // In euros: each month's lei at the day's rate, to the cent, as the totals are.
    const eur = (await ro.get(`/api/analytics/vehicle/${logan}/total?currency=EUR`)).data;
    expect(eur.currency).toBe('EUR');
    const sum = eur.byFuel.reduce((s: number, f: { cost: number }) => s + f.cost, 0);
    expect(Math.abs(sum - eur.totalFuelCost)).toBeLessThanOrEqual(0.02);
    expect(eur.byFuel[1].cost).toBeCloseTo(636 / RON_PER_EUR, 1);
  });

  it('a single-fuel vehicle’s split has one entry', async () => {
    const total = (await ro.get(`/api/analytics/vehicle/${clio}/total`)).data;
    expect(total.byFuel).toEqual([
      { fuelType: 'PETROL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null },
    ]);
  });

  it('answers another user 404 and no data on the vehicle, its fills and its analytics', async () => {
    for (const path of [
      `/api/vehicles/${logan}`,
      `/api/fuel-consumptions/vehicle/${logan}`,
      `/api/fuel-consumptions/${fillIds[0]}`,
      `/api/analytics/vehicle/${logan}/total`,
      `/api/analytics/vehicle/${logan}/yearly`,
    ]) {
      const res = await bob.get(path);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('GPL');
    }
    expectError(
      await bob.post('/api/fuel-consumptions', {
        vehicleId: logan,
        fuelType: 'GPL',
        liters: 30,
        fuelPrice: 90,
        date: '2025-03-20',
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses (409) to take LPG off while LPG fills remain; adding a second fuel recomputes the chains', async () => {
    const v = (await ro.get(`/api/vehicles/${logan}`)).data;
    const res = await ro.put(`/api/vehicles/${logan}`, {
      ...car('B-51-GPL', { model: 'Logan Eco-G' }),
      secondaryFuelType: null,
      version: v.version,
    });
    expectError(res, 409, 'CONFLICT');
    expect(res.data.message).toBe(
      '6 fill-ups are LPG: delete them or change their fuel before taking LPG off this vehicle.',
    );
    expect(res.data.details).toEqual([{ field: 'secondaryFuelType', message: res.data.message }]);
    expect((await ro.get(`/api/vehicles/${logan}`)).data.secondaryFuelType).toBe('GPL');

    // A petrol car with an LPG fill written before issue 51 (here: straight into the table) becomes
    // a two-fuel car: the LPG fill leaves the petrol chain.
    const post = (f: Record<string, unknown>) =>
      ro.post('/api/fuel-consumptions', { vehicleId: clio, fuelType: 'PETROL', ...f });
    const a = (await post({ date: '2025-01-01', odometer: 10_000, liters: 40, fuelPrice: 280 })).data.id;
    const b = (await post({ date: '2025-01-05', odometer: 10_300, liters: 30, fuelPrice: 90 })).data.id;
    const c = (await post({ date: '2025-01-09', odometer: 10_800, liters: 35, fuelPrice: 245 })).data.id;
    await t.database.db.execute(`update fuel_entries set fuel_type = 'GPL' where id = ${b}`);
    const figures = async () => {
      const list = (await ro.get(`/api/fuel-consumptions/vehicle/${clio}`)).data as {
        id: number;
        consumptionPer100km: number | null;
      }[];
      return [a, b, c].map((id) => list.find((f) => f.id === id)?.consumptionPer100km);
    };
    // One chain: 30 / 300 = 10.00, 35 / 500 = 7.00.
    expect(await figures()).toEqual([null, 10, 7]);
    const clioRow = (await ro.get(`/api/vehicles/${clio}`)).data;
    const edited = await ro.put(`/api/vehicles/${clio}`, {
      ...car('B-51-ONE', { make: 'Renault', model: 'Clio' }),
      secondaryFuelType: 'GPL',
      version: clioRow.version,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Petrol: 35 / 800 = 4.38; the LPG fill is the first of its chain.
    expect(await figures()).toEqual([null, null, 4.38]);
  });
});

/** A PDF's words, in order (pdfjs, as reports.test.ts reads them). */
async function pdfWords(bytes: Buffer): Promise<string> {
  const doc = await openPdf(new Uint8Array(bytes));
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++)
    for (const item of (await (await doc.getPage(n)).getTextContent()).items)
      if ('str' in item) parts.push(item.str, ' ');
  await doc.destroy();
  return parts.join('').replace(/[\s\u00a0\u202f]+/g, ' ');
}

describe('the AI fuel summary', () => {
  it('speaks of each fuel: what each costs over every km driven', async () => {
    const res = await ro.get(`/ai-feedback/vehicle/${logan}/fuel`);
    expect(res.statusCode, res.body).toBe(200);
    // LPG 636 lei and petrol 385 lei over the 2,150 km the readings span: 0.296 and 0.179 lei/km.
    const text = res.body.replace(/[\u00a0\u202f]/g, ' ');
    // Each fuel's own chain: LPG (7.50 + 9.00 + 9.43 + 7.50) / 4, petrol its one figure.
    expect(text).toContain('9 alimentări: 55,00 L + 212,00 L pentru 1.021,00 lei.');
    expect(text).toContain('Benzină: 3 alimentare(i), în medie 0,87 L/100 km de la plin la plin.');
    expect(text).toContain('GPL: 6 alimentare(i), în medie 8,36 L/100 km de la plin la plin.');
    expect(text).toContain('Pe GPL cheltuiești 0,30 lei/km, față de 0,18 lei/km pe benzină');
    expect(text).not.toContain('Cea mai bună alimentare'); // one best of both fuels would mean nothing
    expect((await bob.get(`/ai-feedback/vehicle/${logan}/fuel`)).statusCode).toBe(404);
  });
});

describe('the history report', () => {
  it('gives each fuel its line, in Romanian, and says the km are not split by fuel', async () => {
    const res = await ro.get(`/api/vehicles/${logan}/report.pdf?lang=ro`);
    expect(res.statusCode).toBe(200);
    const text = await pdfWords(res.rawPayload);
    expect(text).toContain('Benzină 0,87 L/100km · 385,00 lei · 3 alimentări');
    expect(text).toContain('GPL 8,43 L/100km · 636,00 lei · 6 alimentări');
    expect(text).toContain('kilometrajul nu arată pe ce combustibil s-au parcurs');
  });
});

describe('the marketplace', () => {
  it('shows both fuels and finds the car under either', async () => {
    const listed = await ro.post('/api/marketplace/list', {
      vehicleId: logan,
      price: 9000,
      description: 'GPL de fabrică',
    });
    expect(listed.statusCode, listed.body).toBe(201);
    const ids = async (q: string) =>
      ((await bob.get(`/api/marketplace/listings${q}`)).data as { id: number }[]).map((l) => l.id);
    const card = ((await bob.get('/api/marketplace/listings')).data as { id: number }[]).find(
      (l) => l.id === listed.data.id,
    );
    expect(card).toMatchObject({ fuelType: 'PETROL', secondaryFuelType: 'GPL' });
    expect(await ids('?fuelType=petrol')).toContain(listed.data.id);
    expect(await ids('?fuelType=gpl')).toContain(listed.data.id);
    expect(await ids('?fuelType=LPG')).toContain(listed.data.id);
    expect(await ids('?fuelType=diesel')).not.toContain(listed.data.id);
  });
});
