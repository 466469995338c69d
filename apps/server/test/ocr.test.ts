import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPdf } from '../ocr-dev/receipts.js';
import type { Receipt } from '../ocr-dev/types.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { type Res, registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

// Real receipt photos and PDFs made by apps/server/ocr-dev/fixtures.ts, with their true values.
const dir = new URL('./fixtures/receipts/', import.meta.url);
const receipt = (name: string) => readFileSync(new URL(name, dir));
const labels = JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
let car: number;
let ron: number;
const previews = new Map<string, Res>();

const upload = (c: TestClient, url: string, bytes: Buffer, filename = 'receipt.jpg', type = 'image/jpeg') => {
  const { payload, headers } = multipart([{ name: 'file', file: { filename, type, bytes } }]);
  return c.request('POST', url, payload, { headers });
};
const newCar = async (c: TestClient, n: number, odometer: number) =>
  (
    await c.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'DIESEL',
      registrationNumber: `ocr-${n}-${Math.random().toString(36).slice(2, 6)}`,
      engineSize: 1.5,
      odometer,
      aiEvaluationConsent: false,
    })
  ).data.id as number;

beforeAll(async () => {
  // The currency re-read given all the time it needs: previews read at once queue for it, and what it
  // reads is under test here (its time budget is, with a stand-in reader, in ocr-currency-photos).
  t = await createTestApp({ OCR_CURRENCY_REREAD_MS: '60000' });
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  car = await newCar(alice, 1, 1000);
  // A Romanian-speaking owner whose car already shows more km than the receipt: a warning in Romanian.
  const maria = (await registered(t.app, 'maria')).client;
  const me = (await maria.get('/api/users/me')).data;
  expect(
    (await maria.put('/api/users/me', { username: me.username, email: me.email, language: 'ro' })).statusCode,
  ).toBe(200);
  ron = await newCar(maria, 2, 200_000);
  // One recognition per fixture, shared by the assertions below (OCR is the slow part).
  await Promise.all(
    Object.keys(labels).map(async (file) => {
      const kind = file.split('-')[0];
      const pdf = file.endsWith('.pdf');
      const who = file === 'fuel-ro.jpg' ? maria : alice;
      const vehicle = file === 'fuel-ro.jpg' ? ron : car;
      previews.set(
        file,
        await upload(
          who,
          `/api/${kind}-ocr/preview/${vehicle}`,
          receipt(file),
          file,
          pdf ? 'application/pdf' : 'image/jpeg',
        ),
      );
    }),
  );
}, 240_000);
afterAll(() => t.close());

