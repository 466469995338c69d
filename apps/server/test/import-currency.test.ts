import { readFileSync } from 'node:fs';
import { crossRate } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { parseAmount } from '../src/modules/import/amount.js';
import { currencyInCell, currencyInHeader } from '../src/modules/import/currency.js';
import { parseNumber } from '../src/modules/import/locale.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

// Issue 50: an import keeps the currency the file names (a `€` or `lei` in a cell, a currency
// column, this app's own export) and otherwise asks in the preview, as it asks for units.

const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}`, import.meta.url));

let t: TestApp;
/** A Romanian (lei) and a Spanish (euros) driver, each with their own cars. */
let ro: TestClient;
let es: TestClient;

// ECB euro reference rates (units per euro) of the fixtures' days, stored as the job would.
const RON_PER_EUR = 4.97;
const HUF_PER_EUR = 392.5;
const DAYS = [
  '2024-01-10',
  '2024-01-15',
  '2024-01-24',
  '2024-01-29',
  '2024-02-01',
  '2024-02-02',
  '2024-02-07',
  '2024-02-21',
  '2024-03-01',
];
const MARCH = ['2024-03-04', '2024-03-11', '2024-03-18', '2024-03-19'];

type Money = { currency: string; exchangeRate: number; rateSource: string; rateDate: string };
type Fill = Money & { date: string; fuelPrice: number };

const send = (c: TestClient, step: 'preview' | 'confirm', car: number, bytes: Buffer, mapping?: unknown) => {
  const body = multipart([
    { name: 'file', file: { filename: 'history.csv', type: 'text/csv', bytes } },
    ...(mapping === undefined ? [] : [{ name: 'mapping', value: JSON.stringify(mapping) }]),
  ]);
  return c.request('POST', `/api/import/${step}/${car}`, body.payload, { headers: body.headers });
};

let n = 0;
const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: `CUR-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.0,
    odometer: 100,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};
const fills = async (c: TestClient, car: number): Promise<Fill[]> =>
  ((await c.get(`/api/fuel-consumptions/vehicle/${car}`)).data as Fill[]).sort((a, b) =>
    a.date.localeCompare(b.date),
  );

async function registerIn(language: 'ro' | 'es') {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/register', { ...newAccount(`imp${language}`), language });
  expect(res.statusCode, res.body).toBe(201);
  return { client, currency: res.data.user.currency as string };
}

beforeAll(async () => {
  t = await createTestApp();
  await new FxRepo(t.database.db).upsert(
    [...DAYS, ...MARCH].flatMap((date) => [
      { currency: 'RON', date, rate: RON_PER_EUR, source: 'ECB' as const },
      { currency: 'HUF', date, rate: HUF_PER_EUR, source: 'ECB' as const },
    ]),
  );
  const a = await registerIn('ro');
  const b = await registerIn('es');
  expect([a.currency, b.currency]).toEqual(['RON', 'EUR']);
  ro = a.client;
  es = b.client;
});
afterAll(() => t.close());

describe('an amount’s currency as a cell or header writes it', () => {
  it('reads signs and codes beside the number; a bare number names none; `$` only hints', () => {
    expect(
      [
        '45,10 €',
        '250 lei',
        'RON 250',
        '£32.40',
        '25.000 Ft',
        '1.075,20 €',
        'CHF 12.50',
        '12 zł',
        '€-3.00',
      ].map((c) => currencyInCell(c)),
    ).toEqual(
      ['EUR', 'RON', 'RON', 'GBP', 'HUF', 'EUR', 'CHF', 'PLN', 'EUR'].map((currency) => ({ currency })),
    );
    expect(currencyInCell('$89.99')).toEqual({ dollar: true });
    for (const bare of ['72.50', '1 234,5', '', 'R$ 10,00', 'abc 12'])
      expect(currencyInCell(bare), bare).toBeNull();
    expect(currencyInHeader('Total cost (€)')).toEqual({ currency: 'EUR' });
    expect(currencyInHeader('Preț (lei)')).toEqual({ currency: 'RON' });
    for (const h of ['Price / L', 'Fuel (litres)', 'Odo (mi)', 'Cost', 'Price $'])
      expect(currencyInHeader(h), h).toBeNull();
  });
});

