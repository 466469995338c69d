import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';

/*
 * Every multipart route with a JSON part `data` (list-with-photos, edit-with-photos, PATCH
 * /api/vehicles/{id}) takes it as a text field or as a file part, as a client written from the
 * API description sends it (`form.append('data', new Blob([json], {type: 'application/json'}))`).
 */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
type Part = Parameters<typeof multipart>[0][number];

const SHAPES: [string, (json: string) => Part][] = [
  ['a text field', (json) => ({ name: 'data', value: json })],
  [
    'a file part of type application/json (a browser Blob)',
    (json) => ({
      name: 'data',
      file: { filename: 'blob', type: 'application/json', bytes: Buffer.from(json) },
    }),
  ],
  [
    'a file part of another type whose content is JSON',
    (json) => ({
      name: 'data',
      file: { filename: 'data.json', type: 'application/octet-stream', bytes: Buffer.from(`\uFEFF${json}`) },
    }),
  ],
  [
    'a text part declared application/json',
    (json) => ({ name: 'data', value: json, type: 'application/json' }),
  ],
];

let t: TestApp;
let seller: TestClient;
let stranger: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  seller = (await registered(t.app, 'seller')).client;
  stranger = (await registered(t.app, 'stranger')).client;
});
afterAll(() => t.close());

let n = 0;
const car = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    make: 'Skoda',
    model: 'Fabia',
    year: 2017,
    fuelType: 'PETROL',
    registrationNumber: `MP-${n}-JSN`,
    engineSize: 1.0,
    odometer: 90_000,
    aiEvaluationConsent: false,
    ...extra,
  };
};
const newCar = async () => {
  const res = await seller.post('/api/vehicles', car());
  expect(res.statusCode).toBe(201);
  return res.data as { id: number; version: number };
};
const send = (c: TestClient, method: 'POST' | 'PATCH', url: string, parts: Part[]) => {
  const { payload, headers } = multipart(parts);
  return c.request(method, url, payload, { headers });
};
const photo = (name: string): Part => ({
  name,
  file: { filename: 'car.jpg', type: 'image/jpeg', bytes: fixture('car-gps.jpg') },
});

