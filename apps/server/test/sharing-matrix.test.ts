import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { type Res, registered, type TestClient } from './helpers/client.js';
import { multipart } from './helpers/multipart.js';

// The access matrix of issue 22: EVERY operation of the OpenAPI document whose path takes an id ×
// {owner, editor, viewer, stranger, admin}, plus the creates that name a vehicle in their body.
// The table is checked against the document: a new id route without an entry fails this test.

const ROLES = ['owner', 'editor', 'viewer', 'stranger', 'admin'] as const;
type Role = (typeof ROLES)[number];
/** 'ok': a 2xx; 'passes': past the access check (any answer but 403/404, e.g. an unreadable receipt). */
type Expect = 'ok' | 'passes' | 403 | 404;
type Matrix = Record<Role, Expect>;

/** Read: everyone the car is shared with, and admins. */
const READ: Matrix = { owner: 'ok', editor: 'ok', viewer: 'ok', stranger: 404, admin: 'ok' };
/** Writing the car's records: not a viewer. */
const WRITE: Matrix = { owner: 'ok', editor: 'ok', viewer: 403, stranger: 404, admin: 'ok' };
/** The car itself (edit, delete, photo, share): its owner and admins. */
const OWNER: Matrix = { owner: 'ok', editor: 403, viewer: 403, stranger: 404, admin: 'ok' };
/** A car's papers: deleted by its owner (and admins) only, an editor adds and edits (issue 52). */
const DOC_DELETE: Matrix = OWNER;
/** The AI of a car: who reaches it, but not admins (as before sharing). */
const AI_READ: Matrix = { owner: 'ok', editor: 'ok', viewer: 'ok', stranger: 404, admin: 404 };

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const jpeg = fixture('car-gps.jpg');

type Fx = {
  vehicleId: number;
  registrationNumber: string;
  version: number;
  insuranceId: number;
  expenseId: number;
  fuelId: number;
  revisionId: number;
  renewalId: number;
  reportToken: string;
  fileId: string;
  /** A document of the car's papers (issue 52), when the route needs one. */
  documentId: number;
};

let t: TestApp;
const c = {} as Record<Role | 'third', TestClient>;
const ids = {} as Record<Role | 'third', number>;
const names = {} as Record<Role | 'third', string>;
let n = 0;

const car = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'DIESEL',
  registrationNumber: reg,
  engineSize: 1.5,
  odometer: 90_000,
  aiEvaluationConsent: true,
});
const bodies = {
  insurance: (v: number) => ({
    vehicleId: v,
    provider: 'Allianz',
    startDate: '2025-03-01',
    endDate: '2026-02-28',
    price: 412.5,
  }),
  expense: (v: number) => ({ vehicleId: v, date: '2025-04-02', expenseType: 'Tyres', amount: 380 }),
  fuel: (v: number) => ({ vehicleId: v, fuelType: 'DIESEL', liters: 40, fuelPrice: 290, date: '2025-01-01' }),
  revision: (v: number) => ({ vehicleId: v, date: '2025-05-10', km: 91_000, price: 650 }),
  renewal: { type: 'ITP', validFrom: '2025-03-01', validUntil: '2027-02-28', price: 150 },
};
/** A LubeLogger fill-up after the fixture's own, as a file to import. */
const lubeLogger = Buffer.from(
  'Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags\n12/1/2025,99000,40,70,0,True,False,,\n',
);
/** Importing into a car: its owner and admins; anyone else learns nothing of it (404, as the issue asks). */
const IMPORT: Matrix = { owner: 'ok', editor: 404, viewer: 404, stranger: 404, admin: 'ok' };

const must = (res: Res, status: number) => {
  if (res.statusCode !== status) throw new Error(`${res.statusCode} ${res.body}`);
  return res.data;
};

