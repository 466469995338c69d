import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let aliceCar: number;
let bobCar: number;

const vehicle = (reg: string) => ({
  make: 'Volkswagen',
  model: 'Golf',
  year: 2017,
  fuelType: 'DIESEL',
  registrationNumber: reg,
  engineSize: 1.6,
  odometer: 120_000,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  aliceCar = (await alice.post('/api/vehicles', vehicle('A-1'))).data.id;
  bobCar = (await bob.post('/api/vehicles', vehicle('B-1'))).data.id;
});
afterAll(() => t.close());

/** One valid body per record type, and the paths of its calls. */
const kinds = {
  insurance: {
    base: '/api/insurance',
    list: (v: number) => `/api/insurance/vehicle/${v}`,
    body: (v: number) => ({
      vehicleId: v,
      provider: 'Allianz',
      policyNumber: 'RCA-1',
      coverageType: 'RCA',
      startDate: '2025-03-01',
      endDate: '2026-02-28',
      price: 412.5,
    }),
  },
  expenses: {
    base: '/api/expenses',
    list: (v: number) => `/api/expenses/vehicle/${v}`,
    body: (v: number) => ({
      vehicleId: v,
      date: '2025-04-02',
      expenseType: 'Tyres',
      amount: 380,
      description: 'Winter set',
    }),
  },
  fuel: {
    base: '/api/fuel-consumptions',
    list: (v: number) => `/api/fuel-consumptions/vehicle/${v}`,
    body: (v: number) => ({
      vehicleId: v,
      fuelType: 'DIESEL',
      liters: 40,
      fuelPrice: 290,
      date: '2020-01-01',
    }),
  },
  revisions: {
    base: '/api/revision',
    list: (v: number) => `/api/revision/vehicle/${v}`,
    body: (v: number) => ({
      vehicleId: v,
      date: '2025-05-10',
      km: 121_000,
      price: 650,
      description: 'Oil and filters',
    }),
  },
} as const;

describe.each(Object.entries(kinds))('%s records', (_name, k) => {
  it('adds, lists newest first, edits and deletes', async () => {
    const first = await alice.post(k.base, k.body(aliceCar));
    expect(first.statusCode).toBe(201);
    expect(first.data).toMatchObject({ vehicleId: aliceCar });
    const edited = await alice.put(`${k.base}/${first.data.id}`, {
      ...k.body(aliceCar),
      description: 'changed',
      provider: 'Groupama',
    });
    expect(edited.statusCode).toBe(200);
    const list = await alice.get(k.list(aliceCar));
    expect(list.data.map((r: { id: number }) => r.id)).toContain(first.data.id);
    expect((await alice.delete(`${k.base}/${first.data.id}`)).statusCode).toBe(204);
    const after = await alice.get(k.list(aliceCar));
    expect(after.data.map((r: { id: number }) => r.id)).not.toContain(first.data.id);
  });

  it('gives another user 404 and no data, by vehicleId in path and body and by record id', async () => {
    const own = (await alice.post(k.base, k.body(aliceCar))).data;
    const attempts = [
      await bob.get(k.list(aliceCar)),
      await bob.post(k.base, k.body(aliceCar)),
      await bob.put(`${k.base}/${own.id}`, k.body(bobCar)),
      await bob.delete(`${k.base}/${own.id}`),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.data.code).toBe('NOT_FOUND');
    }
    // Moving one's own record onto someone else's vehicle is refused too.
    const bobs = (await bob.post(k.base, k.body(bobCar))).data;
    expect((await bob.put(`${k.base}/${bobs.id}`, k.body(aliceCar))).statusCode).toBe(404);
    expect((await alice.get(k.list(aliceCar))).data.map((r: { id: number }) => r.id)).toContain(own.id);
    // An admin reaches every vehicle's records.
    expect((await admin.get(k.list(aliceCar))).data.map((r: { id: number }) => r.id)).toContain(own.id);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `key-${_name}-0000001` };
    const a = await alice.request('POST', k.base, k.body(aliceCar), { headers });
    const b = await alice.request('POST', k.base, k.body(aliceCar), { headers });
    expect(b.data.id).toBe(a.data.id);
  });
});

