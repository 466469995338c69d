import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPdf } from '../ocr-dev/receipts.js';
import type { Receipt } from '../ocr-dev/types.js';
import { files, vehicleDocuments } from '../src/db/schema.js';
import { openPdf } from '../src/lib/pdfjs.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';
import { pdfText } from './helpers/pdf-text.js';

// Issue 52: a vehicle's papers. Pages are checked by their bytes, photos re-encoded without their
// metadata, PDFs kept unless encrypted or scripted; an expiry date makes a renewal; sharing and a
// marketplace sale decide who sees them.

const jpeg = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));
const png = readFileSync(new URL('./fixtures/wide.png', import.meta.url));
const text = readFileSync(new URL('./fixtures/not-an-image.txt', import.meta.url));

const pdf = (catalog = '/Type/Catalog/Pages 2 0 R', trailer = '/Root 1 0 R', extra = '') =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<<${catalog}>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n${extra}trailer<<${trailer}>>\n%%EOF\n`,
    'latin1',
  );
const plainPdf = pdf();
/** A real PDF (a Spanish workshop receipt, a scanned page in it): what a driver's papers are like. */
const realPdf = readFileSync(new URL('./fixtures/receipts/revision-es.pdf', import.meta.url));
/** `%PDF-` then nothing pdf.js can read: no preview can be drawn of it. */
const brokenPdf = Buffer.from('%PDF-1.7\nnot a PDF body at all\n%%EOF\n', 'latin1');
const encryptedPdf = pdf(undefined, '/Root 1 0 R/Encrypt 4 0 R');
const scriptPdf = pdf('/Type/Catalog/Pages 2 0 R/OpenAction<</S/JavaScript/JS(app.alert(1))>>');
const escapedScriptPdf = pdf('/Type/Catalog/Pages 2 0 R/OpenAction<</S/J#61vaScript/J#53(x)>>');
/** JavaScript hidden in a compressed object stream. */
const compressedScriptPdf = (() => {
  const body = deflateSync(Buffer.from('5 0 <</S/JavaScript/JS(app.alert(1))>>'));
  const head = Buffer.from(
    `%PDF-1.5\n4 0 obj<</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length ${body.length}>>stream\n`,
  );
  return Buffer.concat([head, body, Buffer.from('\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')]);
})();

let t: TestApp;
let owner: TestClient;
let editor: TestClient;
let editorName: string;
let viewer: TestClient;
let viewerName: string;
let stranger: TestClient;
let buyer: TestClient;
let n = 0;

beforeAll(async () => {
  // A 5 MB quota: small enough to reach with a hand-made PDF.
  t = await createTestApp({ DOCUMENT_QUOTA_MB: '5' });
  // The first account is the admin (who reaches every car): the owner is a plain user.
  await registered(t.app, 'docadmin');
  const o = await registered(t.app, 'docowner');
  owner = o.client;
  // A Romanian driver: an RCA's expiry makes an RCA renewal.
  await owner.put('/api/users/me', { username: o.account.username, email: o.account.email, country: 'RO' });
  const e = await registered(t.app, 'doceditor');
  editor = e.client;
  editorName = e.user.username;
  const v = await registered(t.app, 'docviewer');
  viewer = v.client;
  viewerName = v.user.username;
  stranger = (await registered(t.app, 'docstranger')).client;
  buyer = (await registered(t.app, 'docbuyer')).client;
});
afterAll(() => t.close());

const newCar = async (c: TestClient) => {
  n += 1;
  const res = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2017,
    fuelType: 'PETROL',
    registrationNumber: `DOC-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 1.2,
    odometer: 90_000,
    aiEvaluationConsent: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as number;
};

