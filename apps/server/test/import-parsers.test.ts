import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  detectDateOrder,
  detectDecimal,
  parseBool,
  parseDate,
  parseNumber,
} from '../src/modules/import/locale.js';
import { parseImport } from '../src/modules/import/parse.js';

// Pure parsers on short excerpts of each app's documented format (fixtures/import, several locales).
const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}`, import.meta.url));
const parse = (name: string, mapping?: Parameters<typeof parseImport>[2]) =>
  parseImport(fixture(name), 'PETROL', mapping);

describe('numbers and dates in any locale', () => {
  it('reads decimal commas, thousands separators and currency symbols', () => {
    expect(parseNumber('$89.99', '.')).toBe(89.99);
    expect(parseNumber('1.234,50 €', ',')).toBe(1234.5);
    expect(parseNumber('11,2', ',')).toBe(11.2);
    expect(parseNumber('"1,234.50"', '.')).toBe(1234.5);
    expect(parseNumber('2 200,00', ',')).toBe(2200);
    expect(parseNumber('(12.00)', '.')).toBe(-12);
    expect(parseNumber('', '.')).toBeNull();
    expect(parseNumber('n/a', '.')).toBeNull();
  });

  it('tells the decimal separator from the values that say it', () => {
    expect(detectDecimal(['11,2', '1.234,50 €'])).toBe(',');
    expect(detectDecimal(['$1,234.50', '3.5'])).toBe('.');
    expect(detectDecimal(['1,234', '41,000'])).toBe('.');
  });

  it('reads dates in ISO, US and European orders', () => {
    expect(parseDate('2024-01-15', 'ymd')).toBe('2024-01-15');
    expect(parseDate('2024-01-15 10:30:00', 'ymd')).toBe('2024-01-15');
    expect(parseDate('1/15/2024', 'mdy')).toBe('2024-01-15');
    expect(parseDate('15.01.2024', 'dmy')).toBe('2024-01-15');
    expect(parseDate('15.01.24', 'dmy')).toBe('2024-01-15');
    expect(parseDate('31/02/2024', 'dmy')).toBeNull();
    expect(detectDateOrder(['1/15/2024', '2/1/2024'])).toBe('mdy');
    expect(detectDateOrder(['15/01/2024'])).toBe('dmy');
    expect(detectDateOrder(['01.02.2024'])).toBe('dmy');
  });

  it('reads yes/no in several languages', () => {
    for (const yes of ['Yes', 'True', '1', 'Sim', 'Sí', 'Da', 'Да']) expect(parseBool(yes)).toBe(true);
    for (const no of ['No', 'False', '0', 'Não', 'Nu', 'Нет']) expect(parseBool(no)).toBe(false);
  });
});

describe('LubeLogger', () => {
  it('reads a US gas log: $ means miles and US gallons, converted to km and litres', () => {
    const p = parse('lubelogger-gas-en-us.csv');
    expect(p.format).toBe('lubelogger');
    expect(p.units).toEqual({ distance: 'mi', volume: 'usgal' });
    expect(p.fuel).toHaveLength(5);
    expect(p.fuel[0]).toMatchObject({
      date: '2024-01-05',
      odometer: 16093,
      liters: 39.75,
      fuelPrice: 36.75,
      fullTank: true,
      missedPrevious: false,
      fuelType: 'PETROL',
    });
    expect(p.fuel[2]).toMatchObject({ date: '2024-02-02', fullTank: false });
    expect(p.fuel[4]).toMatchObject({ date: '2024-03-20', missedPrevious: true });
    expect(p.warnings.some((w) => w.field === 'units')).toBe(true);
  });

  it('reads a German gas log: 15.01.2024, "40,5", "1.075,20 €", BOM', () => {
    const p = parse('lubelogger-gas-de.csv');
    expect(p.units).toEqual({ distance: 'km', volume: 'l' });
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice])).toEqual([
      ['2024-01-15', 20000, 40.5, 72.5],
      ['2024-01-29', 20600, 42, 1075.2],
    ]);
  });

  it('makes services of service records and Tax expenses of tax records', () => {
    const s = parse('lubelogger-service-ro.csv');
    expect(s.revisions).toEqual([
      expect.objectContaining({
        date: '2024-03-15',
        km: 25000,
        price: 1234.5,
        description: 'Revizie ulei — Filtre incluse',
      }),
      expect.objectContaining({ date: '2024-09-20', km: 31000, price: 450 }),
    ]);
    const t = parse('lubelogger-tax-en-us.csv');
    expect(t.expenses).toEqual([
      expect.objectContaining({
        date: '2024-04-01',
        expenseType: 'Tax',
        amount: 89.99,
        description: 'Registration — Yearly',
      }),
    ]);
  });

  it('reads a ZIP holding one CSV per record type', () => {
    const zip = zipSync({
      'Gas.csv': new Uint8Array(fixture('lubelogger-gas-de.csv')),
      'Service.csv': new Uint8Array(fixture('lubelogger-service-ro.csv')),
      'readme.txt': strToU8('hello'),
    });
    const p = parseImport(Buffer.from(zip), 'DIESEL');
    expect(p.format).toBe('lubelogger');
    expect([p.fuel.length, p.revisions.length]).toEqual([2, 2]);
    expect(p.fuel[0]?.fuelType).toBe('DIESEL');
  });
});

describe('Fuelio', () => {
  it('reads the log, cost categories and costs of a km/litre backup', () => {
    const p = parse('fuelio-km-l.csv');
    expect(p.format).toBe('fuelio');
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-01-10', 50000, 40, 280, true],
      ['2024-01-24', 50500, 35, 245, true],
      // No total: litres × VolumePrice.
      ['2024-02-07', 50800, 15, 108, false],
      ['2024-02-21', 51000, 20, 144, true],
    ]);
    expect(p.revisions.map((r) => [r.date, r.km, r.price, r.description])).toEqual([
      ['2024-02-01', 50700, 350, 'Oil change — 5W30'],
      ['2024-03-01', 51200, 500, 'Revizie anuala'],
    ]);
    expect(p.expenses).toEqual([
      expect.objectContaining({ date: '2024-02-03', expenseType: 'Parking', amount: 12.5 }),
    ]);
    // RepeatMonths 6: the policy covers six months.
    expect(p.insurance).toEqual([
      expect.objectContaining({
        provider: 'RCA Allianz',
        startDate: '2024-01-15',
        endDate: '2024-07-14',
        price: 900,
      }),
    ]);
  });

  it('takes the units from the headers: miles and US gallons', () => {
    const p = parse('fuelio-mi-usgal.csv');
    expect(p.units).toEqual({ distance: 'mi', volume: 'usgal' });
    expect(p.fuel[0]).toMatchObject({ odometer: 48280, liters: 37.85, fuelPrice: 35 });
  });
});

describe('Drivvo', () => {
  it('reads English sections in any order, with "Full tank" 2 headers', () => {
    const p = parse('drivvo-en.csv');
    expect(p.format).toBe('drivvo');
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-01-15', 12000, 40, 60, true],
      ['2024-01-29', 12500, 35, 52.5, true],
    ]);
    expect(p.revisions).toEqual([
      expect.objectContaining({
        date: '2024-01-20',
        km: 12400,
        price: 120,
        description: 'Oil change — Garage — 5W30',
      }),
    ]);
    expect(p.expenses).toEqual([
      expect.objectContaining({ date: '2024-01-22', expenseType: 'Parking', amount: 8 }),
    ]);
    expect(p.insurance).toEqual([
      expect.objectContaining({ startDate: '2024-01-23', endDate: '2025-01-22', price: 300 }),
    ]);
  });

  it('reads Portuguese (; and decimal commas), Spanish and Russian exports', () => {
    const pt = parse('drivvo-pt.csv');
    expect(pt.fuel.map((f) => [f.date, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-02-01', 40, 232, true],
      ['2024-02-15', 35, 203, false],
    ]);
    expect(pt.revisions[0]).toMatchObject({ km: 30200, price: 1250 });
    expect(pt.expenses[0]).toMatchObject({ expenseType: 'Parking', amount: 25 });
    const es = parse('drivvo-es.csv');
    expect(es.fuel.map((f) => [f.date, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-03-13', 64, true],
      ['2024-03-27', 56, false],
    ]);
    expect(es.expenses[0]).toMatchObject({ expenseType: 'Tolls', amount: 3.5 });
    const ru = parse('drivvo-ru.csv');
    expect(ru.fuel.map((f) => [f.date, f.odometer, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-03-13', 5000, 2200, true],
      ['2024-03-27', 5400, 1925, true],
    ]);
  });
});

describe('Fuelly', () => {
  it('reads the old web export ($, thousands separators, partial fill-ups, miles and gallons)', () => {
    const p = parse('fuelly-old.csv');
    expect(p.format).toBe('fuelly');
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2023-06-01', 65983, 75.71, 69.18, true],
      ['2023-06-15', 66562, 75.71, 71.18, true],
      ['2023-06-20', 66804, 30.28, 28.8, false],
    ]);
  });

  it('reads the newer export (titled headers, MPG ignored)', () => {
    const p = parse('fuelly-new.csv');
    expect(p.format).toBe('fuelly');
    expect(p.fuel.map((f) => [f.date, f.odometer, f.fuelPrice, f.missedPrevious])).toEqual([
      ['2024-06-01', 162866, 40, false],
      ['2024-06-14', 163348, 33, false],
      ['2024-06-30', 163831, 34, true],
    ]);
  });
});

describe('generic CSV', () => {
  it('proposes a mapping from Romanian headers (; and decimal commas)', () => {
    const p = parse('generic-ro.csv');
    expect(p.format).toBe('generic');
    expect(p.mapping?.columns).toMatchObject({
      date: 'Data',
      odometer: 'Kilometraj',
      liters: 'Litri',
      fuelPrice: 'Total',
      description: 'Descriere',
    });
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice])).toEqual([
      ['2024-01-10', 15000, 40.5, 283.5],
      ['2024-01-24', 15500, 38, 266],
    ]);
    expect(p.expenses).toEqual([expect.objectContaining({ expenseType: 'Wash', amount: 45 })]);
  });

  it('proposes a mapping from Spanish headers, and follows a mapping the user edited', () => {
    const p = parse('generic-es.csv');
    expect(p.mapping?.columns).toMatchObject({
      date: 'Fecha',
      odometer: 'Kilometros',
      liters: 'Litros',
      amount: 'Importe',
    });
    expect(p.fuel).toHaveLength(2);
    expect(p.expenses[0]).toMatchObject({ expenseType: 'Parking', amount: 6, description: 'centro' });
    // Litres unmapped: every row with an amount is an expense.
    const edited = parse('generic-es.csv', { columns: { liters: null } });
    expect([edited.fuel.length, edited.expenses.length]).toEqual([0, 3]);
    // Units given: the odometer was in miles.
    const miles = parse('generic-es.csv', { units: { distance: 'mi' } });
    expect(miles.fuel[0]?.odometer).toBe(14484);
  });

  it('refuses what is not a CSV, and a CSV without rows', () => {
    expect(() =>
      parseImport(readFileSync(new URL('./fixtures/wide.png', import.meta.url)), 'PETROL'),
    ).toThrow(/not a CSV/);
    expect(() => parseImport(Buffer.from('Date,Cost\r\n'), 'PETROL')).toThrow(/No records/);
    expect(() => parseImport(Buffer.from(''), 'PETROL')).toThrow(/No records/);
  });
});
