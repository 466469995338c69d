import { readFileSync } from 'node:fs';
import { type FillUp, type FuelType, fuelFigures } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelioFuel, fuelOfName, landingFuel } from '../src/modules/import/fuels.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

// Issue 51: Fuelio's two-tank backups and Drivvo's second-fuel columns land in the car's right fuel,
// and the per-fuel figures the app then shows are the files' own (within 0.1 L/100 km).

const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}`, import.meta.url));

let t: TestApp;
let owner: TestClient;
let stranger: TestClient;

const send = (c: TestClient, step: 'preview' | 'confirm', car: number, bytes: Buffer) => {
  const body = multipart([{ name: 'file', file: { filename: 'backup.csv', type: 'text/csv', bytes } }]);
  return c.request('POST', `/api/import/${step}/${car}`, body.payload, { headers: body.headers });
};

let n = 0;
const newCar = async (fuelType: FuelType, secondaryFuelType: FuelType | null) => {
  n += 1;
  const res = await owner.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan Eco-G',
    year: 2023,
    fuelType,
    ...(secondaryFuelType ? { secondaryFuelType } : {}),
    registrationNumber: `TWO-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.0,
    odometer: 100,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};

type Fill = FillUp & { fuelType: FuelType; fuelPrice: number; consumptionPer100km: number | null };
const fills = async (car: number): Promise<Fill[]> => {
  const res = await owner.get(`/api/fuel-consumptions/vehicle/${car}`);
  expect(res.statusCode).toBe(200);
  return (res.data as Fill[]).sort(
    (a, b) => a.date.localeCompare(b.date) || (a.odometer ?? 0) - (b.odometer ?? 0),
  );
};
const figuresOf = (list: Fill[], fuelType: FuelType, secondaryFuelType: FuelType) =>
  Object.fromEntries(fuelFigures(list, { fuelType, secondaryFuelType }).map((f) => [f.fuelType, f]));

/** A Fuelio backup's fills as the app wrote them: odometer, tank, full, and its own l/100km (0: none). */
function fuelioLog(csv: string) {
  const lines = csv.split(/\r?\n/);
  const cells = (line: string | undefined) => [...(line ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '');
  const section = (name: string) => lines.findIndex((l) => l.startsWith(`"## ${name}"`));
  const vehicleHeader = cells(lines[section('Vehicle') + 1]);
  const vehicle = cells(lines[section('Vehicle') + 2]);
  const log = section('Log');
  const header = cells(lines[log + 1]);
  const at = (row: string[], name: string) => row[header.indexOf(name)] ?? '';
  const fills = lines
    .slice(log + 2)
    .filter((l) => l.startsWith('"') && !l.startsWith('"##'))
    .map(cells)
    .map((row) => ({
      odo: Number(at(row, 'Odo (km)')),
      tank: Number(at(row, 'TankNumber')),
      full: at(row, 'Full') === '1',
      figure: Number(at(row, 'l/100km (optional)')),
    }))
    .sort((a, b) => a.odo - b.odo);
  const tankFuel = (tank: number) => fuelioFuel(vehicle[vehicleHeader.indexOf(`Tank${tank}Type`)] ?? '');
  return { fills, tankFuel };
}

/**
 * The per-fuel averages Fuelio shows for a backup, from the app's own figures in the file: each
 * tank's mean of the per-fill `l/100km` column weighted by the km each figure covers (since that
 * tank's previous full fill), so a tank's average is its fuel over its distance. Read straight from
 * the CSV, not through the importer; tanks named by the `## Vehicle` section's types.
 */
function fuelioAverages(csv: string): Partial<Record<FuelType, number>> {
  const { fills, tankFuel } = fuelioLog(csv);
  const lastFull = new Map<number, number>();
  const sums = new Map<number, { weighted: number; km: number }>();
  for (const fill of fills) {
    const since = lastFull.get(fill.tank);
    if (fill.figure > 0 && since !== undefined) {
      const sum = sums.get(fill.tank) ?? { weighted: 0, km: 0 };
      sum.weighted += fill.figure * (fill.odo - since);
      sum.km += fill.odo - since;
      sums.set(fill.tank, sum);
    }
    if (fill.full) lastFull.set(fill.tank, fill.odo);
  }
  const out: Partial<Record<FuelType, number>> = {};
  for (const [tank, sum] of sums) {
    const fuel = tankFuel(tank);
    if (fuel) out[fuel] = sum.weighted / sum.km;
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = (await registered(t.app, 'twofuels')).client;
  stranger = (await registered(t.app, 'twofuelsx')).client;
});
afterAll(() => t.close());

describe('Fuelio two-tank backup', () => {
  it.each([
    ['PETROL', 'GPL'],
    ['GPL', 'PETROL'],
  ] as const)(
    'a %s + %s car: tank 2 is LPG, tank 1 petrol; each fill and each fuel reads as Fuelio figured it',
    async (primary, second) => {
      const car = await newCar(primary, second);
      const preview = await send(owner, 'preview', car, fixture('fuelio-two-tanks-lpg.csv'));
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.data.format).toBe('fuelio');
      expect(preview.data.counts.fuel).toBe(7);
      const done = await send(owner, 'confirm', car, fixture('fuelio-two-tanks-lpg.csv'));
      expect(done.statusCode, done.body).toBe(200);

      const list = await fills(car);
      expect(list.map((f) => f.fuelType)).toEqual(['GPL', 'PETROL', 'GPL', 'GPL', 'GPL', 'PETROL', 'GPL']);
      // Each fill against the file's own l/100km for it (0: Fuelio shows none).
      const csv = fixture('fuelio-two-tanks-lpg.csv').toString('utf8');
      const figures = new Map(fuelioLog(csv).fills.map((f) => [f.odo, f.figure]));
      for (const f of list) {
        const want = figures.get(f.odometer ?? -1);
        expect(want, `fill at ${f.odometer}`).toBeDefined();
        if (!want) expect(f.consumptionPer100km).toBeNull();
        else expect(Math.abs((f.consumptionPer100km ?? -1) - want)).toBeLessThanOrEqual(0.1);
      }
      // Each fuel's average as the car's analytics show it, against Fuelio's own from the same file.
      const fuelio = fuelioAverages(csv);
      expect(Object.keys(fuelio).sort()).toEqual(['GPL', 'PETROL']);
      const total = await owner.get(`/api/analytics/vehicle/${car}/total`);
      expect(total.statusCode).toBe(200);
      const ours = total.data.byFuel as { fuelType: FuelType; per100km: number | null; quantity: number }[];
      expect(ours.map((f) => f.fuelType)).toEqual([primary, second]);
      for (const f of ours) {
        expect(f.per100km, f.fuelType).not.toBeNull();
        expect(Math.abs((f.per100km ?? 0) - (fuelio[f.fuelType] ?? -1)), f.fuelType).toBeLessThanOrEqual(0.1);
      }
      expect(ours.find((f) => f.fuelType === 'GPL')?.quantity).toBe(170);
    },
  );

  it('a one-fuel car takes every fill of the file as its own fuel, as before', async () => {
    const car = await newCar('PETROL', null);
    const done = await send(owner, 'confirm', car, fixture('fuelio-two-tanks-lpg.csv'));
    expect(done.statusCode, done.body).toBe(200);
    expect(new Set((await fills(car)).map((f) => f.fuelType))).toEqual(new Set(['PETROL']));
  });

  it("another user's car: 404 and nothing imported", async () => {
    const car = await newCar('PETROL', 'GPL');
    const res = await send(stranger, 'confirm', car, fixture('fuelio-two-tanks-lpg.csv'));
    expect(res.statusCode).toBe(404);
    expect(await fills(car)).toEqual([]);
  });
});