describe('validation', () => {
  it('refuses an insurance ending before it starts, and a negative price', async () => {
    const body = kinds.insurance.body(aliceCar);
    const ends = await alice.post('/api/insurance', { ...body, endDate: '2025-01-01' });
    expect(ends.statusCode).toBe(400);
    expect(ends.data.details[0].field).toBe('endDate');
    const neg = await alice.post('/api/insurance', { ...body, price: -1 });
    expect(neg.data.details[0].field).toBe('price');
    expect((await alice.post('/api/insurance', body)).data.reminderEnabled).toBe(true);
  });

  it('refuses an unknown or Fuel expense type and a negative amount', async () => {
    const body = kinds.expenses.body(aliceCar);
    for (const patch of [
      { expenseType: 'Fuel' },
      { expenseType: 'Snacks' },
      { amount: -5 },
      { date: '2025-02-30' },
    ]) {
      const res = await alice.post('/api/expenses', { ...body, ...patch });
      expect(res.statusCode).toBe(400);
      expect(res.data.details[0].field).toBe(Object.keys(patch)[0]);
    }
  });

  it('refuses fuel with no litres or a negative price', async () => {
    const body = kinds.fuel.body(aliceCar);
    expect((await alice.post('/api/fuel-consumptions', { ...body, liters: 0 })).data.details[0].field).toBe(
      'liters',
    );
    expect(
      (await alice.post('/api/fuel-consumptions', { ...body, fuelPrice: -1 })).data.details[0].field,
    ).toBe('fuelPrice');
  });
});

