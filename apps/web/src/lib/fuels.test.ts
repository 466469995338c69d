import { describe, expect, it } from 'vitest';
import en from '../../public/locales/en/translation.json';
import es from '../../public/locales/es/translation.json';
import ro from '../../public/locales/ro/translation.json';
import { fuelFilter, fuelsLabel, ownUnit, partnersOf } from './fuels';

// Issue 51: a vehicle's fuels as every screen names them, and the marketplace's fuel filter.
const names = (tr: typeof en) => (f: string) => [
  (tr.fuelTypes as Record<string, string>)[f] ?? f,
  (tr.fuelNames as Record<string, string>)[f] ?? f,
];

describe('fuels', () => {
  it('pairs only LPG or CNG with petrol and electricity with petrol or diesel', () => {
    expect(partnersOf('PETROL')).toEqual(['GPL', 'CNG', 'ELECTRIC']);
    expect(partnersOf('DIESEL')).toEqual(['ELECTRIC']);
    expect(partnersOf('GPL')).toEqual(['PETROL']);
    expect(partnersOf('ELECTRIC')).toEqual(['PETROL', 'DIESEL']);
  });

  it('names a two-fuel car "Petrol + LPG" (ro: "Benzină + GPL", es: "Gasolina + GLP"); units: kg for CNG, kWh for a charge', () => {
    const car = { fuelType: 'PETROL' as const, secondaryFuelType: 'GPL' as const };
    expect(fuelsLabel(car, (f) => en.fuelTypes[f])).toBe('Petrol + LPG');
    expect(fuelsLabel(car, (f) => ro.fuelTypes[f])).toBe('Benzină + GPL');
    expect(fuelsLabel(car, (f) => es.fuelTypes[f])).toBe('Gasolina + GLP');
    expect(fuelsLabel({ fuelType: 'DIESEL' }, (f) => en.fuelTypes[f])).toBe('Diesel');
    expect([ownUnit('CNG'), ownUnit('ELECTRIC'), ownUnit('GPL'), ownUnit('PETROL')]).toEqual([
      'kg',
      'kWh',
      null,
      null,
    ]);
  });

  it("the marketplace's fuel filter sends the code of the fuel named in the reader's language", () => {
    expect(fuelFilter('LPG', names(en))).toBe('GPL');
    expect(fuelFilter('benzin', names(ro))).toBe('PETROL');
    expect(fuelFilter('GLP', names(es))).toBe('GPL');
    expect(fuelFilter('gnc', names(es))).toBe('CNG');
    expect(fuelFilter('  ', names(en))).toBe('');
    expect(fuelFilter('hydrogen', names(en))).toBe('hydrogen');
  });
});