describe('Drivvo second fuel', () => {
  it('LPG in "Second fuel" or alone in "Fuel" lands in LPG; a stop pouring both is one fill per fuel', async () => {
    const car = await newCar('PETROL', 'GPL');
    const done = await send(owner, 'confirm', car, fixture('drivvo-en-lpg.csv'));
    expect(done.statusCode, done.body).toBe(200);
    const list = await fills(car);
    const lpg = list.filter((f) => f.fuelType === 'GPL');
    const petrol = list.filter((f) => f.fuelType === 'PETROL');
    expect(lpg.map((f) => f.liters)).toEqual([30, 40, 35, 20, 45]);
    expect(petrol.map((f) => [f.odometer, f.liters, f.fuelPrice])).toEqual([
      [12000, 20, 30],
      [13000, 5, 7.6],
    ]);
    expect(lpg.map((f) => f.consumptionPer100km)).toEqual([null, 10, null, expect.closeTo(9.17, 1), 9]);
    expect(petrol.map((f) => f.consumptionPer100km)).toEqual([null, 0.5]);
    const figures = figuresOf(list, 'PETROL', 'GPL');
    expect(Math.abs((figures.GPL?.per100km ?? -1) - 9.33)).toBeLessThanOrEqual(0.1);
    expect(Math.abs((figures.PETROL?.per100km ?? -1) - 0.5)).toBeLessThanOrEqual(0.1);
  });
});

describe('fuel names and codes', () => {
  it("reads Fuelio's codes by hundreds and the fuels' names in the usual languages", () => {
    expect([
      fuelioFuel('110'),
      fuelioFuel('200'),
      fuelioFuel('300'),
      fuelioFuel('400'),
      fuelioFuel('500'),
    ]).toEqual(['PETROL', 'DIESEL', 'GPL', 'CNG', 'ELECTRIC']);
    expect(fuelioFuel('0')).toBeUndefined();
    expect(
      [
        'LPG',
        'GPL',
        'Autogas',
        'GLP',
        'Gas natural comprimido',
        'GNV',
        'Gasolina',
        'Benzină',
        'Motorină',
        'Eléctrico',
      ].map(fuelOfName),
    ).toEqual(['GPL', 'GPL', 'GPL', 'GPL', 'CNG', 'CNG', 'PETROL', 'PETROL', 'DIESEL', 'ELECTRIC']);
    // A fuel the car lacks: by tank, else the primary.
    expect(landingFuel({ primary: 'PETROL', secondary: 'CNG' }, 'GPL', 2)).toBe('CNG');
    expect(landingFuel({ primary: 'PETROL', secondary: null }, 'GPL', 2)).toBe('PETROL');
  });
});