describe('receipt preview', () => {
  for (const [file, label] of Object.entries(labels)) {
    it(`reads every field of ${file}`, () => {
      const res = previews.get(file) as Res;
      expect(res.statusCode, res.body).toBe(200);
      for (const [field, want] of Object.entries(label)) {
        if (typeof want === 'number') expect(res.data[field], field).toBeCloseTo(want, 2);
        else if (typeof want === 'string')
          expect(String(res.data[field]).normalize('NFC').toLowerCase(), field).toBe(want.toLowerCase());
        else expect(res.data[field], field).toBe(want);
      }
      for (const field of Object.keys(label)) {
        const c = res.data.confidence[field];
        expect(c, field).toBeGreaterThanOrEqual(0);
        expect(c, field).toBeLessThanOrEqual(1);
      }
      expect(res.data.language).toBe(file.split('-')[1]?.slice(0, 2));
      expect(res.data.source).toBe(file === 'insurance-ro.pdf' ? 'pdf-text' : 'ocr');
    });
  }

  it('reads a sideways phone photo by its EXIF orientation', async () => {
    expect((await sharp(receipt('fuel-ro.jpg')).metadata()).orientation).toBe(6);
    expect(previews.get('fuel-ro.jpg')?.data.liters).toBe(labels['fuel-ro.jpg']?.liters);
  });

  it('proposes the currency each receipt prints: a lei receipt scanned by a euro user is in RON', async () => {
    expect((await alice.get('/api/users/me')).data.currency).toBe('EUR');
    // The photos print lei beside an amount ("TOTAL DE PLATA 680,23 LEI", "Pret/L 6,72 LEI"), the
    // policy's PDF too. The English photos print "£76.72", "£130.62", "£1428.69" and the Spanish fill-up
    // "104,74 €" beside the total: signs PaddleOCR cannot read, so that row is read again
    // (currency-reread.ts). The scanned service PDF prints none: the user's own, EUR, with confidence 0.
    const printed: Record<string, string> = {
      'fuel-ro.jpg': 'RON',
      'expense-ro.jpg': 'RON',
      'insurance-ro.pdf': 'RON',
      'fuel-en.jpg': 'GBP',
      'revision-en.jpg': 'GBP',
      'insurance-en.jpg': 'GBP',
      'fuel-es.jpg': 'EUR',
    };
    const reread = new Set(['fuel-en.jpg', 'revision-en.jpg', 'insurance-en.jpg', 'fuel-es.jpg']);
    for (const file of Object.keys(labels)) {
      const res = previews.get(file) as Res;
      expect(res.data.currency, file).toBe(printed[file] ?? 'EUR');
      // A sign read again is proposed, as sure as the second reading was (fuel-es.jpg's is faint).
      if (reread.has(file)) expect(res.data.confidence.currency, file).toBeGreaterThan(0);
      else if (printed[file]) expect(res.data.confidence.currency, file).toBeGreaterThanOrEqual(0.75);
      else expect(res.data.confidence.currency, file).toBe(0);
    }
  });

  it("proposes the user's own currency for a receipt that prints none (confidence 0)", async () => {
    const pdf = receiptPdf({
      lines: [{ text: 'PARKING CENTRAL' }, { text: 'Date 12/03/2025' }, { text: 'TOTAL 4.50' }],
    } as Receipt);
    const lei = (await registered(t.app, 'leu')).client;
    const me = (await lei.get('/api/users/me')).data;
    expect(
      (await lei.put('/api/users/me', { username: me.username, email: me.email, currency: 'RON' }))
        .statusCode,
    ).toBe(200);
    const leiCar = await newCar(lei, 4, 1000);
    for (const [who, vehicle, currency] of [
      [lei, leiCar, 'RON'],
      [alice, car, 'EUR'],
    ] as const) {
      const res = await upload(who, `/api/expense-ocr/preview/${vehicle}`, pdf, 'p.pdf', 'application/pdf');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.data).toMatchObject({ amount: 4.5, currency, source: 'pdf-text' });
      expect(res.data.confidence.currency).toBe(0);
    }
  });

  it('marks a field it did not find as null with confidence 0, never a guess', () => {
    const es = previews.get('fuel-es.jpg') as Res;
    expect(es.data.odometer).toBeNull();
    expect(es.data.confidence.odometer).toBe(0);
  });

  it("warns in the user's saved language when the odometer is below the vehicle's last reading", () => {
    const res = previews.get('fuel-ro.jpg') as Res;
    expect(res.data.warnings).toEqual([
      expect.objectContaining({
        field: 'odometer',
        code: 'ODOMETER_BELOW_LAST',
        message: expect.stringContaining('este mai puțin'),
      }),
    ]);
    expect(previews.get('fuel-en.jpg')?.data.warnings).toEqual([]);
  });

  it('saves nothing', async () => {
    expect((await alice.get(`/api/fuel-consumptions/vehicle/${car}`)).data).toEqual([]);
    expect((await alice.get(`/api/insurance/vehicle/${car}`)).data).toEqual([]);
    expect((await alice.get(`/api/revision/vehicle/${car}`)).data).toEqual([]);
    expect((await alice.get(`/api/expenses/vehicle/${car}`)).data).toEqual([]);
  });

  it("answers 404 for another user's vehicle, without reading the file", async () => {
    for (const kind of ['fuel', 'expense', 'revision', 'insurance']) {
      const res = await upload(bob, `/api/${kind}-ocr/preview/${car}`, receipt('fuel-en.jpg'));
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('liters');
    }
  });

  it('refuses what is not a JPEG, PNG, WebP or PDF by its bytes (415), whatever its name', async () => {
    const res = await upload(
      alice,
      `/api/fuel-ocr/preview/${car}`,
      Buffer.from('GIF89a not a receipt'),
      'r.jpg',
    );
    expect(res.statusCode).toBe(415);
    expect(res.data.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses more than 10 MB (413)', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0);
    big.set([0xff, 0xd8, 0xff], 0);
    const res = await upload(alice, `/api/fuel-ocr/preview/${car}`, big);
    expect(res.statusCode).toBe(413);
    expect(res.data.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 422 with a clear message for a broken image or one without text', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    const a = await upload(alice, `/api/expense-ocr/preview/${car}`, broken);
    expect(a.statusCode).toBe(422);
    expect(a.data).toMatchObject({
      code: 'UNREADABLE_RECEIPT',
      message: expect.stringMatching(/could not be read/),
    });
    const blank = await sharp({ create: { width: 400, height: 600, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const b = await upload(alice, `/api/expense-ocr/preview/${car}`, blank, 'blank.png', 'image/png');
    expect(b.statusCode).toBe(422);
    expect(b.data.code).toBe('UNREADABLE_RECEIPT');
    const pdf = await upload(
      alice,
      `/api/insurance-ocr/preview/${car}`,
      Buffer.from('%PDF-1.4 broken'),
      'p.pdf',
    );
    expect(pdf.statusCode).toBe(422);
  });

  it('asks for the file part', async () => {
    const { payload, headers } = multipart([{ name: 'other', value: 'x' }]);
    const res = await alice.request('POST', `/api/fuel-ocr/preview/${car}`, payload, { headers });
    expect(res.statusCode).toBe(400);
  });
});

describe('receipt confirm', () => {
  it('creates the record through the normal create: validation, Idempotency-Key, consumption and odometer', async () => {
    const v = await newCar(alice, 3, 1000);
    const first = {
      vehicleId: v,
      date: '2025-03-01',
      liters: 40,
      fuelPrice: 60,
      odometer: 10_000,
      fuelType: 'DIESEL',
    };
    expect((await alice.post('/api/fuel-ocr/confirm', first)).statusCode).toBe(201);
    const body = { ...first, date: '2025-03-15', liters: 35, fuelPrice: 52.5, odometer: 10_500 };
    const headers = { 'idempotency-key': 'ocr-confirm-key-1' };
    const a = await alice.request('POST', '/api/fuel-ocr/confirm', body, { headers });
    expect(a.statusCode).toBe(201);
    expect(a.data).toMatchObject({ liters: 35, pricePerLiter: 1.5, consumptionPer100km: 7 });
    const again = await alice.request('POST', '/api/fuel-ocr/confirm', body, { headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data.id).toBe(a.data.id);
    expect((await alice.get(`/api/fuel-consumptions/vehicle/${v}`)).data).toHaveLength(2);
    expect((await alice.get(`/api/vehicles/${v}`)).data.odometer).toBe(10_500);
    const bad = await alice.post('/api/fuel-ocr/confirm', { ...body, liters: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.details[0].field).toBe('liters');
  });

  it("confirms each kind, and refuses another user's vehicle with 404", async () => {
    const bodies = {
      expense: { date: '2025-04-26', expenseType: 'Wash', amount: 680.23, description: 'Spălătorie auto' },
      revision: { date: '2024-12-24', km: 246_606, price: 377.66, description: 'Kit de distribución' },
      insurance: {
        provider: 'Aviva',
        policyNumber: 'DL-2913091',
        coverageType: 'Comprehensive',
        startDate: '2024-10-19',
        endDate: '2025-04-18',
        price: 1428.69,
        reminderEnabled: true,
      },
    };
    for (const [kind, body] of Object.entries(bodies)) {
      const mine = await alice.post(`/api/${kind}-ocr/confirm`, { ...body, vehicleId: car });
      expect(mine.statusCode, kind).toBe(201);
      expect(mine.data).toMatchObject({ ...body, vehicleId: car });
      const theirs = await bob.post(`/api/${kind}-ocr/confirm`, { ...body, vehicleId: car });
      expect(theirs.statusCode, kind).toBe(404);
    }
    const ends = await alice.post('/api/insurance-ocr/confirm', {
      ...bodies.insurance,
      endDate: '2024-01-01',
      vehicleId: car,
    });
    expect(ends.statusCode).toBe(400);
  });
});
