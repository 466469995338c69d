import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}`, import.meta.url));

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;

const send = (
  c: TestClient,
  url: string,
  bytes: Buffer,
  extra: Record<string, string> = {},
  headers = {},
) => {
  const parts = [
    { name: 'file', file: { filename: 'history.csv', type: 'text/csv', bytes } },
    ...Object.entries(extra).map(([name, value]) => ({ name, value })),
  ];
  const body = multipart(parts);
  return c.request('POST', url, body.payload, { headers: { ...body.headers, ...headers } });
};
const preview = (c: TestClient, id: number, bytes: Buffer, extra?: Record<string, string>) =>
  send(c, `/api/import/preview/${id}`, bytes, extra);
const confirm = (c: TestClient, id: number, bytes: Buffer, extra?: Record<string, string>, headers = {}) =>
  send(c, `/api/import/confirm/${id}`, bytes, extra, headers);

let n = 0;
const newCar = async (c: TestClient, odometer = 1000) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'DIESEL',
    registrationNumber: `IMP-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.5,
    odometer,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};
/** A new car with a fill-up at 60,000 km on 2024-01-20, typed by hand. */
const carAt60000km = async (c: TestClient) => {
  const car = await newCar(c);
  const fill = {
    vehicleId: car,
    fuelType: 'DIESEL',
    liters: 30,
    fuelPrice: 200,
    date: '2024-01-20',
    odometer: 60000,
  };
  expect((await c.post('/api/fuel-consumptions', fill)).statusCode).toBe(201);
  return car;
};
const records = async (c: TestClient, id: number) => ({
  fuel: (await c.get(`/api/fuel-consumptions/vehicle/${id}`)).data,
  expenses: (await c.get(`/api/expenses/vehicle/${id}`)).data,
  revisions: (await c.get(`/api/revision/vehicle/${id}`)).data,
  insurance: (await c.get(`/api/insurance/vehicle/${id}`)).data,
});
/** A record as a user sees it, without what differs between two vehicles (ids). */
const strip = (rows: Record<string, unknown>[]) => rows.map(({ id: _id, vehicleId: _v, ...rest }) => rest);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
});
afterAll(() => t.close());