describe('amounts written in thousands', () => {
  const nothingTells = { column: null, file: null };
  it('a cell that says its own style is read by it: `25.000 Ft` is 25000 forints, `47.85` stays 47.85', () => {
    expect(parseAmount('25.000 Ft', nothingTells, 'HUF')).toBe(25000);
    expect(parseAmount('25.000,50 Ft', nothingTells, 'HUF')).toBe(25000.5);
    expect(parseAmount('1,234.50 $', nothingTells, 'USD')).toBe(1234.5);
    // A sign beside it: money is printed with two decimals or none, so three digits are thousands.
    expect(parseAmount('12.345 lei', nothingTells, 'RON')).toBe(12345);
    expect(parseAmount('1.075,20 €', { column: null, file: '.' }, 'EUR')).toBe(1075.2);
    expect(parseAmount('47.85', { column: null, file: ',' }, 'EUR')).toBe(47.85);
    expect(parseAmount('629,9', { column: null, file: '.' }, 'HUF')).toBe(629.9);
    expect(parseAmount('1.234.567', nothingTells, 'HUF')).toBe(1234567);
    // Litres: a decimal point in a file of decimal commas is still a decimal point.
    expect(parseNumber('1.5 L', ',')).toBe(1.5);
    expect(parseNumber('12,5', '.')).toBe(12.5);
  });

  it('a bare `25.000` is decided by its column, then the currency, then the file’s other numbers', () => {
    // Forints are written without decimals: thousands.
    expect(parseAmount('25.000', nothingTells, 'HUF')).toBe(25000);
    // Euros may have three decimals (a price per litre): nothing tells otherwise, so 1.459.
    expect(parseAmount('1.459', nothingTells, 'EUR')).toBe(1.459);
    // The file's litres say `39,69`: its points group thousands, in lei too.
    expect(parseAmount('25.000', { column: null, file: ',' }, 'RON')).toBe(25000);
    // Its own column shows `47.85`: a point is the decimal mark there, forints or not.
    expect(parseAmount('25.000', { column: '.', file: ',' }, 'HUF')).toBe(25);
  });

  it('a HUF fill-up keeps 25.000 Ft and its rate; the file’s other amounts keep theirs', async () => {
    const car = await newCar(ro);
    // A Hungarian-style spreadsheet: decimal commas, points for thousands, the sign in each cell.
    const csv = Buffer.from(
      [
        'Data;Litri;Pret litru;Total',
        '2024-03-04;39,69;629,9;25.000 Ft',
        '2024-03-11;40,00;625,0;25.000,50 Ft',
        '2024-03-18;1.5 L;;2,85 €',
        '2024-03-19;31,5;;47.85 €',
        '2024-03-19;;;12.345 lei',
      ].join('\n'),
    );
    const preview = await send(ro, 'preview', car, csv);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data.sample.fuel.map((f: Fill) => [f.fuelPrice, f.currency])).toEqual([
      [25000, 'HUF'],
      [25000.5, 'HUF'],
      [2.85, 'EUR'],
      [47.85, 'EUR'],
    ]);
    expect((await send(ro, 'confirm', car, csv)).statusCode).toBe(200);
    const stored = await fills(ro, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency, f.rateSource])).toEqual([
      [25000, 'HUF', 'ECB'],
      [25000.5, 'HUF', 'ECB'],
      [2.85, 'EUR', 'ECB'],
      [47.85, 'EUR', 'ECB'],
    ]);
    expect(stored.map((f) => (f as Fill & { liters: number }).liters)).toEqual([39.69, 40, 1.5, 31.5]);
    expect(stored[0]?.exchangeRate).toBeCloseTo(crossRate(HUF_PER_EUR, RON_PER_EUR), 10);
    expect(stored[0]?.rateDate).toBe('2024-03-04');
    const expenses = (await ro.get(`/api/expenses/vehicle/${car}`)).data;
    expect(expenses).toMatchObject([{ amount: 12345, currency: 'RON', exchangeRate: 1 }]);
    // In a file of decimal points (`39.69` litres) the sign alone says `25.000 Ft` is thousands.
    const other = await newCar(ro);
    const dotted = Buffer.from('Date,Litres,Total\n2024-03-04,39.69,25.000 Ft\n2024-03-11,40.5,1.234 Ft\n');
    expect((await send(ro, 'confirm', other, dotted)).statusCode).toBe(200);
    const kept = await fills(ro, other);
    expect(kept.map((f) => [f.fuelPrice, f.currency, f.rateSource])).toEqual([
      [25000, 'HUF', 'ECB'],
      [1234, 'HUF', 'ECB'],
    ]);
    expect(kept[0]?.exchangeRate).toBeCloseTo(crossRate(HUF_PER_EUR, RON_PER_EUR), 10);
  });

  it('bare `25.000` totals are thousands once the file is in forints, and 25 lei while it is in lei', async () => {
    const car = await newCar(ro);
    const csv = Buffer.from('Date,Litres,Total\n2024-03-04,40,25.000\n2024-03-11,41,24.500\n');
    const asIs = await send(ro, 'preview', car, csv);
    expect(asIs.data.sample.fuel.map((f: Fill) => [f.fuelPrice, f.currency])).toEqual([
      [25, 'RON'],
      [24.5, 'RON'],
    ]);
    expect((await send(ro, 'confirm', car, csv, { currency: 'HUF' })).statusCode).toBe(200);
    const stored = await fills(ro, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency])).toEqual([
      [25000, 'HUF'],
      [24500, 'HUF'],
    ]);
    expect(stored[1]?.exchangeRate).toBeCloseTo(crossRate(HUF_PER_EUR, RON_PER_EUR), 10);
  });
});