type Page = { filename: string; type: string; bytes: Buffer };
const send = (
  c: TestClient,
  url: string,
  data: Record<string, unknown> | undefined,
  pages: Page[],
  method: 'POST' | 'PUT' = 'POST',
) => {
  const { payload, headers } = multipart([
    ...(data ? [{ name: 'data', value: JSON.stringify(data) }] : []),
    ...pages.map((file) => ({ name: 'files', file })),
  ]);
  return c.request(method, url, payload, { headers });
};
const photo = (filename = 'rca.jpg'): Page => ({ filename, type: 'image/jpeg', bytes: jpeg });
const asPdf = (bytes: Buffer, filename = 'polita.pdf'): Page => ({
  filename,
  type: 'application/pdf',
  bytes,
});
const rca = {
  type: 'MTPL_INSURANCE',
  title: 'RCA Allianz',
  number: 'RO/25/123456',
  issuedOn: '2026-01-10',
  expiresOn: '2027-01-09',
};

const docsOf = async (c: TestClient, v: number) =>
  (await c.get(`/api/vehicles/${v}/documents`)).data as { id: number; title: string }[];
const fileCount = async () => Number((await t.database.db.select({ n: count() }).from(files))[0]?.n);

describe('uploading a document', () => {
  it('a photo is re-encoded without its GPS metadata, keeps its name, gets a preview, and its expiry makes an RCA renewal', async () => {
    const v = await newCar(owner);
    expect(jpeg.includes(Buffer.from('Exif'))).toBe(true); // with a GPS position
    const res = await send(owner, `/api/vehicles/${v}/documents`, rca, [photo('RCA 2026 ăî.jpg')]);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.data;
    expect(doc).toMatchObject({
      type: 'MTPL_INSURANCE',
      title: 'RCA Allianz',
      number: 'RO/25/123456',
      expiresOn: '2027-01-09',
      private: true, // an insurance policy names the insured: private unless unticked
      pages: [{ page: 1, name: 'RCA 2026 ăî.jpg', contentType: 'image/jpeg' }],
    });
    expect(doc.previewUrl).toBe(`/api/vehicles/${v}/documents/${doc.id}/file?preview=true`);

    const file = await owner.get(doc.pages[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('RCA 2026 ăî.jpg')}`,
    );
    expect(file.rawPayload.includes(Buffer.from('Exif'))).toBe(false);
    const again = await owner.get(doc.pages[0].url, {
      headers: { 'if-none-match': file.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const preview = await owner.get(doc.previewUrl);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(preview.rawPayload.length).toBeLessThan(file.rawPayload.length);

    const renewals = (await owner.get(`/api/vehicles/${v}/renewals`)).data;
    expect(renewals).toEqual([
      expect.objectContaining({
        id: doc.renewalId,
        type: 'RCA',
        validFrom: '2026-01-10',
        validUntil: '2027-01-09',
        note: 'RCA Allianz',
      }),
    ]);
    // The calendar feed lists it as any renewal.
    const feed = (await owner.get('/api/users/me/calendar')).data.url as string;
    const ics = await t.app.inject({ method: 'GET', url: new URL(feed).pathname });
    expect(ics.body).toContain('DTSTART;VALUE=DATE:20270109');
  });

  it("a PDF is kept byte for byte, downloads under its name, and its first page is drawn as the list's preview; another user's is 404", async () => {
    const v = await newCar(owner);
    const res = await send(owner, `/api/vehicles/${v}/documents`, { type: 'TECHNICAL_CARD', title: 'CIV' }, [
      asPdf(realPdf, 'civ.pdf'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({
      private: false,
      previewUrl: `/api/vehicles/${v}/documents/${res.data.id}/file?preview=true`,
      renewalId: null,
      pages: [{ contentType: 'application/pdf', name: 'civ.pdf' }],
    });
    const file = await owner.get(`${res.data.pages[0].url}?download=true`);
    expect(file.rawPayload.equals(realPdf)).toBe(true);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="civ.pdf"/);
    // The preview is a small JPEG of the page, with the receipt's dark print on it (not a blank sheet).
    const preview = await owner.get(res.data.previewUrl);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    const { default: sharp } = await import('sharp');
    const meta = await sharp(preview.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    const stats = await sharp(preview.rawPayload).stats();
    expect(stats.channels[0]?.min).toBeLessThan(60);
    expect(stats.channels[0]?.max).toBeGreaterThan(200);
    // Its bytes count towards the quota with the PDF's.
    expect(res.data.size).toBe(realPdf.length + preview.rawPayload.length);
    await expectError(await stranger.get(res.data.previewUrl), 404, 'NOT_FOUND');
  });

  it('a PDF pdf.js cannot draw is still stored, byte for byte, without a preview', async () => {
    const v = await newCar(owner);
    const res = await send(owner, `/api/vehicles/${v}/documents`, { type: 'WARRANTY', title: 'Garanție' }, [
      asPdf(brokenPdf, 'garantie.pdf'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({ previewUrl: null, size: brokenPdf.length });
    expect((await owner.get(res.data.pages[0].url)).rawPayload.equals(brokenPdf)).toBe(true);
    await expectError(
      await owner.get(`/api/vehicles/${v}/documents/${res.data.id}/file?preview=true`),
      404,
      'NOT_FOUND',
    );
  });

  it('several pages: a PNG is re-encoded as JPEG and downloads as .jpg; ?page=2 is the second', async () => {
    const v = await newCar(owner);
    const res = await send(owner, `/api/vehicles/${v}/documents`, { type: 'REGISTRATION', title: 'Talon' }, [
      photo('fata.jpg'),
      { filename: 'verso.png', type: 'image/png', bytes: png },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.pages.map((p: { name: string }) => p.name)).toEqual(['fata.jpg', 'verso.png']);
    const second = await owner.get(`/api/vehicles/${v}/documents/${res.data.id}/file?page=2`);
    expect(second.headers['content-type']).toBe('image/jpeg');
    expect(second.headers['content-disposition']).toContain('filename="verso.jpg"');
    expectError(await owner.get(`/api/vehicles/${v}/documents/${res.data.id}/file?page=3`), 404, 'NOT_FOUND');
  });

  it('refuses wrong bytes, encrypted and scripted PDFs (415 with the reason), and stores nothing of a refused upload', async () => {
    const v = await newCar(owner);
    const before = await fileCount();
    const url = `/api/vehicles/${v}/documents`;
    const data = { type: 'OTHER', title: 'x' };
    const refused = async (pages: Page[], reason: RegExp) => {
      const res = await send(owner, url, data, pages);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.data.message).toMatch(reason);
    };
    await refused([{ filename: 'a.jpg', type: 'image/jpeg', bytes: text }], /neither a photo .* nor a PDF/);
    await refused([asPdf(encryptedPdf)], /encrypted/);
    await refused([asPdf(scriptPdf)], /JavaScript/);
    await refused([asPdf(escapedScriptPdf)], /JavaScript/);
    await refused([asPdf(compressedScriptPdf)], /JavaScript/);
    // A good first page does not get stored when the second is refused.
    await refused([photo(), { filename: 'b.png', type: 'image/png', bytes: text }], /neither/);
    expect(await docsOf(owner, v)).toEqual([]);
    expect(await fileCount()).toBe(before);
  });

  it('field errors name the field; no page is 400 on files', async () => {
    const v = await newCar(owner);
    const url = `/api/vehicles/${v}/documents`;
    expectInvalid(await send(owner, url, { type: 'PASSPORT', title: 'x' }, [photo()]), 'type');
    expectInvalid(await send(owner, url, { type: 'OTHER', title: '' }, [photo()]), 'title');
    expectInvalid(await send(owner, url, { ...rca, expiresOn: '2025-01-01' }, [photo()]), 'expiresOn');
    expectInvalid(await send(owner, url, { type: 'OTHER', title: 'x' }, []), 'files');
    expectInvalid(await send(owner, url, undefined, [photo()]), 'data');
  });

  it('over 20 MB in all is 413; past the storage quota is 413 with what is used', async () => {
    const v = await newCar(owner);
    const url = `/api/vehicles/${v}/documents`;
    const big = Buffer.concat([plainPdf, Buffer.alloc(11 * 1024 * 1024, 0x20)]);
    const res = await send(owner, url, { type: 'OTHER', title: 'big' }, [
      asPdf(big, 'a.pdf'),
      asPdf(big, 'b.pdf'),
    ]);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.data.message).toContain('20 MB');

    // The quota here is 5 MB: a 2.6 MB PDF passes once, not twice.
    const quotaUser = (await registered(t.app, 'docquota')).client;
    const qv = await newCar(quotaUser);
    const almost = Buffer.concat([plainPdf, Buffer.alloc(2.6 * 1024 * 1024, 0x20)]);
    const first = await send(quotaUser, `/api/vehicles/${qv}/documents`, { type: 'OTHER', title: 'one' }, [
      asPdf(almost),
    ]);
    expect(first.statusCode, first.body).toBe(201);
    const second = await send(quotaUser, `/api/vehicles/${qv}/documents`, { type: 'OTHER', title: 'two' }, [
      asPdf(almost),
    ]);
    expectError(second, 413, 'PAYLOAD_TOO_LARGE');
    expect(second.data.message).toMatch(/2\.6 MB of 5\.0 MB used/);
    // Used: the PDF and the preview drawn of its (blank) page.
    expect(second.data.details).toMatchObject({ usedBytes: first.data.size, quotaBytes: 5 * 1024 * 1024 });
    expect(first.data.size).toBeGreaterThan(almost.length);
    expect((await docsOf(quotaUser, qv)).map((d) => d.title)).toEqual(['one']);
  });
});

describe('the renewal an expiry date makes', () => {
  it("next year's document moves the reminder; a changed date moves it; no date or deleting removes it", async () => {
    const v = await newCar(owner);
    const url = `/api/vehicles/${v}/documents`;
    const first = (
      await send(owner, url, { type: 'INSPECTION', title: 'ITP 2026', expiresOn: '2026-12-20' }, [
        photo('itp.jpg'),
      ])
    ).data;
    expect(first.renewalId).toEqual(expect.any(Number));
    const next = (
      await send(owner, url, { type: 'INSPECTION', title: 'ITP 2027', expiresOn: '2027-12-20' }, [
        photo('itp2.jpg'),
      ])
    ).data;
    expect(next.renewalId).toBe(first.renewalId);
    expect((await owner.get(`${url}/${first.id}`)).data.renewalId).toBeNull();
    const renewals = async () => (await owner.get(`/api/vehicles/${v}/renewals`)).data;
    expect(await renewals()).toEqual([
      expect.objectContaining({
        id: first.renewalId,
        type: 'ITP',
        validUntil: '2027-12-20',
        note: 'ITP 2027',
      }),
    ]);

    // PUT (JSON) with a new date moves it again; the version guards the change.
    const put = await owner.put(`${url}/${next.id}`, {
      type: 'INSPECTION',
      title: 'ITP 2027',
      expiresOn: '2028-01-05',
      version: next.version,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.data.version).toBe(next.version + 1);
    expect((await renewals())[0].validUntil).toBe('2028-01-05');
    expectError(
      await owner.put(`${url}/${next.id}`, { type: 'INSPECTION', title: 'x', version: next.version }),
      409,
      'VERSION_CONFLICT',
    );

    // PUT multipart replaces the pages: the old page's file is gone.
    const oldPage = put.data.pages[0].url;
    const replaced = await send(
      owner,
      `${url}/${next.id}`,
      { type: 'INSPECTION', title: 'ITP 2027', expiresOn: '2028-01-05' },
      [asPdf(plainPdf, 'itp.pdf')],
      'PUT',
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.data.pages).toEqual([
      expect.objectContaining({ name: 'itp.pdf', contentType: 'application/pdf' }),
    ]);
    expect((await owner.get(oldPage)).rawPayload.equals(plainPdf)).toBe(true);

    // No expiry: the renewal goes.
    await owner.put(`${url}/${next.id}`, { type: 'INSPECTION', title: 'ITP 2027', expiresOn: null });
    expect(await renewals()).toEqual([]);
    // Deleting a document with an expiry deletes its renewal.
    const third = (
      await send(owner, url, { type: 'VIGNETTE', title: 'Rovinietă', expiresOn: '2026-09-30' }, [photo()])
    ).data;
    expect(await renewals()).toEqual([expect.objectContaining({ type: 'ROVINIETA' })]);
    expect((await owner.delete(`${url}/${third.id}`)).statusCode).toBe(204);
    expect(await renewals()).toEqual([]);
    expectError(await owner.get(`${url}/${third.id}`), 404, 'NOT_FOUND');
  });
});

describe('who reaches a document', () => {
  it('viewer reads and downloads; editor adds and edits; only the owner deletes; anyone else gets 404 and no data', async () => {
    const v = await newCar(owner);
    expect(
      (await owner.post(`/api/vehicles/${v}/shares`, { username: viewerName, role: 'VIEWER' })).statusCode,
    ).toBe(201);
    expect(
      (await owner.post(`/api/vehicles/${v}/shares`, { username: editorName, role: 'EDITOR' })).statusCode,
    ).toBe(201);
    const url = `/api/vehicles/${v}/documents`;
    const doc = (await send(owner, url, { type: 'WARRANTY', title: 'Garanție' }, [photo()])).data;
    const one = `${url}/${doc.id}`;
    const edit = { type: 'WARRANTY', title: 'Garanție baterie' };

    // viewer
    expect((await viewer.get(url)).data.map((d: { id: number }) => d.id)).toEqual([doc.id]);
    expect((await viewer.get(doc.pages[0].url)).statusCode).toBe(200);
    expectError(await send(viewer, url, edit, [photo()]), 403, 'FORBIDDEN');
    expectError(await viewer.put(one, edit), 403, 'FORBIDDEN');
    expectError(await viewer.delete(one), 403, 'FORBIDDEN');
    // editor
    const added = await send(editor, url, { type: 'INVOICE', title: 'Factură service' }, [photo()]);
    expect(added.statusCode, added.body).toBe(201);
    expect((await editor.put(one, edit)).data.title).toBe('Garanție baterie');
    expectError(await editor.delete(one), 403, 'FORBIDDEN');
    // a stranger: 404 on every route, nothing of the document in the answer
    for (const res of [
      await stranger.get(url),
      await stranger.get(one),
      await stranger.get(doc.pages[0].url),
      await stranger.get(doc.previewUrl),
      await send(stranger, url, edit, [photo()]),
      await stranger.put(one, edit),
      await stranger.delete(one),
    ]) {
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('Garanție');
    }
    // the owner deletes
    expect((await owner.delete(one)).statusCode).toBe(204);
    expect((await owner.get(url)).data.map((d: { title: string }) => d.title)).toEqual(['Factură service']);
  });

  it('a sale hands the documents to the buyer, minus the private ones (deleted with their files)', async () => {
    const v = await newCar(owner);
    const url = `/api/vehicles/${v}/documents`;
    const talon = (await send(owner, url, { type: 'REGISTRATION', title: 'Talon' }, [photo()])).data;
    const civ = (await send(owner, url, { type: 'TECHNICAL_CARD', title: 'CIV' }, [asPdf(plainPdf)])).data;
    const invoice = (await send(owner, url, { type: 'INVOICE', title: 'Factură', private: false }, [photo()]))
      .data;
    const notes = (await send(owner, url, { type: 'OTHER', title: 'Notițe', private: true }, [photo()])).data;
    expect([talon.private, civ.private, invoice.private, notes.private]).toEqual([true, false, false, true]);
    const talonFile = (
      await t.database.db.select().from(vehicleDocuments).where(eq(vehicleDocuments.id, talon.id))
    )[0]?.previewFileId;

    const listing = await owner.post('/api/marketplace/list', { vehicleId: v, price: 4000 });
    expect(listing.statusCode, listing.body).toBe(201);
    const interestId = (await buyer.post(`/api/marketplace/interest/${listing.data.id}`)).data.interestId;
    expect((await owner.patch(`/api/marketplace/transfer/${interestId}`)).statusCode).toBe(200);

    expect((await buyer.get(url)).data.map((d: { title: string }) => d.title).sort()).toEqual([
      'CIV',
      'Factură',
    ]);
    expect((await buyer.get(civ.pages[0].url)).rawPayload.equals(plainPdf)).toBe(true);
    expectError(await buyer.get(talon.pages[0].url), 404, 'NOT_FOUND');
    expectError(await owner.get(url), 404, 'NOT_FOUND');
    expect(talonFile && (await t.database.db.select().from(files).where(eq(files.id, talonFile)))).toEqual(
      [],
    );
  });
});

it('the account export holds the documents under their names', async () => {
  const c = await registered(t.app, 'docexport');
  const v = await newCar(c.client);
  await send(c.client, `/api/vehicles/${v}/documents`, { type: 'OTHER', title: 'Contract' }, [
    asPdf(plainPdf, 'contract.pdf'),
  ]);
  const res = await c.client.get('/api/account/export');
  expect(res.statusCode).toBe(200);
  const { unzipSync } = await import('fflate');
  const zip = unzipSync(new Uint8Array(res.rawPayload));
  const names = Object.keys(zip);
  expect(names.some((x) => /^documents\/vehicle-\d+\/\d+-1-contract\.pdf$/.test(x))).toBe(true);
  expect(names).toContain('documents.json');
  expect(names.filter((x) => x.startsWith('photos/'))).toEqual([]);
});

it('the history report lists the papers that are not private: type, number, validity', async () => {
  const v = await newCar(owner);
  const url = `/api/vehicles/${v}/documents`;
  await send(
    owner,
    url,
    { type: 'INSPECTION', title: 'ITP', number: 'ITP-778', issuedOn: '2026-03-01', expiresOn: '2028-03-01' },
    [photo()],
  );
  await send(owner, url, { type: 'REGISTRATION', title: 'Talon', number: 'SECRET-123' }, [photo()]);
  const link = await owner.post(`/api/vehicles/${v}/report-links`, { expiresInDays: 1 });
  expect(link.statusCode, link.body).toBe(201);
  const page = await t.app.inject({ method: 'GET', url: `/r/${link.data.token}?lang=ro` });
  expect(page.body).toContain('ITP-778');
  expect(page.body).toContain('ITP');
  expect(page.body).toMatch(/01\.03\.2026 – 01\.03\.2028|2026.+–.+2028/);
  // The registration certificate is private by default: not in a report anyone with the link reads.
  expect(page.body).not.toContain('SECRET-123');
});

it('a kept history report is drawn again when a paper is added or made private (issue 54)', async () => {
  const v = await newCar(owner);
  const url = `/api/vehicles/${v}/documents`;
  const report = async () => {
    const res = await owner.get(`/api/vehicles/${v}/report.pdf?lang=en`);
    expect(res.statusCode).toBe(200);
    return pdfText(res.rawPayload);
  };
  expect(await report()).not.toContain('WTY-901');
  // Without a validity a paper makes no renewal (which would be a new records version): the paper alone.
  const paper = { type: 'OTHER', title: 'Warranty', number: 'WTY-901' };
  const doc = (await send(owner, url, { ...paper, private: false }, [photo()])).data;
  expect(await report()).toContain('WTY-901');
  const put = await owner.put(`${url}/${doc.id}`, { ...paper, private: true, version: doc.version });
  expect(put.statusCode, put.body).toBe(200);
  expect(await report()).not.toContain('WTY-901');
});

describe('the first pages in the history report (the owner ticks it)', () => {
  /** Image XObjects in a PDF: a page photo embedded in the report is one. */
  const images = (bytes: Buffer) => (bytes.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length;
  const pages = (bytes: Buffer) => (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  const report = async (c: TestClient, url: string) => {
    const res = await c.get(url);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return res.rawPayload;
  };

  it("pages=1 from the owner embeds each non-private document's first page, a photo's or a PDF's; without it, none; a viewer asking gets none", async () => {
    const v = await newCar(owner);
    expect(
      (await owner.post(`/api/vehicles/${v}/shares`, { username: viewerName, role: 'VIEWER' })).statusCode,
    ).toBe(201);
    const url = `/api/vehicles/${v}/documents`;
    const itp = { type: 'INSPECTION', title: 'ITP', number: 'ITP-9', expiresOn: '2028-05-01' };
    expect((await send(owner, url, itp, [photo('itp.jpg'), photo('itp-2.jpg')])).statusCode).toBe(201);
    expect(
      (await send(owner, url, { type: 'WARRANTY', title: 'Garanție' }, [asPdf(realPdf, 'garantie.pdf')]))
        .statusCode,
    ).toBe(201);
    // Private by default (the registration certificate, the RCA): their pages never go into a report.
    expect((await send(owner, url, { type: 'REGISTRATION', title: 'Talon' }, [photo()])).statusCode).toBe(
      201,
    );
    expect((await send(owner, url, rca, [photo()])).statusCode).toBe(201);

    const plain = await report(owner, `/api/vehicles/${v}/report.pdf?lang=ro`);
    expect(images(plain)).toBe(0);

    const withPages = await report(owner, `/api/vehicles/${v}/report.pdf?lang=ro&pages=1`);
    // Two images: the ITP's first page (not its second, not the private talon or RCA) and the
    // warranty PDF's first page, drawn at a printable size (larger than the list's 320 px preview).
    expect(images(withPages)).toBe(2);
    const widths = [...withPages.toString('latin1').matchAll(/\/Width (\d+)/g)].map((m) => Number(m[1]));
    expect(widths).toContain(1280);
    expect(pages(withPages)).toBeGreaterThan(pages(plain));

    // A viewer of the shared car may download the report, but the pages are the owner's to show.
    const viewed = await report(viewer, `/api/vehicles/${v}/report.pdf?lang=ro&pages=1`);
    expect(images(viewed)).toBe(0);
    expect(pages(viewed)).toBe(pages(plain));
    // A stranger: 404 as for any report of a car they do not reach.
    await expectError(await stranger.get(`/api/vehicles/${v}/report.pdf?pages=1`), 404, 'NOT_FOUND');
    // A value that is not a choice is a field error.
    expect((await owner.get(`/api/vehicles/${v}/report.pdf?pages=maybe`)).statusCode).toBe(400);
  });

  it('the appendix names a PDF document whose page cannot be drawn (ro text)', async () => {
    const v = await newCar(owner);
    await send(owner, `/api/vehicles/${v}/documents`, { type: 'WARRANTY', title: 'Garanție' }, [
      asPdf(brokenPdf, 'garantie.pdf'),
    ]);
    const bytes = await report(owner, `/api/vehicles/${v}/report.pdf?lang=ro&pages=1`);
    const doc = await openPdf(new Uint8Array(bytes));
    const last = await (await doc.getPage(doc.numPages)).getTextContent();
    const text = last.items
      .map((i) => ('str' in i ? i.str : ''))
      .join(' ')
      .replace(/\s+/g, ' ');
    await doc.destroy();
    expect(text).toContain('Acte: prima pagină');
    expect(text).toContain('Garanție');
    expect(text).toContain('PDF, neinclus în acest raport.');
  });
});

it("scanning an ITP certificate proposes its expiry and saves nothing; another user's car is 404", async () => {
  const v = await newCar(owner);
  const certificate = receiptPdf({
    lines: [
      { text: 'CERTIFICAT DE INSPECTIE TEHNICA PERIODICA' },
      { text: 'Data inspectiei: 14.05.2025' },
      { text: 'Valabil pana la: 13.05.2027' },
    ],
  } as Receipt);
  const scan = (c: TestClient) => {
    const { payload, headers } = multipart([
      { name: 'file', file: { filename: 'itp.pdf', type: 'application/pdf', bytes: certificate } },
    ]);
    return c.request('POST', `/api/inspection-ocr/preview/${v}`, payload, { headers });
  };
  const before = await fileCount();
  const res = await scan(owner);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.data).toMatchObject({ expiresOn: '2027-05-13', language: 'ro', source: 'pdf-text' });
  expect(res.data.confidence.expiresOn).toBeGreaterThan(0.5);
  expect(await docsOf(owner, v)).toEqual([]);
  expect(await fileCount()).toBe(before);
  await expectError(await scan(stranger), 404, 'NOT_FOUND');
});