/** The owner's car, shared with the editor and the viewer, with one record of each kind and a photo. */
async function makeFixture(withPhoto = false, withDocument = false): Promise<Fx> {
  n += 1;
  const reg = `MX-${n}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const v = must(await c.owner.post('/api/vehicles', car(reg)), 201);
  must(await c.owner.post(`/api/vehicles/${v.id}/shares`, { username: names.editor, role: 'EDITOR' }), 201);
  must(await c.owner.post(`/api/vehicles/${v.id}/shares`, { username: names.viewer, role: 'VIEWER' }), 201);
  const insurance = must(await c.owner.post('/api/insurance', bodies.insurance(v.id)), 201);
  const expense = must(await c.owner.post('/api/expenses', bodies.expense(v.id)), 201);
  const fuel = must(await c.owner.post('/api/fuel-consumptions', bodies.fuel(v.id)), 201);
  const revision = must(await c.owner.post('/api/revision', bodies.revision(v.id)), 201);
  const renewal = must(await c.owner.post(`/api/vehicles/${v.id}/renewals`, bodies.renewal), 201);
  const link = must(await c.owner.post(`/api/vehicles/${v.id}/report-links`, { expiresInDays: 7 }), 201);
  let fileId = 'AAAAAAAAAAAAAAAAAAAAAA';
  if (withPhoto) {
    const { payload, headers } = multipart([
      { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } },
    ]);
    const url = (await c.owner.request('POST', `/api/vehicles/${v.id}/upload-photo`, payload, { headers }))
      .body;
    fileId = url.split('/').pop() as string;
  }
  let documentId = 0;
  if (withDocument) {
    const doc = await upload(c.owner, `/api/vehicles/${v.id}/documents`, documentParts);
    documentId = must(doc, 201).id;
  }
  const current = must(await c.owner.get(`/api/vehicles/${v.id}`), 200);
  return {
    vehicleId: v.id,
    registrationNumber: reg,
    version: current.version,
    insuranceId: insurance.id,
    expenseId: expense.id,
    fuelId: fuel.id,
    revisionId: revision.id,
    renewalId: renewal.id,
    reportToken: link.token,
    fileId,
    documentId,
  };
}

type Send = (client: TestClient, f: Fx) => Promise<Res>;
const upload = (client: TestClient, url: string, parts: Parameters<typeof multipart>[0], method = 'POST') => {
  const { payload, headers } = multipart(parts);
  return client.request(method as 'POST', url, payload, { headers });
};
const notAnImage = { filename: 'r.txt', type: 'text/plain', bytes: Buffer.from('not an image') };
const documentParts = [
  { name: 'data', value: JSON.stringify({ type: 'WARRANTY', title: 'Garanție' }) },
  { name: 'files', file: { filename: 'warranty.jpg', type: 'image/jpeg', bytes: jpeg } },
];

/** Every id-taking operation: how to send it, and what each role gets. */
const ROUTES: Record<string, { send: Send; expect: Matrix; photo?: boolean; document?: boolean }> = {
  'GET /api/vehicles/{id}': { send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}`), expect: READ },
  'PUT /api/vehicles/{id}': {
    send: (x, f) =>
      x.put(`/api/vehicles/${f.vehicleId}`, {
        ...car(f.registrationNumber),
        model: 'Duster',
        version: f.version,
      }),
    expect: OWNER,
  },
  'PATCH /api/vehicles/{id}': {
    send: (x, f) =>
      upload(
        x,
        `/api/vehicles/${f.vehicleId}`,
        [{ name: 'data', value: JSON.stringify({ ...car(f.registrationNumber), version: f.version }) }],
        'PATCH',
      ),
    expect: OWNER,
  },
  'DELETE /api/vehicles/{id}': { send: (x, f) => x.delete(`/api/vehicles/${f.vehicleId}`), expect: OWNER },
  'POST /api/vehicles/{id}/upload-photo': {
    send: (x, f) =>
      upload(x, `/api/vehicles/${f.vehicleId}/upload-photo`, [
        { name: 'file', file: { filename: 'car.jpg', type: 'image/jpeg', bytes: jpeg } },
      ]),
    expect: OWNER,
  },
  'GET /api/files/{id}': { send: (x, f) => x.get(`/api/files/${f.fileId}`), expect: READ, photo: true },
  'GET /api/vehicles/{id}/shares': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/shares`),
    expect: READ,
  },
  'POST /api/vehicles/{id}/shares': {
    send: (x, f) => x.post(`/api/vehicles/${f.vehicleId}/shares`, { username: names.third, role: 'VIEWER' }),
    expect: OWNER,
  },
  'PUT /api/vehicles/{id}/shares/{userId}': {
    send: (x, f) => x.put(`/api/vehicles/${f.vehicleId}/shares/${ids.viewer}`, { role: 'EDITOR' }),
    expect: OWNER,
  },
  // The viewer's own share: the owner revokes it, the viewer may leave, the editor may not remove it.
  'DELETE /api/vehicles/{id}/shares/{userId}': {
    send: (x, f) => x.delete(`/api/vehicles/${f.vehicleId}/shares/${ids.viewer}`),
    expect: { ...OWNER, viewer: 'ok' },
  },
  'GET /api/insurance/vehicle/{vehicleId}': {
    send: (x, f) => x.get(`/api/insurance/vehicle/${f.vehicleId}`),
    expect: READ,
  },
  'POST /api/insurance': {
    send: (x, f) => x.post('/api/insurance', bodies.insurance(f.vehicleId)),
    expect: WRITE,
  },
  'PUT /api/insurance/{id}': {
    send: (x, f) =>
      x.put(`/api/insurance/${f.insuranceId}`, { ...bodies.insurance(f.vehicleId), price: 500 }),
    expect: WRITE,
  },
  'DELETE /api/insurance/{id}': {
    send: (x, f) => x.delete(`/api/insurance/${f.insuranceId}`),
    expect: WRITE,
  },
  'PUT /api/insurance/{id}/toggle-reminder': {
    send: (x, f) => x.put(`/api/insurance/${f.insuranceId}/toggle-reminder`),
    expect: WRITE,
  },
  'GET /api/expenses/vehicle/{vehicleId}': {
    send: (x, f) => x.get(`/api/expenses/vehicle/${f.vehicleId}`),
    expect: READ,
  },
  'POST /api/expenses': {
    send: (x, f) => x.post('/api/expenses', bodies.expense(f.vehicleId)),
    expect: WRITE,
  },
  'PUT /api/expenses/{id}': {
    send: (x, f) => x.put(`/api/expenses/${f.expenseId}`, { ...bodies.expense(f.vehicleId), amount: 1 }),
    expect: WRITE,
  },
  'DELETE /api/expenses/{id}': { send: (x, f) => x.delete(`/api/expenses/${f.expenseId}`), expect: WRITE },
  'GET /api/fuel-consumptions/vehicle/{vehicleId}': {
    send: (x, f) => x.get(`/api/fuel-consumptions/vehicle/${f.vehicleId}`),
    expect: READ,
  },
  'POST /api/fuel-consumptions': {
    send: (x, f) => x.post('/api/fuel-consumptions', { ...bodies.fuel(f.vehicleId), date: '2025-02-01' }),
    expect: WRITE,
  },
  'PUT /api/fuel-consumptions/{id}': {
    send: (x, f) => x.put(`/api/fuel-consumptions/${f.fuelId}`, { ...bodies.fuel(f.vehicleId), liters: 41 }),
    expect: WRITE,
  },
  'DELETE /api/fuel-consumptions/{id}': {
    send: (x, f) => x.delete(`/api/fuel-consumptions/${f.fuelId}`),
    expect: WRITE,
  },
  'GET /api/revision/vehicle/{vehicleId}': {
    send: (x, f) => x.get(`/api/revision/vehicle/${f.vehicleId}`),
    expect: READ,
  },
  'POST /api/revision': {
    send: (x, f) => x.post('/api/revision', bodies.revision(f.vehicleId)),
    expect: WRITE,
  },
  'PUT /api/revision/{id}': {
    send: (x, f) => x.put(`/api/revision/${f.revisionId}`, { ...bodies.revision(f.vehicleId), price: 700 }),
    expect: WRITE,
  },
  'DELETE /api/revision/{id}': { send: (x, f) => x.delete(`/api/revision/${f.revisionId}`), expect: WRITE },
  'PUT /api/revision/{id}/toggle-reminder': {
    send: (x, f) => x.put(`/api/revision/${f.revisionId}/toggle-reminder`),
    expect: WRITE,
  },
  'PUT /api/revision/{id}/manual-reminder': {
    send: (x, f) => x.put(`/api/revision/${f.revisionId}/manual-reminder`, { reminderDate: '2026-05-01' }),
    expect: WRITE,
  },
  ...Object.fromEntries(
    // inspection: an ITP / ITV certificate's expiry for the document form (issue 52).
    ['fuel', 'expense', 'revision', 'insurance', 'inspection'].map((kind) => [
      `POST /api/${kind}-ocr/preview/{vehicleId}`,
      {
        // Past the access check, a text file is refused for what it is (415).
        send: (x: TestClient, f: Fx) =>
          upload(x, `/api/${kind}-ocr/preview/${f.vehicleId}`, [{ name: 'file', file: notAnImage }]),
        expect: { ...WRITE, owner: 'passes', editor: 'passes', admin: 'passes' } as Matrix,
      },
    ]),
  ),
  ...Object.fromEntries(
    ['recompute', 'total', 'yearly'].map((kind) => [
      `GET /api/analytics/vehicle/{vehicleId}/${kind}`,
      {
        send: (x: TestClient, f: Fx) => x.get(`/api/analytics/vehicle/${f.vehicleId}/${kind}`),
        expect: READ,
      },
    ]),
  ),
  'POST /api/vehicles/{id}/evaluate-ai': {
    send: (x, f) => x.post(`/api/vehicles/${f.vehicleId}/evaluate-ai`),
    expect: { ...OWNER, admin: 404 },
  },
  'GET /ai-feedback/vehicle/{vehicleId}/performance': {
    send: (x, f) => x.get(`/ai-feedback/vehicle/${f.vehicleId}/performance`),
    expect: AI_READ,
  },
  'GET /ai-feedback/vehicle/{vehicleId}/fuel': {
    send: (x, f) => x.get(`/ai-feedback/vehicle/${f.vehicleId}/fuel`),
    expect: AI_READ,
  },
  'GET /api/vehicles/{id}/renewals': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/renewals`),
    expect: READ,
  },
  'POST /api/vehicles/{id}/renewals': {
    send: (x, f) => x.post(`/api/vehicles/${f.vehicleId}/renewals`, bodies.renewal),
    expect: WRITE,
  },
  'GET /api/vehicles/{id}/renewals/{renewalId}': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/renewals/${f.renewalId}`),
    expect: READ,
  },
  'PUT /api/vehicles/{id}/renewals/{renewalId}': {
    send: (x, f) =>
      x.put(`/api/vehicles/${f.vehicleId}/renewals/${f.renewalId}`, {
        ...bodies.renewal,
        price: 160,
        version: 0,
      }),
    expect: WRITE,
  },
  'DELETE /api/vehicles/{id}/renewals/{renewalId}': {
    send: (x, f) => x.delete(`/api/vehicles/${f.vehicleId}/renewals/${f.renewalId}`),
    expect: WRITE,
  },
  'GET /api/vehicles/{id}/documents': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/documents`),
    expect: READ,
  },
  'POST /api/vehicles/{id}/documents': {
    send: (x, f) => upload(x, `/api/vehicles/${f.vehicleId}/documents`, documentParts),
    expect: WRITE,
  },
  'GET /api/vehicles/{id}/documents/{docId}': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/documents/${f.documentId}`),
    expect: READ,
    document: true,
  },
  'PUT /api/vehicles/{id}/documents/{docId}': {
    send: (x, f) =>
      x.put(`/api/vehicles/${f.vehicleId}/documents/${f.documentId}`, {
        type: 'WARRANTY',
        title: 'Garanție baterie',
      }),
    expect: WRITE,
    document: true,
  },
  'DELETE /api/vehicles/{id}/documents/{docId}': {
    send: (x, f) => x.delete(`/api/vehicles/${f.vehicleId}/documents/${f.documentId}`),
    expect: DOC_DELETE,
    document: true,
  },
  'GET /api/vehicles/{id}/documents/{docId}/file': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/documents/${f.documentId}/file`),
    expect: READ,
    document: true,
  },
  'GET /api/vehicles/{id}/report.pdf': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/report.pdf?lang=en`),
    expect: READ,
  },
  'POST /api/vehicles/{id}/report-links': {
    send: (x, f) => x.post(`/api/vehicles/${f.vehicleId}/report-links`, { expiresInDays: 3 }),
    expect: OWNER,
  },
  'GET /api/vehicles/{id}/report-links': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/report-links`),
    expect: OWNER,
  },
  'DELETE /api/vehicles/{id}/report-links/{token}': {
    send: (x, f) => x.delete(`/api/vehicles/${f.vehicleId}/report-links/${f.reportToken}`),
    expect: OWNER,
  },
  'GET /api/vehicles/{vehicleId}/export.csv': {
    send: (x, f) => x.get(`/api/vehicles/${f.vehicleId}/export.csv`),
    expect: READ,
  },
  ...Object.fromEntries(
    ['preview', 'confirm'].map((step) => [
      `POST /api/import/${step}/{vehicleId}`,
      {
        send: (x: TestClient, f: Fx) =>
          upload(x, `/api/import/${step}/${f.vehicleId}`, [
            { name: 'file', file: { filename: 'gas.csv', type: 'text/csv', bytes: lubeLogger } },
          ]),
        expect: IMPORT,
      },
    ]),
  ),
};

