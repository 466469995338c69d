import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { type Res, registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';
import { pdfPages as pdfText } from './helpers/pdf-text.js';

// The clock may only move forward from the real time (sessions are checked against the database's).
let offset = 0;
const now = () => new Date(Date.now() + offset);
const DAY = 86_400_000;
/** The calendar day `k` days from today (UTC). */
const d = (k: number) => new Date(Date.now() + k * DAY).toISOString().slice(0, 10);
const enDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let aliceName: string;
let mallory: TestClient;
let malloryUser: { id: number; username: string };
let diesel: number;
let electric: number;
let n = 0;

const car = async (c: TestClient, extra: Record<string, unknown> = {}) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2018,
    fuelType: 'DIESEL',
    registrationNumber: `B-${n}-REP`,
    engineSize: 1.5,
    odometer: 90_000,
    aiEvaluationConsent: true,
    ...extra,
  });
  expect(res.statusCode).toBe(201);
  return res.data.id as number;
};
const ok = async (p: Promise<Res>, status = 201) => {
  const res = await p;
  expect(res.statusCode, res.body).toBe(status);
  return res;
};
const fill = (
  c: TestClient,
  vehicleId: number,
  date: string,
  odometer: number,
  liters: number,
  fuelPrice: number,
  fuelType = 'DIESEL',
) =>
  ok(
    c.post('/api/fuel-consumptions', {
      vehicleId,
      date,
      odometer,
      liters,
      fuelPrice,
      fuelType,
      fullTank: true,
    }),
  );

beforeAll(async () => {
  t = await createTestApp({}, now);
  admin = (await registered(t.app, 'admin')).client;
  const a = await registered(t.app, 'alice');
  alice = a.client;
  aliceName = a.user.username;
  const m = await registered(t.app, 'mallory');
  mallory = m.client;
  malloryUser = m.user;

  diesel = await car(alice);
  await fill(alice, diesel, d(-520), 100_000, 40, 60);
  await fill(alice, diesel, d(-490), 100_800, 48, 72); // 6.00 L/100km
  await fill(alice, diesel, d(-100), 101_600, 44, 70); // 5.50 L/100km, the only one of the last 12 months
  await ok(
    alice.post('/api/revision', {
      vehicleId: diesel,
      date: d(-525),
      km: 99_500,
      price: 300,
      description: 'Oil change',
    }),
  );
  // Lower than the 100,800 km read 30 days earlier: a rollback.
  await ok(
    alice.post('/api/revision', {
      vehicleId: diesel,
      date: d(-460),
      km: 95_000,
      price: 150,
      description: 'Brake pads',
    }),
  );
  await ok(
    alice.post('/api/insurance', {
      vehicleId: diesel,
      provider: 'Allianz',
      coverageType: 'RCA',
      startDate: d(-530),
      endDate: d(-350),
      price: 200,
    }),
  );
  // 49 days without cover, then covered until after today.
  await ok(
    alice.post('/api/insurance', {
      vehicleId: diesel,
      provider: 'Groupama',
      coverageType: 'RCA',
      startDate: d(-300),
      endDate: d(60),
      price: 400,
    }),
  );
  await ok(alice.post(`/api/vehicles/${diesel}/evaluate-ai`), 200);

  electric = await car(alice, {
    make: 'Renault',
    model: 'Zoe',
    fuelType: 'ELECTRIC',
    engineSize: 0,
    aiEvaluationConsent: false,
  });
  await fill(alice, electric, d(-60), 20_000, 30, 12, 'ELECTRIC');
  await fill(alice, electric, d(-30), 20_200, 34, 14, 'ELECTRIC'); // 17.00 kWh/100km
});
afterAll(() => t.close());