describe('revision reminders', () => {
  it('toggles the reminder and sets a manual date only while it is enabled', async () => {
    const rev = (await alice.post('/api/revision', kinds.revisions.body(aliceCar))).data;
    expect(rev.reminderEnabled).toBe(true);
    const set = await alice.put(`/api/revision/${rev.id}/manual-reminder`, { reminderDate: '2026-05-01' });
    expect(set.data.manualReminderDate).toBe('2026-05-01');
    const off = await alice.put(`/api/revision/${rev.id}/toggle-reminder`);
    expect(off.data.reminderEnabled).toBe(false);
    const refused = await alice.put(`/api/revision/${rev.id}/manual-reminder`, {
      reminderDate: '2026-06-01',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.data.code).toBe('REMINDER_DISABLED');
    expect((await bob.put(`/api/revision/${rev.id}/toggle-reminder`)).statusCode).toBe(404);
    expect(
      (await bob.put(`/api/revision/${rev.id}/manual-reminder`, { reminderDate: '2026-06-01' })).statusCode,
    ).toBe(404);
  });

  it('toggles an insurance reminder for its owner only', async () => {
    const ins = (await alice.post('/api/insurance', kinds.insurance.body(aliceCar))).data;
    expect((await alice.put(`/api/insurance/${ins.id}/toggle-reminder`)).data.reminderEnabled).toBe(false);
    expect((await bob.put(`/api/insurance/${ins.id}/toggle-reminder`)).statusCode).toBe(404);
  });
});

describe('fuel consumption', () => {
  it('computes full-tank-to-full-tank on a hand-computed sequence, and recomputes after edits and deletes', async () => {
    const v = (await alice.post('/api/vehicles', { ...vehicle('F-1'), odometer: 9_000 })).data.id;
    const add = async (date: string, odometer: number | null, liters: number, extra = {}) =>
      (
        await alice.post('/api/fuel-consumptions', {
          vehicleId: v,
          fuelType: 'DIESEL',
          liters,
          fuelPrice: liters * 7,
          odometer,
          date,
          ...extra,
        })
      ).data;
    const f1 = await add('2025-01-01', 10_000, 40); // first fill: null
    const f2 = await add('2025-01-10', 10_500, 30); // 30 / 500 = 6.00
    const f3 = await add('2025-01-20', 10_800, 10, { fullTank: false }); // partial: null
    const f4 = await add('2025-01-25', 11_100, 25); // (10 + 25) / 600 = 5.83
    const f5 = await add('2025-02-05', 11_900, 40, { missedPrevious: true }); // missed: null
    const f6 = await add('2025-02-15', 12_400, 35); // 35 / 500 = 7.00
    expect(f2.pricePerLiter).toBe(7);
    const byId = async () =>
      new Map(
        (
          (await alice.get(`/api/fuel-consumptions/vehicle/${v}`)).data as {
            id: number;
            consumptionPer100km: number | null;
          }[]
        ).map((e) => [e.id, e.consumptionPer100km]),
      );
    let c = await byId();
    expect([f1, f2, f3, f4, f5, f6].map((f) => c.get(f.id))).toEqual([null, 6, null, 5.83, null, 7]);
    // The vehicle's odometer follows the highest fuel reading.
    expect((await alice.get(`/api/vehicles/${v}`)).data.odometer).toBe(12_400);

    // Deleting the partial fill: f4 becomes 25 / 600 = 4.17.
    await alice.delete(`/api/fuel-consumptions/${f3.id}`);
    c = await byId();
    expect(c.get(f4.id)).toBe(4.17);
    // Editing f2's odometer to 10,400: f2 = 30 / 400 = 7.50, f4 = 25 / 700 = 3.57.
    await alice.put(`/api/fuel-consumptions/${f2.id}`, {
      vehicleId: v,
      fuelType: 'DIESEL',
      liters: 30,
      fuelPrice: 210,
      odometer: 10_400,
      date: '2025-01-10',
    });
    c = await byId();
    expect([c.get(f2.id), c.get(f4.id)]).toEqual([7.5, 3.57]);
  });

  it('refuses an odometer lower than an earlier fill or higher than a later one, with a clear message', async () => {
    const v = (await alice.post('/api/vehicles', { ...vehicle('F-2'), odometer: 0 })).data.id;
    const body = { vehicleId: v, fuelType: 'DIESEL', liters: 40, fuelPrice: 280 };
    await alice.post('/api/fuel-consumptions', { ...body, odometer: 20_000, date: '2025-03-01' });
    await alice.post('/api/fuel-consumptions', { ...body, odometer: 21_000, date: '2025-04-01' });
    const low = await alice.post('/api/fuel-consumptions', { ...body, odometer: 19_000, date: '2025-03-15' });
    expect(low.statusCode).toBe(400);
    expect(low.data.details[0]).toMatchObject({ field: 'odometer' });
    expect(low.data.message).toContain('lower than 20,000 km');
    const high = await alice.post('/api/fuel-consumptions', {
      ...body,
      odometer: 22_000,
      date: '2025-03-15',
    });
    expect(high.data.message).toContain('higher than 21,000 km');
    expect(
      (await alice.post('/api/fuel-consumptions', { ...body, odometer: 20_500, date: '2025-03-15' }))
        .statusCode,
    ).toBe(201);
  });

  it('keeps a price per litre to 4 decimals, so $3.499/US gal typed in gallons reads back as typed', async () => {
    const v = (await alice.post('/api/vehicles', { ...vehicle('F-4'), odometer: 0 })).data.id;
    const perLiter = Math.round((3.499 / 3.785411784) * 10_000) / 10_000; // 0.9243
    const created = await alice.post('/api/fuel-consumptions', {
      vehicleId: v,
      fuelType: 'DIESEL',
      liters: 37.85,
      fuelPrice: 34.99,
      pricePerLiter: perLiter,
      date: '2025-04-01',
    });
    expect(created.statusCode).toBe(201);
    const [row] = (await alice.get(`/api/fuel-consumptions/vehicle/${v}`)).data;
    expect(row.pricePerLiter).toBe(0.9243);
    expect(Math.round(row.pricePerLiter * 3.785411784 * 1000) / 1000).toBe(3.499);
  });

  it('filters the fuel list by from and to dates', async () => {
    const v = (await alice.post('/api/vehicles', { ...vehicle('F-3'), odometer: 0 })).data.id;
    for (const date of ['2025-01-05', '2025-02-05', '2025-03-05']) {
      await alice.post('/api/fuel-consumptions', {
        vehicleId: v,
        fuelType: 'DIESEL',
        liters: 10,
        fuelPrice: 70,
        date,
      });
    }
    const res = await alice.get(`/api/fuel-consumptions/vehicle/${v}?from=2025-02-01&to=2025-03-31`);
    expect(res.data.map((e: { date: string }) => e.date)).toEqual(['2025-03-05', '2025-02-05']);
    expect((await alice.get(`/api/fuel-consumptions/vehicle/${v}?from=2025-13-01`)).statusCode).toBe(400);
  });

  it('deletes a vehicle with all its records', async () => {
    const v = (await alice.post('/api/vehicles', { ...vehicle('D-1') })).data.id;
    const fuel = (await alice.post('/api/fuel-consumptions', kinds.fuel.body(v))).data;
    await alice.delete(`/api/vehicles/${v}`);
    expect((await alice.put(`/api/fuel-consumptions/${fuel.id}`, kinds.fuel.body(aliceCar))).statusCode).toBe(
      404,
    );
  });
});
