import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError } from './helpers/expect.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('app', () => {
  it('GET /api/health answers 200 with "status": "ok" (what pollers wait for; more in health.test.ts)', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'ok' });
  });

  it('serves an OpenAPI 3 document listing the routes', async () => {
    const res = await new TestClient(t.app).get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.data.openapi).toMatch(/^3\./);
    const paths = Object.keys(res.data.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/auth/refresh',
        '/api/users/me',
        '/api/admin/users',
        '/api/admin/users/{id}',
      ]),
    );
    expect(Object.keys(res.data.paths['/api/admin/users/{id}'])).toEqual(
      expect.arrayContaining(['put', 'delete']),
    );
    expect(JSON.stringify(res.data)).not.toMatch(/passwordHash|password_hash/);
  });

  it('sends the OpenAPI document compressed as the client accepts it, and a 304 to one that has it', async () => {
    const as = (encoding?: string) =>
      t.app.inject({ url: '/api/openapi.json', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const plain = await as();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = plain.json();
    expect(document.openapi).toMatch(/^3\./);

    const br = await as('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(document);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    const gzip = await as('br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(document);

    // One validator for the three codings, revalidated on every use.
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(plain.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({
      url: '/api/openapi.json',
      headers: { 'if-none-match': String(plain.headers.etag), 'accept-encoding': 'gzip' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const stale = await t.app.inject({ url: '/api/openapi.json', headers: { 'if-none-match': 'W/"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(document);

    // The reference UI (/api/docs) loads the very same document from its own address.
    const ui = await t.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(ui.headers['content-encoding']).toBe('br');
    expect(ui.headers.etag).toBe(plain.headers.etag);
    expect(JSON.parse(brotliDecompressSync(ui.rawPayload).toString())).toEqual(document);
  });

  it('names the shared schemas once in the OpenAPI document, and every reference resolves', async () => {
    const { data } = await new TestClient(t.app).get('/api/openapi.json');
    const schemas = data.components.schemas as Record<string, { properties?: object }>;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['ApiError', 'Vehicle', 'FuelEntry']));
    expect(data.paths['/api/vehicles/{id}'].get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApiError',
    });
    const text = JSON.stringify(data);
    const refs = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
    expect([...refs].sort()).toEqual(Object.keys(schemas).sort()); // none dangling, none unused
    expect(schemas.Vehicle?.properties).toHaveProperty('registrationNumber');
  });

  it('answers an unknown /api path with 404 NOT_FOUND in the error shape', async () => {
    const client = new TestClient(t.app);
    for (const res of [await client.get('/api/no-such-thing'), await client.post('/api/auth/nope', {})]) {
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('answers a malformed JSON body with 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "x", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: expect.any(String) });
  });

  it('refuses a NUL character anywhere in the input with 400, naming the field, and stores nothing', async () => {
    const { client } = await registered(t.app);
    const nul = (res: Awaited<ReturnType<TestClient['get']>>, field: string) => {
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.data.message).toBe(`${field}: NUL characters are not allowed.`);
      expect(res.data.details).toEqual([{ field, message: 'NUL characters are not allowed.' }]);
    };
    const car = {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'PETROL',
      registrationNumber: 'B-12-NUL',
      engineSize: 1.0,
      odometer: 1000,
    };
    nul(await client.post('/api/vehicles', { ...car, model: 'Lo\u0000gan' }), 'model');
    nul(await client.post('/api/vehicles', { ...car, 'ex\u0000tra': 1 }), 'ex\u0000tra');
    nul(await client.get('/api/marketplace/listings?make=Da%00cia'), 'make');
    nul(await client.get('/api/vehicles/1%00'), 'id');
    expect((await client.get('/api/vehicles')).data).toEqual([]);
    expect((await client.post('/api/vehicles', car)).statusCode).toBe(201);
  });

  it('answers a body of the wrong media type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'whatever1' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });

  it("sends an API answer the API's security headers: nothing may run or frame it", async () => {
    const client = new TestClient(t.app);
    for (const path of ['/api/health', '/api/vehicles', '/api/no-such-route']) {
      const res = await client.get(path);
      expect(res.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], path).toBe('same-origin');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      // Headers only a page reads are not sent with data.
      expect(res.headers['x-xss-protection'], path).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], path).toBeUndefined();
    }
  });

  it('sends a page (the API reference) the full set, with a CSP its scripts run under', async () => {
    const res = await t.app.inject({ url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-xss-protection']).toBe('0');
  });

  it('never shows a password hash, in any user-facing answer', async () => {
    const { client } = await registered(t.app);
    const bodies = [
      (await client.get('/api/auth/me')).body,
      (await client.get('/api/users/me')).body,
      (await client.post('/api/auth/refresh')).body,
      (await client.get('/api/admin/users')).body,
    ];
    for (const body of bodies) expect(body).not.toMatch(/argon2|passwordHash/);
  });
});