const pdf = async (c: TestClient, url: string) => {
  const res = await c.get(url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(res.rawPayload);
};

describe('GET /api/vehicles/{id}/report.pdf', () => {
  it('has every section, the figures and the flags, in English', async () => {
    const { text, pages, size } = await pdf(alice, `/api/vehicles/${diesel}/report.pdf?lang=en`);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(size).toEqual([595, 842]); // A4 in points
    for (const heading of [
      'Vehicle history report',
      'Service history',
      'Insurance and renewals',
      'Fuel',
      'Costs',
      'Odometer readings',
      'AI evaluation',
    ])
      expect(text).toContain(heading);
    expect(text).toContain('Dacia Logan');
    expect(text).toContain(aliceName);
    expect(text).toContain('Oil change');
    expect(text).toContain('99,500 km');
    expect(text).toContain('€300.00');
    expect(text).toContain('5.75 L/100km');
    expect(text).toContain('5.50 L/100km'); // last 12 months
    expect(text).toContain('€1,252.00'); // 202 fuel + 450 services + 600 insurance
    expect(text).toContain(`Not insured from ${enDate(d(-349))} to ${enDate(d(-301))} (49 days)`);
    expect(text).toContain(
      `Rollback: 95,000 km on ${enDate(d(-460))}, lower than 100,800 km recorded earlier`,
    );
    expect(text).not.toContain('No gaps between policies.');
    // The facts, the report date, the services in order, the fuel and cost figures.
    expect(text).toContain('Report date:');
    expect(text).toContain('Current odometer 101,600 km');
    expect(text).toContain('Engine 1.5 L');
    expect(text).toMatch(/Registration B-\d+-REP/);
    expect(text.indexOf('Oil change')).toBeLessThan(text.indexOf('Brake pads'));
    expect(text).toContain('Fill-ups 3');
    expect(text).toContain('Distance covered 1,600 km');
    expect(text).toContain('Fuel cost per month');
    expect(text).toContain('Total cost of ownership €1,252.00');
    expect(text).toContain('Cost per km');
    expect(text).toMatch(/Score: \d+(\.\d)? \/ 10/);
    expect(text).toMatch(/Page 1 of \d/);
    expect(text).toMatch(/Generated \d{1,2} \w{3,4} \d{4}, \d{2}:\d{2} UTC · Verification code/);
    expect(text).toMatch(/Verification code [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}/);
  });

  it('is in Romanian and Spanish with their headings, numbers and diacritics', async () => {
    const ro = (await pdf(alice, `/api/vehicles/${diesel}/report.pdf?lang=ro`)).text;
    for (const s of [
      'Raport de istoric al vehiculului',
      'Istoric revizii',
      'Asigurări și reînnoiri',
      'Citiri kilometraj',
      'Evaluare AI',
    ])
      expect(ro).toContain(s);
    expect(ro).toContain('1.252,00 €');
    expect(ro).toContain('5,75 L/100km');
    expect(ro).toContain('Neasigurat între');
    expect(ro).toContain('Distanță parcursă 1.600 km');
    expect(ro).toMatch(/Pagina 1 din \d/);

    const es = (await pdf(alice, `/api/vehicles/${diesel}/report.pdf?lang=es`)).text;
    for (const s of [
      'Informe de historial del vehículo',
      'Historial de revisiones',
      'Seguros y renovaciones',
      'Lecturas del cuentakilómetros',
    ])
      expect(es).toContain(s);
    expect(es).toContain('1.252,00 €');
    expect(es).toContain('5,75 L/100km');
    expect(es).toContain('Retroceso: 95.000 km');
    expect(es).toMatch(/Página 1 de \d/);
  });

  it('takes the language from Accept-Language when lang is absent', async () => {
    const res = await alice.get(`/api/vehicles/${diesel}/report.pdf`, {
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect((await pdfText(res.rawPayload)).text).toContain('Historial de revisiones');
  });

  it('says kWh/100km for an electric car, and leaves out the AI section without consent', async () => {
    const { text } = await pdf(alice, `/api/vehicles/${electric}/report.pdf?lang=en`);
    expect(text).toContain('17.00 kWh/100km');
    expect(text).not.toContain('L/100km ');
    expect(text).not.toContain('AI evaluation');
    expect(text).toContain('No services recorded.');
    expect(text).toContain('No insurance recorded.');
  });

  it('is 404 for a stranger and for a car that does not exist; admin may read it; bad lang is 400', async () => {
    expectError(await mallory.get(`/api/vehicles/${diesel}/report.pdf`), 404, 'NOT_FOUND');
    expectError(await alice.get('/api/vehicles/999999/report.pdf'), 404, 'NOT_FOUND');
    await pdf(admin, `/api/vehicles/${diesel}/report.pdf`);
    expectInvalid(await alice.get(`/api/vehicles/${diesel}/report.pdf?lang=de`), 'lang');
    expect(
      (
        await alice.request('GET', `/api/vehicles/${diesel}/report.pdf`, undefined, {
          headers: { cookie: '' },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('a kept report and who may read it', () => {
  it('never hands the owner’s kept PDF to a stranger, and a viewer whose share ends gets 404', async () => {
    await pdf(alice, `/api/vehicles/${diesel}/report.pdf`);
    await pdf(alice, `/api/vehicles/${diesel}/report.pdf`); // kept now
    const stranger = await mallory.get(`/api/vehicles/${diesel}/report.pdf`);
    expectError(stranger, 404, 'NOT_FOUND');
    expect(stranger.body).not.toContain('%PDF');
    const share = await alice.post(`/api/vehicles/${diesel}/shares`, {
      username: malloryUser.username,
      role: 'VIEWER',
    });
    expect(share.statusCode).toBe(201);
    await pdf(mallory, `/api/vehicles/${diesel}/report.pdf`);
    expect((await alice.delete(`/api/vehicles/${diesel}/shares/${malloryUser.id}`)).statusCode).toBe(204);
    const ended = await mallory.get(`/api/vehicles/${diesel}/report.pdf`);
    expectError(ended, 404, 'NOT_FOUND');
    expect(ended.body).not.toContain('%PDF');
  });
});

describe('verification codes', () => {
  it('says a printed code is genuine, with the car and odometer then; unknown is 404', async () => {
    const { text } = await pdf(alice, `/api/vehicles/${diesel}/report.pdf?lang=en`);
    const code = text.match(/Verification code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})/)?.[1] as string;
    const res = await ok(mallory.get(`/api/report/verify/${code}`), 200);
    expect(res.data).toEqual({
      genuine: true,
      code,
      vehicle: {
        make: 'Dacia',
        model: 'Logan',
        year: 2018,
        registrationNumber: expect.stringMatching(/^B-\d+-REP$/),
      },
      generatedAt: expect.any(String),
      odometer: 101_600,
    });
    // Typed off paper: lower case, no dashes.
    expect((await mallory.get(`/api/report/verify/${code.replace(/-/g, '').toLowerCase()}`)).data.code).toBe(
      code,
    );
    const unknown = await mallory.get('/api/report/verify/ZZZZ-ZZZZ-ZZ');
    expectError(unknown, 404, 'NOT_FOUND');
    expect(unknown.data.genuine).toBe(false);
    expectError(await mallory.get('/api/report/verify/not-a-code!'), 404, 'NOT_FOUND');
  });
});

/** The verification code printed in a report (any language). */
const codeOf = (text: string) =>
  text.match(
    /(?:Verification code|Cod de verificare|Código de verificación):? ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})/,
  )?.[1];

describe('renewals in the report', () => {
  it('lists RCA, ITP… with their validity and flags a lapse and an expired one, in the PDF and the page', async () => {
    const id = await car(alice);
    const renewal = (body: Record<string, unknown>) => ok(alice.post(`/api/vehicles/${id}/renewals`, body));
    await renewal({ type: 'RCA', validFrom: d(-400), validUntil: d(-36), price: 310 });
    await renewal({ type: 'RCA', validFrom: d(-30), validUntil: d(335), price: 1250.5 });
    await renewal({ type: 'ITP', validFrom: d(-740), validUntil: d(-10) });
    await renewal({ type: 'OTHER', validUntil: d(-200), note: 'parking permit' });
    const en = (await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=en`)).text;
    expect(en).toContain('RCA (liability insurance)');
    expect(en).toContain(`${enDate(d(-30))} – ${enDate(d(335))}`);
    expect(en).toContain('€1,250.50');
    expect(en).toContain(
      `RCA (liability insurance) not valid from ${enDate(d(-35))} to ${enDate(d(-31))} (5 days)`,
    );
    expect(en).toContain(`ITP (technical inspection) expired: not valid since ${enDate(d(-9))} (10 days)`);
    // "Other" mixes unrelated things: listed, never flagged.
    expect(en).toContain(`– ${enDate(d(-200))}`);
    expect(en).not.toMatch(/Other (not valid|expired)/);

    const es = (await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=es`)).text;
    expect(es).toContain('Renovación');
    expect(es).toContain('1.250,50 €');
    expect(es).toMatch(/ITP \(inspección técnica\) caducado: sin vigencia desde el .+ \(10 días\)/);

    const link = (await ok(alice.post(`/api/vehicles/${id}/report-links`, { expiresInDays: 1 }))).data;
    const page = await alice.get(`/r/${link.token}?lang=ro`);
    expect(page.body).toContain('Reînnoire');
    expect(page.body).toMatch(/RCA nevalabil între .+ \(5 zile\)/);
    expect(page.body).toMatch(/ITP expirat: nevalabil din .+ \(10 zile\)/);
    // On a phone each year of costs is a block whose figures say what they are (no sideways scroll).
    expect(page.body).toMatch(/<table class="stack labelled">.*<td class="num" data-label="Asigurare">/s);
  });
});

describe('verification codes stay put', () => {
  const codes = async (vehicleId: number) => {
    const res = await t.database.db.execute(
      sql`select count(*)::int as n from report_codes where vehicle_id = ${vehicleId}`,
    );
    return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n);
  };

  it('gives the same data the same code: page views and downloads add no row; new data, a new code', async () => {
    const id = await car(alice);
    await fill(alice, id, d(-40), 90_100, 40, 60);
    const link = (await ok(alice.post(`/api/vehicles/${id}/report-links`, { expiresInDays: 3 }))).data;
    const anonymous = new (alice.constructor as new (app: unknown) => TestClient)(t.app);
    const first = codeOf((await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=en`)).text);
    expect(first).toBeDefined();
    // The same report again is the same file, kept once drawn (issue 54: drawing takes seconds).
    const download = async () => (await alice.get(`/api/vehicles/${id}/report.pdf?lang=en`)).rawPayload;
    expect((await download()).equals(await download())).toBe(true);
    const before = await codes(id);
    for (const lang of ['en', 'ro', 'es', 'en', 'ro']) {
      const page = await anonymous.get(`/r/${link.token}?lang=${lang}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<span class="code">${first}</span>`);
    }
    const shared = await anonymous.request('GET', `/r/${link.token}/report.pdf?lang=es`);
    expect(codeOf((await pdfText(shared.rawPayload)).text)).toBe(first);
    expect(codeOf((await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=ro`)).text)).toBe(first);
    expect(await codes(id)).toBe(before);

    // A new fill-up is a different report: a new code; the old paper still checks out.
    await fill(alice, id, d(-10), 90_700, 42, 63);
    const second = codeOf((await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=en`)).text);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await codes(id)).toBe(before + 1);
    expect((await ok(mallory.get(`/api/report/verify/${first}`), 200)).data.odometer).toBe(90_100);
    expect((await ok(mallory.get(`/api/report/verify/${second}`), 200)).data.odometer).toBe(90_700);
  });
});

describe('a report asked for by many at once', () => {
  it('is drawn once and sent to each: the same file, one code', async () => {
    const id = await car(alice);
    await fill(alice, id, d(-40), 90_100, 40, 60);
    const downloads = await Promise.all(
      Array.from({ length: 6 }, () => alice.get(`/api/vehicles/${id}/report.pdf?lang=en`)),
    );
    expect(downloads.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const r of downloads) expect(r.rawPayload.equals(downloads[0]?.rawPayload as Buffer)).toBe(true);
    const codes = await t.database.db.execute(
      sql`select count(*)::int as n from report_codes where vehicle_id = ${id}`,
    );
    expect((codes as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });
});

describe('the verification page the PDF points to', () => {
  it('is a page a person reads: genuine, with car, date and odometer, in their language, noindex', async () => {
    const { text } = await pdf(alice, `/api/vehicles/${diesel}/report.pdf?lang=es`);
    const code = codeOf(text) as string;
    // The footer's URL is this page, not the JSON API.
    expect(text).toContain(`http://evdra.test/v/${code}`);
    expect(text).not.toContain('/api/report/verify');
    const anonymous = new (alice.constructor as new (app: unknown) => TestClient)(t.app);
    const page = await anonymous.get(`/v/${code}?lang=es`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex');
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toContain('Informe auténtico');
    expect(page.body).toContain('Dacia Logan · 2018');
    expect(page.body).toMatch(/B-\d+-REP/);
    expect(page.body).toContain('101.600 km');
    expect(page.body).toContain('Kilometraje en esa fecha');
    const api = (await ok(mallory.get(`/api/report/verify/${code}`), 200)).data;
    const date = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(api.generatedAt),
    );
    expect(page.body).toContain(date);

    // The browser's language when there is no ?lang; a code typed loosely is found.
    const ro = await anonymous.request('GET', `/v/${code.replace(/-/g, '').toLowerCase()}`, undefined, {
      headers: { 'accept-language': 'ro-RO,ro;q=0.9' },
    });
    expect(ro.statusCode).toBe(200);
    expect(ro.body).toContain('Raport autentic');
    expect(ro.body).toContain(code);
  });

  it('says "not genuine" (404) for an unknown code, and its form goes to a code’s page', async () => {
    const anonymous = new (alice.constructor as new (app: unknown) => TestClient)(t.app);
    const bad = await anonymous.get('/v/ZZZZ-ZZZZ-ZZ?lang=en');
    expect(bad.statusCode).toBe(404);
    expect(bad.headers['content-type']).toContain('text/html');
    expect(bad.headers['x-robots-tag']).toContain('noindex');
    expect(bad.body).toContain('Not a genuine report');
    expect(bad.body).not.toContain('Genuine report<');
    expect((await anonymous.get(`/v/${'x'.repeat(90)}`)).statusCode).toBe(404);
    const form = await anonymous.get('/v?lang=ro');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Verificați alt cod');
    const go = await anonymous.get('/v?code=abcd efgh jk&lang=es');
    expect(go.statusCode).toBe(303);
    expect(go.headers.location).toBe('/v/ABCD-EFGH-JK?lang=es');
  });
});

describe('share links', () => {
  it('creates, lists, opens, revokes; a stranger gets 404 everywhere', async () => {
    expectInvalid(
      await alice.post(`/api/vehicles/${diesel}/report-links`, { expiresInDays: 0 }),
      'expiresInDays',
    );
    expectInvalid(
      await alice.post(`/api/vehicles/${diesel}/report-links`, { expiresInDays: 91 }),
      'expiresInDays',
    );
    expectInvalid(await alice.post(`/api/vehicles/${diesel}/report-links`, {}), 'expiresInDays');
    const made = (await ok(alice.post(`/api/vehicles/${diesel}/report-links`, { expiresInDays: 7 }))).data;
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.url).toBe(`http://evdra.test/r/${made.token}`);
    expect(Math.abs(Date.parse(made.expiresAt) - Date.now() - 7 * DAY)).toBeLessThan(60_000);

    const list = (await ok(alice.get(`/api/vehicles/${diesel}/report-links`), 200)).data;
    expect(list).toEqual([
      {
        url: made.url,
        token: made.token,
        expiresAt: made.expiresAt,
        createdAt: expect.any(String),
        listingId: null,
      },
    ]);

    expectError(
      await mallory.post(`/api/vehicles/${diesel}/report-links`, { expiresInDays: 7 }),
      404,
      'NOT_FOUND',
    );
    expectError(await mallory.get(`/api/vehicles/${diesel}/report-links`), 404, 'NOT_FOUND');
    expectError(await mallory.delete(`/api/vehicles/${diesel}/report-links/${made.token}`), 404, 'NOT_FOUND');
    expectError(await alice.delete(`/api/vehicles/${diesel}/report-links/nope`), 404, 'NOT_FOUND');

    // The public page: no login, noindex, the report, a PDF link, the code.
    const anonymous = new (alice.constructor as new (app: unknown) => TestClient)(t.app);
    const page = await anonymous.get(`/r/${made.token}?lang=ro`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex');
    expect(page.body).toContain('Istoric revizii');
    expect(page.body).toContain(`/r/${made.token}/report.pdf?lang=ro`);
    expect(page.body).toMatch(/Cod de verificare: <span class="code">[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}</);
    expect(page.body).toContain(aliceName);
    expect(page.body).not.toContain('@example.com');
    const es = await anonymous.get(`/r/${made.token}`, { headers: { 'accept-language': 'es' } });
    expect(es.body).toContain('Historial de revisiones');
    expect(
      (await pdfText((await anonymous.get(`/r/${made.token}/report.pdf?lang=en`)).rawPayload)).text,
    ).toContain('Service history');

    await ok(alice.delete(`/api/vehicles/${diesel}/report-links/${made.token}`), 204);
    expect((await ok(alice.get(`/api/vehicles/${diesel}/report-links`), 200)).data).toEqual([]);
    const gone = await anonymous.get(`/r/${made.token}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('Dacia');
    expect((await anonymous.get(`/r/${made.token}/report.pdf`)).statusCode).toBe(404);
    expectError(await alice.delete(`/api/vehicles/${diesel}/report-links/${made.token}`), 404, 'NOT_FOUND');
  });

  it('expires', async () => {
    const made = (await ok(alice.post(`/api/vehicles/${diesel}/report-links`, { expiresInDays: 1 }))).data;
    expect((await alice.get(`/r/${made.token}`)).statusCode).toBe(200);
    offset = DAY + 1000;
    try {
      const page = await alice.get(`/r/${made.token}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Report not available');
      expect(page.body).not.toContain('Dacia');
      expect((await alice.get(`/r/${made.token}/report.pdf`)).statusCode).toBe(404);
    } finally {
      offset = 0;
    }
  });

  it('answers an unknown or malformed token with the 404 page', async () => {
    for (const token of ['x', 'A'.repeat(43), 'A'.repeat(500), '../../etc']) {
      const res = await alice.get(`/r/${encodeURIComponent(token)}`);
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-robots-tag']).toContain('noindex');
    }
  });
});

describe('on the marketplace', () => {
  const cardOf = async (c: TestClient, listingId: number) =>
    (
      (await ok(c.get('/api/marketplace/listings'), 200)).data as { id: number; reportUrl: string | null }[]
    ).find((l) => l.id === listingId);

  it('a listing carries its report link, which ends when the listing is deleted', async () => {
    const vehicleId = await car(alice);
    const listing = (
      await ok(alice.post('/api/marketplace/list', { vehicleId, price: 5000, description: '' }))
    ).data;
    expect(listing.reportUrl).toMatch(/^\/r\/[A-Za-z0-9_-]{43}$/);
    expect((await cardOf(mallory, listing.id))?.reportUrl).toBe(listing.reportUrl);
    // A buyer opens it without logging in.
    const page = await mallory.get(listing.reportUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Vehicle history report');
    // The owner sees it among the car's links, marked as the listing's.
    const links = (await ok(alice.get(`/api/vehicles/${vehicleId}/report-links`), 200)).data;
    expect(links).toEqual([expect.objectContaining({ listingId: listing.id })]);

    await ok(alice.delete(`/api/marketplace/delete-permanent/${listing.id}`), 204);
    expect((await mallory.get(listing.reportUrl)).statusCode).toBe(404);
    expect((await ok(alice.get(`/api/vehicles/${vehicleId}/report-links`), 200)).data).toEqual([]);
  });

  it('every link of a car ends when the car is transferred to its buyer', async () => {
    const vehicleId = await car(alice);
    const own = (await ok(alice.post(`/api/vehicles/${vehicleId}/report-links`, { expiresInDays: 30 }))).data;
    const listing = (
      await ok(alice.post('/api/marketplace/list', { vehicleId, price: 5000, description: '' }))
    ).data;
    const interestId = (await ok(mallory.post(`/api/marketplace/interest/${listing.id}`), 200)).data
      .interestId;
    await ok(alice.patch(`/api/marketplace/transfer/${interestId}`), 200);
    expect((await mallory.get(listing.reportUrl)).statusCode).toBe(404);
    expect((await mallory.get(`/r/${own.token}`)).statusCode).toBe(404);
    // The new owner starts with no links; the old one no longer reaches the car.
    expect((await ok(mallory.get(`/api/vehicles/${vehicleId}/report-links`), 200)).data).toEqual([]);
    expectError(await alice.get(`/api/vehicles/${vehicleId}/report-links`), 404, 'NOT_FOUND');
    expectError(await alice.get(`/api/vehicles/${vehicleId}/report.pdf`), 404, 'NOT_FOUND');
  });
});

describe('the public routes', () => {
  it('are rate-limited per address (60 a minute, shared), with the error shape', async () => {
    const { TestClient } = await import('./helpers/client.js');
    const crawler = new TestClient(t.app, '203.0.113.7');
    for (let i = 0; i < 60; i++) expect((await crawler.get('/r/unknown')).statusCode).toBe(404);
    expectError(await crawler.get('/api/report/verify/ZZZZ-ZZZZ-ZZ'), 429, 'RATE_LIMITED');
    expect((await crawler.get('/r/unknown')).statusCode).toBe(429);
    // Another address is not held back.
    expect((await new TestClient(t.app, '203.0.113.8').get('/r/unknown')).statusCode).toBe(404);
  });
});

describe('the photo and the VIN', () => {
  it('puts the car’s photo in the PDF (an image, the text still text) and on the public page', async () => {
    const id = await car(alice);
    const jpeg = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));
    const { payload, headers } = multipart([
      { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } },
    ]);
    expect(
      (await alice.request('POST', `/api/vehicles/${id}/upload-photo`, payload, { headers })).statusCode,
    ).toBe(200);
    const res = await alice.get(`/api/vehicles/${id}/report.pdf?lang=en`);
    expect(res.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect((await pdfText(res.rawPayload)).text).toContain('Vehicle history report');
    const link = (await ok(alice.post(`/api/vehicles/${id}/report-links`, { expiresInDays: 2 }))).data;
    const anonymous = new (alice.constructor as new (app: unknown) => TestClient)(t.app);
    const page = await anonymous.get(`/r/${link.token}`);
    expect(page.body).toContain(`<img class="photo" src="/r/${link.token}/photo"`);
    const photo = await anonymous.get(`/r/${link.token}/photo`);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
  });

  it('shows the VIN when the vehicle has one, and no VIN line when it has none', async () => {
    const id = await car(alice);
    const before = (await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=ro`)).text;
    expect(before).not.toContain('(VIN)');
    // The owner adds it through the API (typed in lower case: stored upper-case).
    const v = (await alice.get(`/api/vehicles/${id}`)).data;
    const { make, model, year, fuelType, registrationNumber, engineSize, odometer, aiEvaluationConsent } = v;
    const body = {
      make,
      model,
      year,
      fuelType,
      registrationNumber,
      engineSize,
      odometer,
      aiEvaluationConsent,
    };
    const put = await ok(
      alice.put(`/api/vehicles/${id}`, { ...body, version: v.version, vin: 'uu1ksdaf456789012' }),
      200,
    );
    expect(put.data.vin).toBe('UU1KSDAF456789012');
    const en = (await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=en`)).text;
    expect(en).toContain('VIN UU1KSDAF456789012');
    expect((await pdf(alice, `/api/vehicles/${id}/report.pdf?lang=ro`)).text).toContain(
      'Serie șasiu (VIN) UU1KSDAF456789012',
    );
  });
});
