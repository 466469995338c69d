import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../src/db/schema.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// Personal API tokens (issue 53): made with a cookie session, used as `Authorization: Bearer`
// with the user's own access rules and the token's scope; revoked or expired ones get 401.

let t: TestApp;
let owner: TestClient;
let viewer: TestClient;
let stranger: TestClient;
let viewerName: string;
let car: number;

const SCRIPT_IP = '203.0.113.9';
const bearer = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    remoteAddress: SCRIPT_IP,
    ...(payload ? { payload } : {}),
  });
const fillUp = (vehicleId: number) => ({
  vehicleId,
  fuelType: 'DIESEL',
  liters: 40,
  fuelPrice: 290,
  date: '2025-06-01',
});
const makeToken = async (who: TestClient, scope: 'read' | 'read-write', extra: object = {}) => {
  const res = await who.post('/api/tokens', { name: `script ${scope}`, scope, ...extra });
  expect(res.statusCode).toBe(201);
  return res.data as { id: number; token: string; name: string; scope: string; expiresAt: string | null };
};

beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_RATE_LIMIT_PER_MINUTE: '30' });
  owner = (await registered(t.app, 'owner')).client;
  const v = await registered(t.app, 'viewer');
  viewer = v.client;
  viewerName = v.user.username;
  stranger = (await registered(t.app, 'stranger')).client;
  car = (
    await owner.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'DIESEL',
      registrationNumber: `TK-${Math.random().toString(36).slice(2, 7)}`,
      engineSize: 1.5,
      odometer: 50_000,
      aiEvaluationConsent: true,
    })
  ).data.id;
  expect(
    (await owner.post(`/api/vehicles/${car}/shares`, { username: viewerName, role: 'VIEWER' })).statusCode,
  ).toBe(201);
}, 60_000);
afterAll(() => t.close());

