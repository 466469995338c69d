import { describe, expect, it } from 'vitest';
import { fuelUnit, isFuelPair } from './constants.js';
import type { FuelType } from './enums.js';
import { consumptionByEntry, type FillUp, fuelFigures, fuelFiguresBy, fuelOfFill } from './fuel.js';
import { secondaryFuelProblem, VehicleInput } from './vehicle.js';

// Issue 51: one full-to-full chain per fuel. Every expected figure is worked out by hand in the
// comment beside it (quantity since the previous full fill of the same fuel / km since it × 100).
let nextId = 1;
const fill = (
  date: string,
  odometer: number | null,
  fuelType: FuelType,
  liters: number,
  extra: Partial<FillUp> = {},
): FillUp => ({
  id: nextId++,
  date,
  odometer,
  liters,
  fuelType,
  fullTank: true,
  missedPrevious: false,
  ...extra,
});
const figures = (fills: FillUp[], secondary: FuelType) =>
  fills.map((f) => consumptionByEntry(fills, secondary).get(f.id) ?? null);
const close = (actual: (number | null)[], expected: (number | null)[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => {
    const e = expected[i];
    if (e === null || e === undefined) expect(a, `fill ${i + 1}`).toBeNull();
    else expect(a, `fill ${i + 1}`).toBeCloseTo(e, 2);
  });
};

describe('petrol + LPG (a Dacia Logan Eco-G), 20 fills', () => {
  nextId = 1;
  const fills = [
    fill('2025-01-02', 50_000, 'GPL', 30), // 1 first LPG fill: null
    fill('2025-01-03', 50_050, 'PETROL', 20), // 2 first petrol fill: null
    fill('2025-01-10', 50_400, 'GPL', 36), // 3 36 / 400 = 9.00
    fill('2025-01-18', 50_800, 'GPL', 38), // 4 38 / 400 = 9.50
    fill('2025-01-25', 51_200, 'GPL', 20, { fullTank: false }), // 5 partial LPG: null
    fill('2025-02-01', 51_500, 'GPL', 46), // 6 (20 + 46) / 700 = 9.43
    fill('2025-02-08', 51_900, 'GPL', 37), // 7 37 / 400 = 9.25
    fill('2025-02-12', 52_000, 'PETROL', 10), // 8 10 / (52,000 − 50,050) = 0.51: the partial LPG fill is not in its chain
    fill('2025-02-20', 52_400, 'GPL', 40), // 9 40 / 500 = 8.00
    fill('2025-03-01', 52_800, 'GPL', 38), // 10 38 / 400 = 9.50
    fill('2025-03-10', 53_300, 'PETROL', 25, { missedPrevious: true }), // 11 missed a petrol fill: null, petrol restarts here
    fill('2025-03-11', 53_350, 'GPL', 45), // 12 45 / 550 = 8.18: the missed petrol fill does not break LPG's chain
    fill('2025-03-20', 53_800, 'GPL', 40), // 13 40 / 450 = 8.89
    fill('2025-04-01', 54_300, 'PETROL', 8), // 14 8 / (54,300 − 53,300) = 0.80
    fill('2025-04-05', 54_400, 'GPL', 55), // 15 55 / 600 = 9.17
    fill('2025-04-15', 54_900, 'GPL', 47), // 16 47 / 500 = 9.40
    fill('2025-04-25', 55_300, 'GPL', 36), // 17 36 / 400 = 9.00
    fill('2025-05-02', 55_700, 'GPL', 37), // 18 37 / 400 = 9.25
    fill('2025-05-10', 56_000, 'PETROL', 12), // 19 12 / 1,700 = 0.71
    fill('2025-05-15', 56_200, 'GPL', 48), // 20 48 / 500 = 9.60
  ];

  it('gives each fill the figure of its own fuel’s chain', () => {
    close(figures(fills, 'GPL'), [
      null,
      null,
      9,
      9.5,
      null,
      9.43,
      9.25,
      0.51,
      8,
      9.5,
      null,
      8.18,
      8.89,
      0.8,
      9.17,
      9.4,
      9,
      9.25,
      0.71,
      9.6,
    ]);
  });

  it('is the same whichever fuel is the primary, and in whatever order the fills arrive', () => {
    const swapped = [...fills].reverse();
    expect(figures(swapped, 'PETROL').reverse()).toEqual(figures(fills, 'GPL'));
  });

  it('splits the totals by fuel: LPG 9.08 L/100 km + petrol 0.65 L/100 km', () => {
    const [gpl, petrol] = fuelFigures(fills, { fuelType: 'GPL', secondaryFuelType: 'PETROL' });
    // LPG: 593 L in 15 fills; the spans after the first fill: 563 L over 56,200 − 50,000 = 6,200 km.
    expect(gpl).toEqual({ fuelType: 'GPL', unit: 'L', quantity: 593, fills: 15, per100km: 9.08 });
    // Petrol: 75 L in 5 fills; spans 10/1,950 + 8/1,000 + 12/1,700 = 30 L over 4,650 km = 0.645.
    expect(petrol).toEqual({ fuelType: 'PETROL', unit: 'L', quantity: 75, fills: 5, per100km: 0.65 });
  });

  it('splits one period: the fills dated in it and the spans that closed in it', () => {
    const [petrol, gpl] = fuelFigures(
      fills,
      { fuelType: 'PETROL', secondaryFuelType: 'GPL' },
      { from: '2025-04-01', to: '2025-04-30' },
    );
    // Petrol: fill 14 only: 8 L over 1,000 km.
    expect(petrol).toEqual({ fuelType: 'PETROL', unit: 'L', quantity: 8, fills: 1, per100km: 0.8 });
    // LPG: fills 15, 16, 17: 138 L over 600 + 500 + 400 = 1,500 km = 9.20.
    expect(gpl).toEqual({ fuelType: 'GPL', unit: 'L', quantity: 138, fills: 3, per100km: 9.2 });
  });

  it('splits every month at once (the analytics’ months) as it splits each month alone', () => {
    const fuels = { fuelType: 'PETROL', secondaryFuelType: 'GPL' } as const;
    const byMonth = fuelFiguresBy(fills, fuels, (date) => date.slice(0, 7));
    expect([...byMonth.keys()].sort()).toEqual(['2025-01', '2025-02', '2025-03', '2025-04', '2025-05']);
    for (const [month, figures] of byMonth)
      expect(figures).toEqual(fuelFigures(fills, fuels, { from: `${month}-01`, to: `${month}-31` }));
    // April, as above: petrol 8 L at 0.80, LPG 138 L at 9.20.
    expect(byMonth.get('2025-04')?.map((f) => [f.quantity, f.per100km])).toEqual([
      [8, 0.8],
      [138, 9.2],
    ]);
  });

  it('on one chain (no second fuel, as before issue 51) mixes the fuels', () => {
    // Fill 2: 20 L of petrol over the 50 km since the LPG fill = 40.00; fill 3: 36 L of LPG over
    // the 350 km since the petrol fill = 10.29: the figures issue 51 removes.
    expect(consumptionByEntry(fills).get(2)).toBe(40);
    expect(consumptionByEntry(fills).get(3)).toBe(10.29);
    expect(consumptionByEntry(fills, null)).toEqual(consumptionByEntry(fills));
  });
});