describe('preview', () => {
  it('answers what a Fuelio backup holds, as it would be stored, and saves nothing', async () => {
    const car = await newCar(alice);
    const res = await preview(alice, car, fixture('fuelio-km-l.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({
      format: 'fuelio',
      counts: { fuel: 4, expenses: 1, revisions: 2, insurance: 1 },
      skipped: 0,
      duplicates: 0,
      errors: [],
      units: { distance: 'km', volume: 'l' },
      mapping: null,
    });
    expect(res.data.sample.fuel[0]).toEqual({
      date: '2024-01-10',
      odometer: 50000,
      liters: 40,
      fuelPrice: 280,
      pricePerLiter: 7,
      fuelType: 'DIESEL',
      fullTank: true,
      missedPrevious: false,
      // Fuelio names no currency: the user's (issue 50).
      currency: 'EUR',
    });
    expect(res.data.sample.insurance[0]).toMatchObject({ provider: 'RCA Allianz', endDate: '2024-07-14' });
    const saved = await records(alice, car);
    expect([saved.fuel, saved.expenses, saved.revisions, saved.insurance]).toEqual([[], [], [], []]);
  });

  it('proposes a column mapping for a generic CSV, and follows the one sent', async () => {
    const car = await newCar(alice);
    const res = await preview(alice, car, fixture('generic-es.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.format).toBe('generic');
    expect(res.data.mapping).toEqual({
      headers: ['Fecha', 'Kilometros', 'Litros', 'Importe', 'Tipo', 'Notas'],
      columns: expect.objectContaining({ date: 'Fecha', liters: 'Litros', amount: 'Importe' }),
    });
    expect(res.data.counts).toMatchObject({ fuel: 2, expenses: 1 });
    const edited = await preview(alice, car, fixture('generic-es.csv'), {
      mapping: JSON.stringify({ columns: { liters: null } }),
    });
    expect(edited.data.counts).toMatchObject({ fuel: 0, expenses: 3 });
    expectInvalid(await preview(alice, car, fixture('generic-es.csv'), { mapping: '{nope' }), 'mapping');
    expectInvalid(
      await preview(alice, car, fixture('generic-es.csv'), {
        mapping: JSON.stringify({ units: { distance: 'ly' } }),
      }),
      'mapping.units.distance',
    );
  });

  it('refuses what is not a CSV (415), a file over 20 MB (413), no rows (422), no file (400)', async () => {
    const car = await newCar(alice);
    const png = readFileSync(new URL('./fixtures/wide.png', import.meta.url));
    const notCsv = await preview(alice, car, png);
    expectError(notCsv, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(notCsv.data.message).toMatch(/not a CSV/);
    const big = Buffer.alloc(20 * 1024 * 1024 + 10, 'a');
    const tooBig = await confirm(alice, car, big);
    expectError(tooBig, 413, 'PAYLOAD_TOO_LARGE');
    expect(tooBig.data.message).toMatch(/20 MB/);
    expectError(
      await preview(
        alice,
        car,
        Buffer.from('Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags\r\n'),
      ),
      422,
      'UNREADABLE_IMPORT',
    );
    expectError(await confirm(alice, car, Buffer.from('just one line of words\n')), 422, 'UNREADABLE_IMPORT');
    // A generic CSV with no date column: the preview proposes a mapping to fix; confirming imports nothing.
    const undated = Buffer.from('Litres;Total\n40;60\n');
    const unmapped = await preview(alice, car, undated);
    expect(unmapped.statusCode).toBe(200);
    expect(unmapped.data.mapping.columns.date).toBeNull();
    expect(unmapped.data.errors[0].message).toMatch(/date/);
    expectError(await confirm(alice, car, undated), 422, 'UNREADABLE_IMPORT');
    const body = multipart([{ name: 'other', value: 'x' }]);
    expectInvalid(
      await alice.request('POST', `/api/import/preview/${car}`, body.payload, { headers: body.headers }),
      'file',
    );
    expect((await records(alice, car)).fuel).toEqual([]);
  });

  it("is the owner's only: a stranger gets 404 and learns nothing; an admin may", async () => {
    const car = await newCar(alice);
    expectError(await preview(bob, car, fixture('fuelio-km-l.csv')), 404, 'NOT_FOUND');
    expectError(await confirm(bob, car, fixture('fuelio-km-l.csv')), 404, 'NOT_FOUND');
    expectError(await preview(bob, 999_999, fixture('fuelio-km-l.csv')), 404, 'NOT_FOUND');
    expectError(await bob.get(`/api/vehicles/${car}/export.csv`), 404, 'NOT_FOUND');
    expect((await records(alice, car)).fuel).toEqual([]);
    expect((await preview(admin, car, fixture('fuelio-km-l.csv'))).statusCode).toBe(200);
  });
});

describe('confirm', () => {
  it('imports miles and US gallons as km and litres, raises the odometer, and computes consumption', async () => {
    const car = await newCar(alice, 100);
    const res = await confirm(alice, car, fixture('fuelio-mi-usgal.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({
      format: 'fuelio',
      counts: { fuel: 2, expenses: 0, revisions: 0, insurance: 0 },
      skipped: 0,
      duplicates: 0,
      errors: [],
    });
    const { fuel } = await records(alice, car);
    expect(fuel.map((f: { odometer: number; liters: number }) => [f.odometer, f.liters])).toEqual([
      [48763, 37.85],
      [48280, 37.85],
    ]);
    // 37.85 L over 483 km.
    expect(fuel[0].consumptionPer100km).toBe(7.84);
    expect((await alice.get(`/api/vehicles/${car}`)).data.odometer).toBe(48763);
  });

  it('keeps full-tank consumption right across partial and missed fill-ups', async () => {
    const car = await newCar(alice);
    expect((await confirm(alice, car, fixture('lubelogger-gas-en-us.csv'))).data.counts.fuel).toBe(5);
    const fuel = (await records(alice, car)).fuel.reverse();
    // 10 gal over 310 mi; then 4 + 6 gal (a partial fill in between) over 310 mi; then a missed fill-up.
    const lPer100 = (gal: number, mi: number) =>
      Math.round(((gal * 3.785411784) / (mi * 1.609344)) * 10000) / 100;
    expect(fuel.map((f: { consumptionPer100km: number | null }) => f.consumptionPer100km)).toEqual([
      null,
      expect.closeTo(lPer100(10, 310), 1),
      null,
      expect.closeTo(lPer100(10, 310), 1),
      null,
    ]);
  });

  it('gives exactly what typing the same records one by one gives', async () => {
    const imported = await newCar(alice);
    const typed = await newCar(alice);
    const file = fixture('fuelio-km-l.csv');
    expect((await confirm(alice, imported, file)).statusCode).toBe(200);
    const sample = (await preview(alice, typed, file)).data.sample;
    for (const f of sample.fuel)
      expect((await alice.post('/api/fuel-consumptions', { ...f, vehicleId: typed })).statusCode).toBe(201);
    for (const e of sample.expenses)
      expect((await alice.post('/api/expenses', { ...e, vehicleId: typed })).statusCode).toBe(201);
    for (const { manualReminderDate: _m, ...r } of sample.revisions)
      expect((await alice.post('/api/revision', { ...r, vehicleId: typed })).statusCode).toBe(201);
    for (const i of sample.insurance)
      expect((await alice.post('/api/insurance', { ...i, vehicleId: typed })).statusCode).toBe(201);
    const [a, b] = [await records(alice, imported), await records(alice, typed)];
    for (const kind of ['fuel', 'expenses', 'revisions', 'insurance'] as const)
      expect(strip(a[kind])).toEqual(strip(b[kind]));
    const odometer = async (id: number) => (await alice.get(`/api/vehicles/${id}`)).data.odometer;
    expect(await odometer(imported)).toBe(await odometer(typed));
    expect(await odometer(imported)).toBe(51000);
  });

  it('adds nothing when the same file comes twice: its rows are duplicates', async () => {
    const car = await newCar(alice);
    const first = await confirm(alice, car, fixture('drivvo-en.csv'));
    expect(first.data.counts).toEqual({ fuel: 2, expenses: 1, revisions: 1, insurance: 1 });
    const again = await confirm(alice, car, fixture('drivvo-en.csv'));
    expect(again.statusCode).toBe(200);
    expect(again.data).toMatchObject({
      counts: { fuel: 0, expenses: 0, revisions: 0, insurance: 0 },
      duplicates: 5,
      skipped: 5,
    });
    const p = await preview(alice, car, fixture('drivvo-en.csv'));
    expect(p.data).toMatchObject({
      counts: { fuel: 0, expenses: 0, revisions: 0, insurance: 0 },
      duplicates: 5,
    });
    const saved = await records(alice, car);
    expect([
      saved.fuel.length,
      saved.expenses.length,
      saved.revisions.length,
      saved.insurance.length,
    ]).toEqual([2, 1, 1, 1]);
  });

  it('honours an Idempotency-Key: a retry replays the first answer', async () => {
    const car = await newCar(alice);
    const key = { 'idempotency-key': 'import-key-0001' };
    const first = await confirm(alice, car, fixture('drivvo-es.csv'), {}, key);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await confirm(alice, car, fixture('drivvo-es.csv'), {}, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.data).toEqual(first.data);
    expect((await records(alice, car)).fuel).toHaveLength(2);
  });

  it('refuses a fill-up whose odometer contradicts the existing ones, as a typed one would be', async () => {
    const car = await carAt60000km(alice);
    // fuelio-km-l.csv: 2024-01-24 at 50,500 km and later are below the 60,000 km of 2024-01-20.
    const res = await confirm(alice, car, fixture('fuelio-km-l.csv'));
    expect(res.data.counts.fuel).toBe(1);
    expect(res.data.errors).toHaveLength(3);
    expect(res.data.errors[0].message).toMatch(/lower than 60,000 km on the earlier fill-up of 2024-01-20/);
  });
});

describe('messages in the user language', () => {
  const speaker = async (prefix: string, language: 'ro' | 'es') => {
    const c = (await registered(t.app, prefix)).client;
    const me = (await c.get('/api/users/me')).data;
    expect(
      (await c.put('/api/users/me', { username: me.username, email: me.email, language })).statusCode,
    ).toBe(200);
    return c;
  };
  // Row 2: no odometer (a warning); row 3: no readable date; row 4: neither litres nor an amount.
  const file = Buffer.from(
    'Date,Odometer,Litres,Total\n2024-03-01,,40,60\nsoon,1200,30,45\n2024-03-09,1300,,\n',
  );

  it('words warnings and row errors in the saved language, each with its code', async () => {
    const ro = await speaker('ana', 'ro');
    const res = await preview(ro, await newCar(ro), file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.warnings).toContainEqual({
      row: 2,
      field: 'odometer',
      code: 'NO_ODOMETER',
      message: 'Fără kilometraj: nu se calculează consumul pentru această alimentare.',
    });
    expect(res.data.errors).toEqual([
      { row: 3, code: 'NO_DATE', message: 'Nicio dată care să poată fi citită.' },
      { row: 4, code: 'NO_VOLUME_OR_AMOUNT', message: 'Nici litri, nici o sumă.' },
    ]);

    const es = await speaker('pablo', 'es');
    const done = await confirm(es, await newCar(es), file);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.data.counts.fuel).toBe(1);
    expect(done.data.errors.map((e: { message: string }) => e.message)).toEqual([
      'Ninguna fecha legible.',
      'Ni litros ni un importe.',
    ]);
  });

  it('words an odometer conflict with the reading it contradicts, in the user language', async () => {
    const ro = await speaker('ioana', 'ro');
    const car = await carAt60000km(ro);
    const res = await confirm(ro, car, fixture('fuelio-km-l.csv'));
    expect(res.data.errors[0]).toMatchObject({ code: 'ODOMETER_BELOW_EARLIER' });
    expect(res.data.errors[0].message).toMatch(
      /este mai mic decât 60\.000 km la alimentarea anterioară din 2024-01-20/,
    );
  });
});

describe('export', () => {
  it('exports every record as one CSV that imports back losslessly', async () => {
    const car = await newCar(alice);
    await confirm(alice, car, fixture('fuelio-km-l.csv'));
    const rev = (await records(alice, car)).revisions[0];
    await alice.put(`/api/revision/${rev.id}/manual-reminder`, { reminderDate: '2025-01-31' });
    await alice.post('/api/expenses', {
      vehicleId: car,
      date: '2024-02-10',
      expenseType: 'Wash',
      amount: 9.99,
      description: 'Comma, "quotes" and\nnew line',
    });
    const ins = (await records(alice, car)).insurance[0];
    await alice.put(`/api/insurance/${ins.id}/toggle-reminder`);
    const exported = await alice.get(`/api/vehicles/${car}/export.csv`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.body.split('\r\n')[0]).toMatch(
      /^kind,date,odometer,liters,fuelPrice,pricePerLiter,fuelType/,
    );
    expect(exported.body).toContain('fuel,2024-01-10,50000,40,280,7,DIESEL,true,false,,');

    const copy = await newCar(alice);
    const back = await confirm(alice, copy, Buffer.from(exported.body));
    expect(back.data).toMatchObject({
      format: 'evdra',
      counts: { fuel: 4, expenses: 2, revisions: 2, insurance: 1 },
      errors: [],
    });
    const [a, b] = [await records(alice, car), await records(alice, copy)];
    for (const kind of ['fuel', 'expenses', 'revisions', 'insurance'] as const)
      expect(strip(b[kind]).map(({ version: _v, ...r }) => r)).toEqual(
        strip(a[kind]).map(({ version: _v, ...r }) => r),
      );
    expect((await alice.get(`/api/vehicles/${copy}/export.csv`)).body).toBe(exported.body);
    // An admin may read it too.
    expect((await admin.get(`/api/vehicles/${car}/export.csv`)).body).toBe(exported.body);
  });
});