/** Id-taking operations about something other than a vehicle (their own tests and the fuzzer's matrix cover them). */
const NOT_VEHICLE_SCOPED: Record<string, string> = {
  'PUT /api/admin/users/{id}': 'a user account (admin only)',
  'DELETE /api/admin/users/{id}': 'a user account (admin only)',
  'PATCH /api/notifications/{id}/clear': "a user's own notification",
  'PATCH /api/marketplace/edit/{id}': 'a listing (its seller)',
  'PATCH /api/marketplace/edit-with-photos/{id}': 'a listing (its seller)',
  'DELETE /api/marketplace/delete-permanent/{id}': 'a listing (its seller)',
  'GET /api/marketplace/photos/{fileId}': 'a public listing photo',
  'GET /api/marketplace/listings/{id}': 'a public listing (inactive: its seller or an admin)',
  'POST /api/marketplace/interest/{listingId}': 'a public listing',
  'DELETE /api/marketplace/conversations/{interestId}': 'a conversation (its two parties)',
  'GET /api/marketplace/chat/{interestId}': 'a conversation (its two parties)',
  'POST /api/marketplace/chat/{interestId}': 'a conversation (its two parties)',
  'PATCH /api/marketplace/transfer/{interestId}': 'a conversation (its seller)',
  'GET /api/report/verify/{code}': 'a printed report (public by design: the code is the proof)',
  'GET /api/calendar/{token}.ics': "a user's own calendar (the secret token is the login)",
  // Issue 53: the caller's own tokens and webhooks (another user's id: 404, api-tokens / webhooks tests).
  'DELETE /api/tokens/{id}': "a user's own API token",
  'PUT /api/webhooks/{id}': "a user's own webhook",
  'DELETE /api/webhooks/{id}': "a user's own webhook",
  'GET /api/webhooks/{id}/deliveries': "a user's own webhook",
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/resend': "a user's own webhook",
};