describe('CNG in kg/100 km (a Fiat Panda Natural Power)', () => {
  nextId = 100;
  const fills = [
    fill('2025-01-01', 20_000, 'CNG', 10), // first CNG fill: null
    fill('2025-01-05', 20_250, 'CNG', 9.5), // 9.5 / 250 = 3.80
    fill('2025-01-09', 20_500, 'CNG', 8, { fullTank: false }), // partial: null
    fill('2025-01-12', 20_750, 'CNG', 10), // (8 + 10) / 500 = 3.60
    fill('2025-01-20', 21_000, 'CNG', 9, { distanceOnThisFuel: 230 }), // trip counter: 9 / 230 = 3.91, not 9 / 250
    fill('2025-01-22', 21_010, 'PETROL', 5), // first petrol fill: null
  ];

  it('reads in kg per 100 km, each fill in its own chain', () => {
    close(figures(fills, 'CNG'), [null, 3.8, null, 3.6, 3.91, null]);
    expect(fuelUnit('CNG')).toBe('kg');
  });

  it('totals CNG in kg: 46.5 kg, 3.72 kg/100 km', () => {
    const [petrol, cng] = fuelFigures(fills, { fuelType: 'PETROL', secondaryFuelType: 'CNG' });
    // Spans 9.5/250 + 18/500 + 9/230 = 36.5 kg over 980 km = 3.7245.
    expect(cng).toEqual({ fuelType: 'CNG', unit: 'kg', quantity: 46.5, fills: 5, per100km: 3.72 });
    expect(petrol).toEqual({ fuelType: 'PETROL', unit: 'L', quantity: 5, fills: 1, per100km: null });
  });
});