describe('personal API tokens', () => {
  it('shows a new token once, keeps only its hash, and lets a script add a fill-up without cookie or CSRF', async () => {
    const made = await makeToken(owner, 'read-write');
    expect(made).toMatchObject({ name: 'script read-write', scope: 'read-write', expiresAt: null });
    expect(made.token).toMatch(/^evd_[A-Za-z0-9_-]{43}$/);
    const [stored] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
    expect(stored?.tokenHash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(made.token);

    const added = await bearer(made.token, 'POST', '/api/fuel-consumptions', fillUp(car));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ vehicleId: car, liters: 40 });
    expect((await bearer(made.token, 'GET', `/api/fuel-consumptions/vehicle/${car}`)).json()).toHaveLength(1);

    // The list never shows the token again, but when and from where it was last used.
    const list = (await owner.get('/api/tokens')).data;
    const row = list.find((x: { id: number }) => x.id === made.id);
    expect(row).toMatchObject({ scope: 'read-write', hint: made.token.slice(0, 8), lastUsedIp: SCRIPT_IP });
    expect(Date.parse(row.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(list)).not.toContain(made.token);
  });

  it('gives a read token the reads and 403 on every write', async () => {
    const { token } = await makeToken(owner, 'read');
    expect((await bearer(token, 'GET', '/api/vehicles')).statusCode).toBe(200);
    const write = await bearer(token, 'POST', '/api/fuel-consumptions', fillUp(car));
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'FORBIDDEN', message: 'This API token may only read.' });
    expect((await bearer(token, 'DELETE', `/api/vehicles/${car}`)).statusCode).toBe(403);
    expect((await owner.get(`/api/vehicles/${car}`)).statusCode).toBe(200);
  });

  it("keeps a shared car's viewer a viewer: their read-write token reads the car but cannot write to it", async () => {
    const { token } = await makeToken(viewer, 'read-write');
    expect((await bearer(token, 'GET', `/api/vehicles/${car}`)).json()).toMatchObject({ access: 'VIEWER' });
    const before = (await owner.get(`/api/fuel-consumptions/vehicle/${car}`)).data.length;
    expect((await bearer(token, 'POST', '/api/fuel-consumptions', fillUp(car))).statusCode).toBe(403);
    expect((await owner.get(`/api/fuel-consumptions/vehicle/${car}`)).data).toHaveLength(before);
    // And a stranger's token does not find the car at all.
    const other = await makeToken(stranger, 'read-write');
    expect((await bearer(other.token, 'GET', `/api/vehicles/${car}`)).statusCode).toBe(404);
  });

  it('answers 401 to a revoked, an expired or an unknown token', async () => {
    const revoked = await makeToken(owner, 'read-write');
    expect((await bearer(revoked.token, 'GET', '/api/vehicles')).statusCode).toBe(200);
    expect((await owner.delete(`/api/tokens/${revoked.id}`)).statusCode).toBe(204);
    const gone = await bearer(revoked.token, 'GET', '/api/vehicles');
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await owner.get('/api/tokens')).data.map((x: { id: number }) => x.id)).not.toContain(revoked.id);

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await makeToken(owner, 'read', { expiresAt: soon });
    expect(expiring.expiresAt).toBe(soon);
    expect((await bearer(expiring.token, 'GET', '/api/vehicles')).statusCode).toBe(200);
    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, expiring.id));
    expect((await bearer(expiring.token, 'GET', '/api/vehicles')).statusCode).toBe(401);

    expect((await bearer(`evd_${'x'.repeat(43)}`, 'GET', '/api/vehicles')).statusCode).toBe(401);
    expect((await bearer('not-a-token', 'GET', '/api/vehicles')).statusCode).toBe(401);
  });

  it('refuses an expiry in the past and a scope it does not know (400)', async () => {
    const past = await owner.post('/api/tokens', {
      name: 'old',
      scope: 'read',
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect(past.data.details[0].field).toBe('expiresAt');
    const scope = await owner.post('/api/tokens', { name: 'admin', scope: 'manager' });
    expect(scope.statusCode).toBe(400);
    expect(scope.data.details[0].field).toBe('scope');
  });

  it('manages tokens only from a signed-in session: a token cannot list, make or revoke tokens (403)', async () => {
    const { token, id } = await makeToken(owner, 'read-write');
    expect((await bearer(token, 'GET', '/api/tokens')).statusCode).toBe(403);
    expect(
      (await bearer(token, 'POST', '/api/tokens', { name: 'more', scope: 'read-write' })).statusCode,
    ).toBe(403);
    expect((await bearer(token, 'DELETE', `/api/tokens/${id}`)).statusCode).toBe(403);
    // A cookie session still needs its CSRF header.
    expect((await owner.post('/api/tokens', { name: 'x', scope: 'read' }, { csrf: false })).statusCode).toBe(
      403,
    );
  });

  it("lets a token change the user's settings but not the e-mail a password reset goes to (403)", async () => {
    const { token } = await makeToken(owner, 'read-write');
    const me = (await owner.get('/api/users/me')).data as { username: string; email: string };
    const units = await bearer(token, 'PUT', '/api/users/me', { ...me, distanceUnit: 'mi' });
    expect(units.statusCode).toBe(200);
    expect(units.json().distanceUnit).toBe('mi');
    const email = await bearer(token, 'PUT', '/api/users/me', { ...me, email: 'thief@example.com' });
    expect(email.statusCode).toBe(403);
    expect(email.json().code).toBe('FORBIDDEN');
    expect((await owner.get('/api/users/me')).data.email).toBe(me.email);
    await owner.put('/api/users/me', { ...me, distanceUnit: 'km' });
  });

  it("answers 404 to another user's token id, which keeps working", async () => {
    const mine = await makeToken(owner, 'read');
    const res = await stranger.delete(`/api/tokens/${mine.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.data).toMatchObject({ code: 'NOT_FOUND' });
    expect((await stranger.get('/api/tokens')).data.map((x: { id: number }) => x.id)).not.toContain(mine.id);
    expect((await bearer(mine.token, 'GET', '/api/vehicles')).statusCode).toBe(200);
  });

  it('limits the requests of one token per minute (429), apart from the others', async () => {
    const busy = await makeToken(owner, 'read');
    const calm = await makeToken(owner, 'read');
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await bearer(busy.token, 'GET', '/api/vehicles')).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 200)).toBe(true);
    const limited = await bearer(busy.token, 'GET', '/api/vehicles');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await bearer(calm.token, 'GET', '/api/vehicles')).statusCode).toBe(200);
    expect((await owner.get('/api/vehicles')).statusCode).toBe(200);
  });

  it('declares the bearer scheme in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toContainEqual({ bearerAuth: [] });
    expect(Object.keys(doc.paths)).toContain('/api/tokens/{id}');
  });
});

describe('PUBLIC_API_TOKENS=false', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ PUBLIC_API_TOKENS: 'false' });
  }, 60_000);
  afterAll(() => off.close());

  it('has no token routes (404) and refuses any bearer token (401)', async () => {
    const { client } = await registered(off.app, 'off');
    expect((await client.get('/api/tokens')).statusCode).toBe(404);
    expect((await client.post('/api/tokens', { name: 'x', scope: 'read' })).statusCode).toBe(404);
    const res = await off.app.inject({
      url: '/api/vehicles',
      headers: { authorization: `Bearer evd_${'a'.repeat(43)}` },
    });
    expect(res.statusCode).toBe(401);
    expect((await client.get('/api/vehicles')).statusCode).toBe(200);
  });
});