describe('a file that names its currency keeps it', () => {
  it('a CSV with `lei` in its cells is in lei, even for a euro driver (stored at the day’s rate)', async () => {
    const car = await newCar(es);
    const preview = await send(es, 'preview', car, fixture('generic-ro-lei.csv'));
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data.currencyGuess).toEqual({
      reason: 'file',
      found: ['RON'],
      currency: 'RON',
      unstated: 0,
    });
    expect(preview.data.currency).toBe('RON');
    expect(preview.data.sample.fuel.map((f: Fill) => [f.fuelPrice, f.currency])).toEqual([
      [283.5, 'RON'],
      [266, 'RON'],
    ]);
    expect(preview.data.sample.expenses[0]).toMatchObject({ amount: 45, currency: 'RON' });
    // A pick applies only to amounts the file leaves unnamed: here none.
    const res = await send(es, 'confirm', car, fixture('generic-ro-lei.csv'), { currency: 'EUR' });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await fills(es, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency, f.rateSource])).toEqual([
      [283.5, 'RON', 'ECB'],
      [266, 'RON', 'ECB'],
    ]);
    expect(stored[0]?.exchangeRate).toBeCloseTo(crossRate(RON_PER_EUR, 1), 8);
    const expenses = (await es.get(`/api/expenses/vehicle/${car}`)).data;
    expect(expenses).toMatchObject([{ amount: 45, currency: 'RON' }]);
  });

  it('LubeLogger’s `72,50 €` costs are euros for a lei driver', async () => {
    const car = await newCar(ro);
    const preview = await send(ro, 'preview', car, fixture('lubelogger-gas-de.csv'));
    expect(preview.data.currencyGuess).toMatchObject({ reason: 'file', found: ['EUR'], unstated: 0 });
    expect((await send(ro, 'confirm', car, fixture('lubelogger-gas-de.csv'))).statusCode).toBe(200);
    const stored = await fills(ro, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency])).toEqual([
      [72.5, 'EUR'],
      [1075.2, 'EUR'],
    ]);
    expect(stored[0]?.exchangeRate).toBeCloseTo(RON_PER_EUR, 8);
  });

  it('a Currency column names each row’s: a forint fill-up keeps its 25,000 Ft beside the euro ones', async () => {
    const car = await newCar(ro);
    // Spritmonitor's export: `Fuel` is its fuel-sort code, so the user maps the litres to `Quantity`.
    const mapping = { columns: { liters: 'Quantity' } };
    const preview = await send(ro, 'preview', car, fixture('spritmonitor-fuelings.csv'), mapping);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data.currencyGuess).toEqual({
      reason: 'rows',
      found: ['EUR', 'HUF'],
      currency: null,
      unstated: 0,
    });
    expect(preview.data.sample.fuel.map((f: Fill) => f.currency)).toEqual(['EUR', 'HUF', 'EUR']);
    expect((await send(ro, 'confirm', car, fixture('spritmonitor-fuelings.csv'), mapping)).statusCode).toBe(
      200,
    );
    const stored = await fills(ro, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency])).toEqual([
      [72.4, 'EUR'],
      [25000, 'HUF'],
      [74.21, 'EUR'],
    ]);
    expect(stored[1]?.exchangeRate).toBeCloseTo(crossRate(HUF_PER_EUR, RON_PER_EUR), 10);
  });
});