describe('a plug-in hybrid whose charges and petrol fills interleave', () => {
  nextId = 200;
  const fills = [
    fill('2025-03-01', 10_000, 'ELECTRIC', 10), // first charge: null
    fill('2025-03-02', 10_045, 'ELECTRIC', 11), // 11 kWh / 45 km = 24.44
    fill('2025-03-03', 10_090, 'PETROL', 30), // first petrol fill: null
    fill('2025-03-04', 10_300, 'ELECTRIC', 12), // 12 / 255 = 4.71: all km since the last charge, most on petrol
    fill('2025-03-05', 10_350, 'ELECTRIC', 11, { distanceOnThisFuel: 48 }), // trip: 11 / 48 = 22.92
    fill('2025-03-06', 10_700, 'PETROL', 20), // 20 / (10,700 − 10,090) = 3.28: the charges between are not petrol
    fill('2025-03-07', 10_745, 'ELECTRIC', 5, { fullTank: false, distanceOnThisFuel: 20 }), // partial: null
    fill('2025-03-08', 10_790, 'ELECTRIC', 6, { distanceOnThisFuel: 25 }), // (5 + 6) / (20 + 25) = 24.44
    fill('2025-03-09', 10_840, 'ELECTRIC', 12), // no trip: 12 / 50 = 24.00
    fill('2025-03-12', 11_300, 'PETROL', 25), // 25 / 600 = 4.17
  ];

  it('keeps the charges’ chain and the petrol chain apart', () => {
    close(figures(fills, 'ELECTRIC'), [null, 24.44, null, 4.71, 22.92, 3.28, null, 24.44, 24, 4.17]);
    expect(fuelUnit('ELECTRIC')).toBe('kWh');
  });

  it('totals each fuel in its unit', () => {
    const [petrol, electric] = fuelFigures(fills, { fuelType: 'PETROL', secondaryFuelType: 'ELECTRIC' });
    // Charges: 67 kWh in 7; spans 11/45 + 12/255 + 11/48 + 11/45 + 12/50 = 57 kWh over 443 km = 12.87.
    expect(electric).toEqual({ fuelType: 'ELECTRIC', unit: 'kWh', quantity: 67, fills: 7, per100km: 12.87 });
    // Petrol: 75 L in 3; spans 20/610 + 25/600 = 45 L over 1,210 km = 3.72.
    expect(petrol).toEqual({ fuelType: 'PETROL', unit: 'L', quantity: 75, fills: 3, per100km: 3.72 });
  });
});

describe('a vehicle’s fuels', () => {
  it('pairs LPG or CNG with petrol, electricity with petrol or diesel, in either order', () => {
    expect(isFuelPair('PETROL', 'GPL')).toBe(true);
    expect(isFuelPair('CNG', 'PETROL')).toBe(true);
    expect(isFuelPair('DIESEL', 'ELECTRIC')).toBe(true);
    expect(isFuelPair('DIESEL', 'GPL')).toBe(false);
    expect(secondaryFuelProblem('PETROL', 'PETROL')).toBe('The second fuel must differ from the first.');
    expect(secondaryFuelProblem('PETROL', null)).toBeUndefined();
  });

  it('refuses another pair on secondaryFuelType, and a second tank without a second fuel', () => {
    const car = {
      make: 'Dacia',
      model: 'Logan',
      year: 2022,
      fuelType: 'DIESEL',
      registrationNumber: 'B-51-GPL',
      engineSize: 1,
      odometer: 0,
    };
    expect(
      VehicleInput.parse({ ...car, fuelType: 'PETROL', secondaryFuelType: 'GPL' }).secondaryFuelType,
    ).toBe('GPL');
    const wrong = VehicleInput.safeParse({ ...car, secondaryFuelType: 'GPL' });
    expect(wrong.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [
        ['secondaryFuelType'],
        'A second fuel goes only as Petrol + LPG, Petrol + CNG, Petrol + Electric or Diesel + Electric.',
      ],
    ]);
    const tank = VehicleInput.safeParse({ ...car, secondaryTankCapacity: 40 });
    expect(tank.error?.issues.map((i) => i.path)).toEqual([['secondaryTankCapacity']]);
  });

  it('counts a fill of a fuel the vehicle lacks (written before issue 51) as its primary', () => {
    const fuels = { fuelType: 'PETROL', secondaryFuelType: 'GPL' } as const;
    expect(fuelOfFill({ fuelType: 'DIESEL' }, fuels)).toBe('PETROL');
    expect(fuelOfFill({ fuelType: 'GPL' }, fuels)).toBe('GPL');
    expect(fuelOfFill({}, { fuelType: 'DIESEL' })).toBe('DIESEL');
  });
});