beforeAll(async () => {
  t = await createTestApp();
  // The first account is the administrator.
  for (const role of ['admin', 'owner', 'editor', 'viewer', 'stranger', 'third'] as const) {
    const r = await registered(t.app, role);
    c[role] = r.client;
    ids[role] = r.user.id;
    names[role] = r.user.username;
  }
  expect(c.admin.user?.role).toBe('ADMIN');
}, 60_000);
afterAll(() => t.close());

describe('the access matrix: every id route × owner, editor, viewer, stranger, admin', () => {
  it('has an entry for every operation that takes an id in its path', async () => {
    const { data } = await c.owner.get('/api/openapi.json');
    const operations = Object.entries<Record<string, unknown>>(data.paths).flatMap(([path, ops]) =>
      path.includes('{') ? Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`) : [],
    );
    const missing = operations.filter((o) => !(o in ROUTES) && !(o in NOT_VEHICLE_SCOPED));
    expect(missing, 'add these routes to the matrix (or to NOT_VEHICLE_SCOPED with a reason)').toEqual([]);
    const stale = Object.keys(ROUTES).filter(
      (o) =>
        !operations.includes(o) && !/^POST \/api\/(insurance|expenses|fuel-consumptions|revision)$/.test(o),
    );
    expect(stale).toEqual([]);
  });

  for (const [operation, route] of Object.entries(ROUTES)) {
    it(operation, async () => {
      const got: Record<string, string> = {};
      const want: Record<string, string> = {};
      // Writes get a fresh car per role (a first success would change what the next role meets).
      const readOnly = operation.startsWith('GET ');
      const shared = readOnly ? await makeFixture(route.photo, route.document) : undefined;
      for (const role of ROLES) {
        const f = shared ?? (await makeFixture(route.photo, route.document));
        const res = await route.send(c[role], f);
        const e = route.expect[role];
        want[role] = String(e);
        const s = res.statusCode;
        got[role] =
          e === 'ok' && s >= 200 && s < 300
            ? 'ok'
            : e === 'passes' && s !== 403 && s !== 404 && s < 500
              ? 'passes'
              : `${s}${s >= 300 ? ` ${res.data?.code ?? ''}` : ''}`;
        if (e === 404) {
          // A stranger learns nothing: the one error shape, no data of the car.
          expect(res.data?.code, `${operation} as ${role}`).toBe('NOT_FOUND');
          expect(res.body).not.toContain(names.owner);
        }
        if (e === 403) expect(res.data?.code, `${operation} as ${role}`).toBe('FORBIDDEN');
      }
      for (const role of ROLES)
        if (got[role]?.startsWith(String(want[role]))) got[role] = want[role] as string;
      expect(got).toEqual(want);
    }, 60_000);
  }
});