describe('a JSON part `data`', () => {
  for (const [shape, data] of SHAPES) {
    it(`as ${shape}: lists with photos, edits with photos, and updates a vehicle with its photo`, async () => {
      const v = await newCar();
      const listed = await send(seller, 'POST', '/api/marketplace/list-with-photos', [
        data(JSON.stringify({ vehicleId: v.id, price: 7000, description: 'Kept in a garage' })),
        photo('photos'),
      ]);
      expect(listed.statusCode).toBe(201);
      expect(listed.data).toMatchObject({ price: 7000, description: 'Kept in a garage' });
      expect(listed.data.photoUrls).toHaveLength(1);

      const edited = await send(seller, 'PATCH', `/api/marketplace/edit-with-photos/${listed.data.id}`, [
        data(JSON.stringify({ price: 6500, description: 'Price lowered' })),
        photo('newPhotos'),
      ]);
      expect(edited.statusCode).toBe(200);
      expect(edited.data).toMatchObject({ price: 6500, description: 'Price lowered' });
      expect(edited.data.photoUrls).toHaveLength(2);

      const updated = await send(seller, 'PATCH', `/api/vehicles/${v.id}`, [
        data(JSON.stringify({ ...car({ model: 'Scala' }), version: v.version })),
        photo('photo'),
      ]);
      expect(updated.statusCode).toBe(200);
      expect(updated.data.model).toBe('Scala');
      expect(updated.data.photoUrl).toMatch(/^\/api\/files\//);
      expect((await seller.get(updated.data.photoUrl)).statusCode).toBe(200);
    });
  }

  it('that is not JSON, in either shape, is refused with 400 naming `data`, and nothing is listed', async () => {
    const v = await newCar();
    for (const part of [
      {
        name: 'data',
        file: { filename: 'blob', type: 'application/json', bytes: Buffer.from('{"price": 7') },
      },
      { name: 'data', file: { filename: 'x.jpg', type: 'image/jpeg', bytes: fixture('car-gps.jpg') } },
      { name: 'data', value: 'price=7000', type: 'application/json' },
      { name: 'data', value: 'price=7000' },
    ]) {
      const res = await send(seller, 'POST', '/api/marketplace/list-with-photos', [part, photo('photos')]);
      expectInvalid(res, 'data');
      expect(res.data.message).toBe('The part "data" must be JSON.');
    }
    const vehicleRes = await send(seller, 'PATCH', `/api/vehicles/${v.id}`, [
      { name: 'data', file: { filename: 'blob', type: 'application/json', bytes: Buffer.from('nope') } },
    ]);
    expectInvalid(vehicleRes, 'data');
    expect(
      (await seller.get('/api/marketplace/my-vehicles')).data.map((x: { id: number }) => x.id),
    ).toContain(v.id);
  });

  it('that is missing is refused with 400 "The part "data" is required." on every route', async () => {
    const v = await newCar();
    for (const [method, url, file] of [
      ['POST', '/api/marketplace/list-with-photos', 'photos'],
      ['PATCH', '/api/marketplace/edit-with-photos/1', 'newPhotos'],
      ['PATCH', `/api/vehicles/${v.id}`, 'photo'],
    ] as const) {
      const res = await send(seller, method, url, [photo(file)]);
      expectInvalid(res, 'data');
      expect(res.data.message).toBe('The part "data" is required.');
    }
  });

  it('that is valid JSON but breaks the schema is refused with the failing fields', async () => {
    const v = await newCar();
    const res = await send(seller, 'POST', '/api/marketplace/list-with-photos', [
      SHAPES[1]?.[1](JSON.stringify({ vehicleId: v.id, price: -1 })) as Part,
    ]);
    expectInvalid(res, 'price');
  });

  it('larger than 1 MB as a file is refused with 413', async () => {
    const v = await newCar();
    const big = JSON.stringify({ vehicleId: v.id, price: 7000, description: 'x'.repeat(1024 * 1024) });
    const res = await send(seller, 'POST', '/api/marketplace/list-with-photos', [
      { name: 'data', file: { filename: 'blob', type: 'application/json', bytes: Buffer.from(big) } },
    ]);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('sent as a file by a stranger changes nothing of another user’s listing or vehicle: 404, no data', async () => {
    const v = await newCar();
    const listed = await send(seller, 'POST', '/api/marketplace/list-with-photos', [
      SHAPES[1]?.[1](JSON.stringify({ vehicleId: v.id, price: 7000, description: 'Mine' })) as Part,
    ]);
    expect(listed.statusCode).toBe(201);
    const asFile = (json: object): Part => ({
      name: 'data',
      file: { filename: 'blob', type: 'application/json', bytes: Buffer.from(JSON.stringify(json)) },
    });
    const edit = await send(stranger, 'PATCH', `/api/marketplace/edit-with-photos/${listed.data.id}`, [
      asFile({ price: 1, description: 'stolen' }),
    ]);
    expectError(edit, 404, 'NOT_FOUND');
    expect(JSON.stringify(edit.data)).not.toContain('Mine');
    const update = await send(stranger, 'PATCH', `/api/vehicles/${v.id}`, [
      asFile({ ...car({ model: 'Stolen' }), version: v.version }),
    ]);
    expectError(update, 404, 'NOT_FOUND');
    expect(JSON.stringify(update.data)).not.toContain('Fabia');
    expect((await seller.get(`/api/vehicles/${v.id}`)).data.model).toBe('Fabia');
    const [shown] = (await seller.get('/api/marketplace/listings')).data.filter(
      (l: { id: number }) => l.id === listed.data.id,
    );
    expect(shown).toMatchObject({ price: 7000, description: 'Mine' });
  });
});
