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

describe('a file that says nothing of partial fills is a file of full fills', () => {
  const csv = (...lines: string[]) => Buffer.from(lines.join('\n'));
  it('holds for every reader whose full-tank column is missing', () => {
    const files = {
      fuelio: csv(
        '"## Vehicle"',
        '"Name","DistUnit","FuelUnit"',
        '"Car","0","0"',
        '"## Log"',
        '"Data","Odo (km)","Fuel (litres)","Price (optional)"',
        '"2024-01-10","50000","40","280"',
        '"2024-01-24","50500","35","245"',
      ),
      drivvo: csv(
        '##Refuelling',
        '"Odometer (km)","Date","Price / L","Total cost","Volume"',
        '"12000","2024-01-15 08:30:00","1.50","60.00","40.00"',
        '"12500","2024-01-29 08:30:00","1.50","52.50","35.00"',
      ),
      evdra: csv(
        'kind,date,odometer,liters,fuelPrice,expenseType',
        'fuel,2024-01-10,50000,40,280,',
        'fuel,2024-01-24,50500,35,245,',
      ),
      fuelly: csv(
        'Fuelup Date,Odometer,Gallons,Total Cost,MPG',
        '06/01/2024,1000,10,35,0',
        '06/14/2024,1300,10,34,30',
      ),
      generic: csv('Data;Km;Litri;Total', '10.01.2024;15000;40,5;283,50', '24.01.2024;15500;38,0;266,00'),
    };
    for (const [format, bytes] of Object.entries(files)) {
      const p = parseImport(bytes, 'PETROL');
      expect([p.format, p.fuel.map((f) => f.fullTank)]).toEqual([format, [true, true]]);
      expect(p.fuel.every((f) => !f.missedPrevious)).toBe(true);
    }
  });
});

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

  it('guesses miles from the $, and reads km and litres when the user picks them', () => {
    const guessed = parse('lubelogger-gas-km-dollar.csv');
    expect(guessed.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'currency' });
    expect(guessed.units).toEqual({ distance: 'mi', volume: 'usgal' });
    expect(guessed.fuel[0]).toMatchObject({ odometer: 244620, liters: 160.88 });
    expect(guessed.warnings).toEqual([expect.objectContaining({ code: 'DOLLAR_UNITS' })]);

    const metric = parse('lubelogger-gas-km-dollar.csv', { units: { distance: 'km', volume: 'l' } });
    expect(metric.units).toEqual({ distance: 'km', volume: 'l' });
    // The guess is still named, so the picker can say what it was.
    expect(metric.unitsGuess.reason).toBe('currency');
    expect(metric.fuel.map((f) => [f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      [152000, 42.5, 297.5, true],
      [152600, 40, 280, true],
      [153150, 38.5, 273.35, true],
    ]);
    expect(metric.warnings).toEqual([]);

    // Each unit not sent is the guess's: km with US gallons.
    const kmOnly = parse('lubelogger-gas-km-dollar.csv', { units: { distance: 'km' } });
    expect(kmOnly.units).toEqual({ distance: 'km', volume: 'usgal' });
    expect(kmOnly.fuel[0]).toMatchObject({ odometer: 152000, liters: 160.88 });
    const imperial = parse('lubelogger-gas-km-dollar.csv', { units: { distance: 'mi', volume: 'impgal' } });
    expect(imperial.fuel[0]).toMatchObject({ odometer: 244620, liters: 193.21 });
  });

  it('converts every file of a ZIP alike, whichever file shows the $', () => {
    // The service file comes first and shows no $; the gas file's $ decides for both.
    const zip = zipSync({
      'a-service.csv': strToU8(
        'Date,Description,Cost,Notes,Odometer,Tags\n3/10/2024,Oil change,120,,152300,\n',
      ),
      'b-gas.csv': new Uint8Array(fixture('lubelogger-gas-km-dollar.csv')),
    });
    const p = parseImport(Buffer.from(zip), 'PETROL');
    expect(p.unitsGuess.reason).toBe('currency');
    expect(p.revisions[0]?.km).toBe(245103);
    const metric = parseImport(Buffer.from(zip), 'PETROL', { units: { distance: 'km', volume: 'l' } });
    expect([metric.revisions[0]?.km, metric.fuel[0]?.odometer]).toEqual([152300, 152000]);
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
    expect(p.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'file' });
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

describe('Drivvo, current English export', () => {
  it("reads 'Filled tank completely' and the second fuel's columns", () => {
    const p = parse('drivvo-en-current.csv');
    expect(p.format).toBe('drivvo');
    expect(p.unitsGuess).toEqual({ distance: 'km', volume: 'l', reason: 'file' });
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-01-15', 12000, 40, 60, true],
      ['2024-01-22', 12250, 15, 22.5, false],
      ['2024-01-29', 12600, 25, 38, true],
      // Petrol (10 L, not full) then ethanol (20 L, "Filled tank completely" 2 = Yes): one full fill.
      ['2024-02-12', 13000, 30, 37.5, true],
    ]);
    expect(p.revisions).toEqual([
      expect.objectContaining({
        date: '2024-01-20',
        km: 12400,
        price: 120,
        description: 'Oil change — Garage Ionescu — 5W30',
      }),
    ]);
    expect(p.expenses).toEqual([
      expect.objectContaining({ date: '2024-01-25', expenseType: 'Parking', amount: 8 }),
    ]);
    expect(p.errors).toEqual([]);
  });

  it("takes miles and gallons from the headers, and a third fuel's full tank", () => {
    const csv = [
      '##Refuelling',
      '"Odometer (mi)","Date","Fuel","Price / gal","Total cost","Volume","Filled tank completely","Second fuel","Price / gal","Total cost","Volume","Filled tank completely" 2,"Third fuel","Price / gal","Total cost","Volume","Filled tank completely" 3,"Gas station","Reason","Notes"',
      '"1000","2024-05-01 10:00:00","LPG","2.000","","5.00","No","","","","","","Gasoline","3.000","30.00","10.00","Yes","","",""',
    ].join('\r\n');
    const p = parseImport(Buffer.from(csv), 'GPL');
    expect(p.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'file' });
    // 15 US gallons, 10 + 30 (no total for the first fuel: price × volume).
    expect(p.fuel).toEqual([
      expect.objectContaining({ odometer: 1609, liters: 56.78, fuelPrice: 40, fullTank: true }),
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

  it("reads the current export: services kept, 'Partial' a partial fill, miles and gallons", () => {
    const p = parse('fuelly-current.csv');
    expect(p.format).toBe('fuelly');
    expect(p.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'format' });
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-03-02', 40234, 37.85, 32.99, true],
      ['2024-03-16', 40716, 37.85, 33.59, true],
      ['2024-03-25', 41006, 15.14, 13.6, false],
      ['2024-04-06', 41489, 45.42, 41.03, true],
    ]);
    expect(p.revisions.map((r) => [r.date, r.km, r.price, r.description])).toEqual([
      ['2024-03-20', 40910, 64.95, 'Oil Change — Synthetic 0W-20'],
      ['2024-04-20', 41762, 89.5, 'Tire Rotation, Brake Inspection'],
    ]);
    expect(p.expenses).toEqual([
      expect.objectContaining({
        date: '2024-04-10',
        expenseType: 'Wash',
        amount: 12,
        description: 'Car Wash',
      }),
    ]);
    expect(p.errors).toEqual([]);
  });

  it('takes litres and kilometres from headers that name them', () => {
    const csv = [
      'Type,L/100km,Date,Time,Vehicle,Odometer,Filled Up,Price,Litres,Total Cost,Notes,Services',
      'Gas,,2024-03-02,08:15,Logan,50000,Full,7.00,40,280.00,,',
      'Gas,7.00,2024-03-16,17:40,Logan,50500,Full,7.00,35,245.00,,',
    ].join('\n');
    const p = parseImport(Buffer.from(csv), 'PETROL');
    expect(p.format).toBe('fuelly');
    expect(p.unitsGuess).toEqual({ distance: 'km', volume: 'l', reason: 'file' });
    expect(p.fuel.map((f) => [f.odometer, f.liters])).toEqual([
      [50000, 40],
      [50500, 35],
    ]);
  });

  it('says so when the file holds several vehicles, all going into this one', () => {
    const one = fixture('fuelly-current.csv').toString('utf8');
    const two = `${one.trimEnd()}\nGas,,2024-04-22,9:00 AM,F-150,"41,000",Full,$3.459,20.000,$69.18,,,,,,,,\n`;
    const p = parseImport(Buffer.from(two), 'PETROL');
    expect(p.warnings).toEqual([
      { row: 1, field: 'vehicle', code: 'SEVERAL_VEHICLES', params: { names: 'Civic, F-150' } },
    ]);
    expect(parse('fuelly-current.csv').warnings).toEqual([]);
  });

  it('reads the current export in km and litres when the user says so', () => {
    const p = parse('fuelly-current.csv', { units: { distance: 'km', volume: 'l' } });
    expect(p.units).toEqual({ distance: 'km', volume: 'l' });
    expect(p.unitsGuess.reason).toBe('format');
    expect(p.fuel.map((f) => [f.odometer, f.liters])).toEqual([
      [25000, 10],
      [25300, 10],
      [25480, 4],
      [25780, 12],
    ]);
    expect(p.revisions.map((r) => r.km)).toEqual([25420, 25950]);
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

  it('reads every fill as full when the file has no full-tank column (Data;Km;Litri;Total)', () => {
    const p = parse('generic-ro-no-full.csv');
    expect(p.format).toBe('generic');
    expect(p.mapping?.columns).toMatchObject({
      date: 'Data',
      odometer: 'Km',
      liters: 'Litri',
      fuelPrice: 'Total',
    });
    expect(p.mapping?.columns.fullTank).toBeNull();
    expect(p.unitsGuess).toEqual({ distance: 'km', volume: 'l', reason: 'default' });
    expect(p.fuel.map((f) => [f.date, f.odometer, f.liters, f.fuelPrice, f.fullTank])).toEqual([
      ['2024-02-05', 150200, 42.5, 297.5, true],
      ['2024-02-19', 150780, 40, 284, true],
      ['2024-03-04', 151300, 37.44, 269.57, true],
    ]);
  });

  it('reads a mapped full-tank column as it says (an empty cell is not full)', () => {
    const csv = 'Date,Km,Litres,Total,Full\n2024-01-01,100,40,280,yes\n2024-01-10,400,20,140,\n';
    const p = parseImport(Buffer.from(csv), 'PETROL');
    expect(p.fuel.map((f) => f.fullTank)).toEqual([true, false]);
  });

  it('guesses miles and gallons from the headers that name them', () => {
    const csv = 'Date,Odometer (mi),Gallons,Total\n2024-01-01,1000,10,35\n';
    const p = parseImport(Buffer.from(csv), 'PETROL');
    expect(p.unitsGuess).toEqual({ distance: 'mi', volume: 'usgal', reason: 'file' });
    expect(p.fuel[0]).toMatchObject({ odometer: 1609, liters: 37.85 });
  });

  it('refuses what is not a CSV, and a CSV without rows', () => {
    expect(() =>
      parseImport(readFileSync(new URL('./fixtures/wide.png', import.meta.url)), 'PETROL'),
    ).toThrow(/not a CSV/);
    expect(() => parseImport(Buffer.from('Date,Cost\r\n'), 'PETROL')).toThrow(/No records/);
    expect(() => parseImport(Buffer.from(''), 'PETROL')).toThrow(/No records/);
  });
});
