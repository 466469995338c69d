import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

// Issue 49: files written from each app's documented format read as the user meant them, end to
// end: what the preview shows, what confirm stores, and the consumption the user then sees.

const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}`, import.meta.url));

let t: TestApp;
let alice: TestClient;
let bob: TestClient;

type Fill = {
  date: string;
  odometer: number;
  liters: number;
  fullTank: boolean;
  consumptionPer100km: number | null;
};

const send = (c: TestClient, step: 'preview' | 'confirm', car: number, bytes: Buffer, mapping?: unknown) => {
  const parts = [
    { name: 'file', file: { filename: 'history.csv', type: 'text/csv', bytes } },
    ...(mapping === undefined
      ? []
      : [{ name: 'mapping', value: typeof mapping === 'string' ? mapping : JSON.stringify(mapping) }]),
  ];
  const body = multipart(parts);
  return c.request('POST', `/api/import/${step}/${car}`, body.payload, { headers: body.headers });
};

let n = 0;
const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Honda',
    model: 'Civic',
    year: 2016,
    fuelType: 'PETROL',
    registrationNumber: `FMT-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.8,
    odometer: 100,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};
/** The car's fill-ups as the user sees them, oldest first. */
const fills = async (c: TestClient, car: number): Promise<Fill[]> =>
  ((await c.get(`/api/fuel-consumptions/vehicle/${car}`)).data as Fill[]).sort(
    (a, b) => a.date.localeCompare(b.date) || a.odometer - b.odometer,
  );

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
});
afterAll(() => t.close());

describe("Fuelly's current export", () => {
  it('imports its services and reads a Partial fill as partial, so the next consumption spans it', async () => {
    const car = await newCar(alice);
    const preview = await send(alice, 'preview', car, fixture('fuelly-current.csv'));
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data).toMatchObject({
      format: 'fuelly',
      counts: { fuel: 4, expenses: 1, revisions: 2, insurance: 0 },
      errors: [],
      units: { distance: 'mi', volume: 'usgal' },
      unitsGuess: { distance: 'mi', volume: 'usgal', reason: 'format' },
    });
    const res = await send(alice, 'confirm', car, fixture('fuelly-current.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.counts).toEqual({ fuel: 4, expenses: 1, revisions: 2, insurance: 0 });
    const fuel = await fills(alice, car);
    expect(fuel.map((f) => [f.date, f.odometer, f.fullTank, f.consumptionPer100km])).toEqual([
      ['2024-03-02', 40234, true, null],
      // 10 gal over 300 mi: 37.85 L over 482 km.
      ['2024-03-16', 40716, true, 7.85],
      ['2024-03-25', 41006, false, null],
      // 4 + 12 gal over 480 mi (not 12 gal over 300): 60.56 L over 773 km.
      ['2024-04-06', 41489, true, 7.83],
    ]);
    const services = (await alice.get(`/api/revision/vehicle/${car}`)).data as {
      km: number;
      description: string;
    }[];
    expect(services.map((s) => s.description).sort()).toEqual([
      'Oil Change — Synthetic 0W-20',
      'Tire Rotation, Brake Inspection',
    ]);
    const expenses = (await alice.get(`/api/expenses/vehicle/${car}`)).data;
    expect(expenses).toEqual([expect.objectContaining({ expenseType: 'Wash', amount: 12 })]);
  });
});

describe("Drivvo's English export", () => {
  it("reads 'Filled tank completely' (and the second fuel's) so its fills have a consumption", async () => {
    const car = await newCar(alice);
    const res = await send(alice, 'confirm', car, fixture('drivvo-en-current.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.counts).toEqual({ fuel: 4, expenses: 1, revisions: 1, insurance: 0 });
    const fuel = await fills(alice, car);
    expect(fuel.map((f) => [f.date, f.liters, f.fullTank, f.consumptionPer100km])).toEqual([
      ['2024-01-15', 40, true, null],
      ['2024-01-22', 15, false, null],
      // 15 + 25 L over 600 km.
      ['2024-01-29', 25, true, 6.67],
      // Petrol then ethanol: 30 L over 400 km.
      ['2024-02-12', 30, true, 7.5],
    ]);
  });
});

describe('a generic CSV with no full-tank column', () => {
  it('stores every fill as full, so the car has a consumption', async () => {
    const car = await newCar(alice);
    const res = await send(alice, 'confirm', car, fixture('generic-ro-no-full.csv'));
    expect(res.statusCode, res.body).toBe(200);
    const fuel = await fills(alice, car);
    expect(fuel.map((f) => [f.odometer, f.fullTank, f.consumptionPer100km])).toEqual([
      [150200, true, null],
      [150780, true, 6.9],
      [151300, true, 7.2],
    ]);
  });
});

describe("LubeLogger's units, asked in the preview", () => {
  it('names the guess, follows the units sent, and stores nothing until confirm', async () => {
    const car = await newCar(alice);
    const guessed = await send(alice, 'preview', car, fixture('lubelogger-gas-km-dollar.csv'));
    expect(guessed.statusCode, guessed.body).toBe(200);
    expect(guessed.data.units).toEqual({ distance: 'mi', volume: 'usgal' });
    expect(guessed.data.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'currency' });
    expect(guessed.data.sample.fuel[0]).toMatchObject({ odometer: 244620, liters: 160.88 });

    const metric = { units: { distance: 'km', volume: 'l' } };
    const picked = await send(alice, 'preview', car, fixture('lubelogger-gas-km-dollar.csv'), metric);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.data.units).toEqual({ distance: 'km', volume: 'l' });
    expect(picked.data.unitsGuess.reason).toBe('currency');
    expect(picked.data.sample.fuel.map((f: Fill) => [f.odometer, f.liters])).toEqual([
      [152000, 42.5],
      [152600, 40],
      [153150, 38.5],
    ]);
    expect(await fills(alice, car)).toEqual([]);

    const res = await send(alice, 'confirm', car, fixture('lubelogger-gas-km-dollar.csv'), metric);
    expect(res.statusCode, res.body).toBe(200);
    const fuel = await fills(alice, car);
    expect(fuel.map((f) => [f.odometer, f.liters, f.consumptionPer100km])).toEqual([
      [152000, 42.5, null],
      [152600, 40, 6.67],
      [153150, 38.5, 7],
    ]);
    expect((await alice.get(`/api/vehicles/${car}`)).data.odometer).toBe(153150);
  });

  it('applies the guess when a client sends no units (as before the picker)', async () => {
    const car = await newCar(alice);
    const res = await send(alice, 'confirm', car, fixture('lubelogger-gas-km-dollar.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect((await fills(alice, car)).map((f) => f.odometer)).toEqual([244620, 245586, 246471]);
  });

  it('refuses units it does not know, and a stranger learns nothing', async () => {
    const car = await newCar(alice);
    const bad = await send(alice, 'preview', car, fixture('lubelogger-gas-km-dollar.csv'), {
      units: { distance: 'furlongs' },
    });
    expectInvalid(bad, 'mapping.units.distance');
    const badConfirm = await send(alice, 'confirm', car, fixture('lubelogger-gas-km-dollar.csv'), {
      units: { volume: 'barrels' },
    });
    expectInvalid(badConfirm, 'mapping.units.volume');
    expect(await fills(alice, car)).toEqual([]);
    const stranger = await send(bob, 'preview', car, fixture('lubelogger-gas-km-dollar.csv'), {
      units: { distance: 'km' },
    });
    expectError(stranger, 404, 'NOT_FOUND');
  });
});