describe('a file that names no currency: the preview asks', () => {
  it('Fuelio’s backup (no currency field): the user’s lei unless another is picked, then the pick', async () => {
    const car = await newCar(ro);
    const preview = await send(ro, 'preview', car, fixture('fuelio-km-l.csv'));
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data.currencyGuess).toEqual({ reason: 'none', found: [], currency: null, unstated: 8 });
    expect(preview.data.currency).toBe('RON');
    const picked = await send(ro, 'preview', car, fixture('fuelio-km-l.csv'), { currency: 'EUR' });
    expect(picked.data.currency).toBe('EUR');
    expect(picked.data.sample.fuel.map((f: Fill) => f.currency)).toEqual(['EUR', 'EUR', 'EUR', 'EUR']);
    expect((await send(ro, 'confirm', car, fixture('fuelio-km-l.csv'), { currency: 'EUR' })).statusCode).toBe(
      200,
    );
    const stored = await fills(ro, car);
    expect(stored.map((f) => [f.fuelPrice, f.currency, f.rateSource])).toEqual([
      [280, 'EUR', 'ECB'],
      [245, 'EUR', 'ECB'],
      [108, 'EUR', 'ECB'],
      [144, 'EUR', 'ECB'],
    ]);
    const costs = (await ro.get(`/api/expenses/vehicle/${car}`)).data as Money[];
    expect(costs.map((e) => e.currency)).toEqual(costs.map(() => 'EUR'));
    expect(stored[0]?.exchangeRate).toBeCloseTo(RON_PER_EUR, 8);
  });

  it('Drivvo’s export (no currency column): the user’s euros by default', async () => {
    const car = await newCar(es);
    const preview = await send(es, 'preview', car, fixture('drivvo-es.csv'));
    expect(preview.data.currencyGuess).toMatchObject({ reason: 'none', unstated: 3 });
    expect((await send(es, 'confirm', car, fixture('drivvo-es.csv'))).statusCode).toBe(200);
    expect((await fills(es, car)).map((f) => [f.fuelPrice, f.currency, f.exchangeRate])).toEqual([
      [64, 'EUR', 1],
      [56, 'EUR', 1],
    ]);
  });

  it('`$` costs decide nothing: the guess says so and the amounts are the user’s currency until picked', async () => {
    const car = await newCar(ro);
    const preview = await send(ro, 'preview', car, fixture('lubelogger-gas-km-dollar.csv'));
    expect(preview.data.currencyGuess).toEqual({ reason: 'dollar', found: [], currency: null, unstated: 3 });
    expect(preview.data.currency).toBe('RON');
  });
});

describe('this app’s own export', () => {
  it('round-trips each record’s currency and keeps its rate, marked IMPORT', async () => {
    const car = await newCar(ro);
    const typed = await ro.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 60,
      currency: 'EUR',
      exchangeRate: 5.01,
      date: '2024-03-04',
      odometer: 1000,
      fullTank: true,
    });
    expect(typed.statusCode, typed.body).toBe(201);
    const exported = await ro.get(`/api/vehicles/${car}/export.csv`);
    expect(exported.body.split('\r\n')[0]).toMatch(/,currency,exchangeRate,rateDate,rateCurrency$/);
    const copy = await newCar(ro);
    const preview = await send(ro, 'preview', copy, Buffer.from(exported.body));
    expect(preview.data.currencyGuess).toMatchObject({ reason: 'file', found: ['EUR'], unstated: 0 });
    expect((await send(ro, 'confirm', copy, Buffer.from(exported.body))).statusCode).toBe(200);
    expect(await fills(ro, copy)).toMatchObject([
      { fuelPrice: 60, currency: 'EUR', exchangeRate: 5.01, rateDate: '2024-03-04', rateSource: 'IMPORT' },
    ]);
    // Into a euro driver's car the lei rate means nothing: the day's reference rate (1 for euros).
    const theirs = await newCar(es);
    expect((await send(es, 'confirm', theirs, Buffer.from(exported.body))).statusCode).toBe(200);
    expect(await fills(es, theirs)).toMatchObject([{ fuelPrice: 60, currency: 'EUR', exchangeRate: 1 }]);
  });
});

describe('errors', () => {
  it('leaves out, as row errors, the amounts in another currency whose day has no known rate', async () => {
    const car = await newCar(ro);
    const csv = Buffer.from('Date,Litres,Total\n2019-05-06,40,60.00 €\n2024-03-04,40,70.00 €\n');
    // Said in the preview already, as confirm will do it.
    const preview = await send(ro, 'preview', car, csv);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data).toMatchObject({ counts: { fuel: 1 }, skipped: 1 });
    expect(preview.data.errors).toMatchObject([{ row: 2, code: 'NO_RATE' }]);
    const res = await send(ro, 'confirm', car, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ counts: { fuel: 1 }, skipped: 1 });
    expect(res.data.errors).toEqual([
      {
        row: 2,
        code: 'NO_RATE',
        message:
          'Nu se cunoaște un curs de schimb din EUR în RON pentru 2019-05-06: lăsat deoparte. Adaugă-l manual, cu cursul la care ai plătit.',
      },
    ]);
    expect((await fills(ro, car)).map((f) => [f.date, f.fuelPrice, f.currency])).toEqual([
      ['2024-03-04', 70, 'EUR'],
    ]);
  });

  it('refuses a currency it does not know with 400 on mapping.currency, and a stranger’s car with 404', async () => {
    const car = await newCar(ro);
    for (const step of ['preview', 'confirm'] as const)
      expectInvalid(
        await send(ro, step, car, fixture('fuelio-km-l.csv'), { currency: 'XYZ' }),
        'mapping.currency',
      );
    expectError(
      await send(es, 'preview', car, fixture('fuelio-km-l.csv'), { currency: 'EUR' }),
      404,
      'NOT_FOUND',
    );
    expect(await fills(ro, car)).toEqual([]);
  });
});
