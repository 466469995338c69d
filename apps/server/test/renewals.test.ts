import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let car: number;
const scan = (day: string) => runReminderScan(t.database.db, new Date(`${day}T08:00:00Z`));

const vehicle = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2012,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.4,
  odometer: 150_000,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client;
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  car = (await alice.post('/api/vehicles', vehicle('B-01-REN'))).data.id;
});
afterAll(() => t.close());

describe('renewals of a vehicle', () => {
  let rca: number;

  it('adds, lists (latest expiry first), changes and deletes renewals', async () => {
    const res = await alice.post(`/api/vehicles/${car}/renewals`, {
      type: 'RCA',
      validFrom: '2025-03-01',
      validUntil: '2026-02-28',
      price: 412.5,
      note: 'Groupama',
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toEqual({
      id: expect.any(Number),
      vehicleId: car,
      type: 'RCA',
      validFrom: '2025-03-01',
      validUntil: '2026-02-28',
      price: 412.5,
      note: 'Groupama',
      reminderEnabled: true,
      // In its owner's currency (euros, an English account's): rate 1, of its first day.
      currency: 'EUR',
      exchangeRate: 1,
      rateDate: '2025-03-01',
      rateSource: 'ECB',
      version: 0,
    });
    rca = res.data.id;
    const vignette = await alice.post(`/api/vehicles/${car}/renewals`, {
      type: 'ROVINIETA',
      validUntil: '2025-09-01',
    });
    expect(vignette.statusCode).toBe(201);
    expect(vignette.data).toMatchObject({ validFrom: null, price: null, note: '' });

    const list = await alice.get(`/api/vehicles/${car}/renewals`);
    expect(list.statusCode).toBe(200);
    expect(list.data.map((r: { type: string }) => r.type)).toEqual(['RCA', 'ROVINIETA']);

    const put = await alice.put(`/api/vehicles/${car}/renewals/${rca}`, {
      type: 'RCA',
      validFrom: '2025-03-01',
      validUntil: '2026-02-28',
      price: 430,
      note: 'Groupama, renewed online',
      version: 0,
    });
    expect(put.statusCode).toBe(200);
    expect(put.data).toMatchObject({ price: 430, version: 1 });

    const stale = await alice.put(`/api/vehicles/${car}/renewals/${rca}`, {
      type: 'RCA',
      validUntil: '2026-02-28',
      version: 0,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.code).toBe('VERSION_CONFLICT');
    expect(stale.data.details).toMatchObject({ price: 430, version: 1 });

    const one = await alice.get(`/api/vehicles/${car}/renewals/${rca}`);
    expect(one.statusCode).toBe(200);
    expect(one.data).toMatchObject({ id: rca, type: 'RCA', price: 430, note: 'Groupama, renewed online' });

    expect((await alice.delete(`/api/vehicles/${car}/renewals/${vignette.data.id}`)).statusCode).toBe(204);
    expect((await alice.get(`/api/vehicles/${car}/renewals/${vignette.data.id}`)).statusCode).toBe(404);
    expect((await alice.get(`/api/vehicles/${car}/renewals`)).data).toHaveLength(1);
    expect((await alice.delete(`/api/vehicles/${car}/renewals/${vignette.data.id}`)).statusCode).toBe(404);
  });

  it('rejects bad input with the failing fields', async () => {
    const bad = await alice.post(`/api/vehicles/${car}/renewals`, {
      type: 'DISTINTIVO',
      validUntil: '2025-02-30',
      price: -1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.code).toBe('VALIDATION_FAILED');
    const fields = (bad.data.details as { field?: string; path?: string }[]).map((d) => d.field ?? d.path);
    expect(fields).toEqual(expect.arrayContaining(['type', 'validUntil', 'price']));
    const order = await alice.post(`/api/vehicles/${car}/renewals`, {
      type: 'ITP',
      validFrom: '2025-05-01',
      validUntil: '2025-04-01',
    });
    expect(order.statusCode).toBe(400);
    expect(order.body).toContain('Valid until cannot be before valid from.');
    expect((await alice.get('/api/vehicles/abc/renewals')).statusCode).toBe(400);
  });

  it("is 404 with no data for another user's vehicle or renewal, and open to an admin", async () => {
    expect((await bob.get(`/api/vehicles/${car}/renewals`)).statusCode).toBe(404);
    const post = await bob.post(`/api/vehicles/${car}/renewals`, { type: 'ITP', validUntil: '2026-01-01' });
    expect(post.statusCode).toBe(404);
    expect(post.body).not.toContain('Groupama');
    const put = await bob.put(`/api/vehicles/${car}/renewals/${rca}`, {
      type: 'RCA',
      validUntil: '2030-01-01',
    });
    expect(put.statusCode).toBe(404);
    expect((await bob.delete(`/api/vehicles/${car}/renewals/${rca}`)).statusCode).toBe(404);
    const one = await bob.get(`/api/vehicles/${car}/renewals/${rca}`);
    expect(one.statusCode).toBe(404);
    expect(one.data.code).toBe('NOT_FOUND');
    expect(one.body).not.toContain('Groupama');
    // Under one of bob's own vehicles, alice's renewal is still not found.
    const bobCar = (await bob.post('/api/vehicles', vehicle('B-02-BOB'))).data.id;
    expect(
      (await bob.put(`/api/vehicles/${bobCar}/renewals/${rca}`, { type: 'RCA', validUntil: '2030-01-01' }))
        .statusCode,
    ).toBe(404);
    expect((await bob.delete(`/api/vehicles/${bobCar}/renewals/${rca}`)).statusCode).toBe(404);
    expect((await bob.get(`/api/vehicles/${bobCar}/renewals/${rca}`)).statusCode).toBe(404);
    // Nor under alice's other vehicle.
    const other = (await alice.post('/api/vehicles', vehicle('B-03-ALI'))).data.id;
    expect((await alice.delete(`/api/vehicles/${other}/renewals/${rca}`)).statusCode).toBe(404);
    expect((await alice.get(`/api/vehicles/${car}/renewals`)).data).toHaveLength(1);
    const asAdmin = await admin.get(`/api/vehicles/${car}/renewals`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.data[0].note).toBe('Groupama, renewed online');
    expect((await alice.get('/api/vehicles/999999/renewals')).statusCode).toBe(404);
  });

  it('counts prices as expenses in the vehicle, user and admin analytics (month of validFrom)', async () => {
    const monthly = (await alice.get(`/api/analytics/vehicle/${car}/recompute`)).data as {
      monthDate: string;
      totalExpensesCost: number;
      totalCost: number;
    }[];
    expect(monthly.find((m) => m.monthDate === '2025-03-01')).toMatchObject({
      totalExpensesCost: 430,
      totalCost: 430,
    });
    expect((await alice.get(`/api/analytics/vehicle/${car}/yearly`)).data['2025'].totalExpensesCost).toBe(
      430,
    );
    expect((await alice.get(`/api/analytics/vehicle/${car}/total`)).data.totalExpensesCost).toBe(430);
    const user = (await alice.get('/api/analytics/user')).data as {
      vehicleId: number;
      totalExpensesCost: number;
    }[];
    expect(user.filter((r) => r.vehicleId === car).reduce((s, r) => s + r.totalExpensesCost, 0)).toBe(430);
    const all = (await admin.get('/api/analytics/admin/filter')).data as {
      vehicleId: number;
      totalExpensesCost: number;
    }[];
    expect(all.filter((r) => r.vehicleId === car).reduce((s, r) => s + r.totalExpensesCost, 0)).toBe(430);
    // A renewal without validFrom counts in the month it was entered; its deletion takes it out again.
    const today = new Date().toISOString().slice(0, 7);
    const tax = await alice.post(`/api/vehicles/${car}/renewals`, {
      type: 'ROAD_TAX',
      validUntil: '2099-12-31',
      price: 70,
    });
    const months = async () =>
      (
        (await alice.get(`/api/analytics/vehicle/${car}/recompute`)).data as {
          monthDate: string;
          totalExpensesCost: number;
        }[]
      ).find((m) => m.monthDate === `${today}-01`);
    expect((await months())?.totalExpensesCost).toBe(70);
    await alice.delete(`/api/vehicles/${car}/renewals/${tax.data.id}`);
    expect(await months()).toBeUndefined();
  });
});

describe('renewal reminders', () => {
  it('remind 30, 7, 1 days before and on the last valid day, once each, in the owner language', async () => {
    const ro = await registered(t.app, 'ion');
    await ro.client.put('/api/users/me', {
      username: ro.account.username,
      email: ro.account.email,
      language: 'ro',
    });
    const v = (await ro.client.post('/api/vehicles', vehicle('CJ-10-ITP'))).data.id;
    await ro.client.post(`/api/vehicles/${v}/renewals`, { type: 'ITP', validUntil: '2027-06-30' });
    await ro.client.post(`/api/vehicles/${v}/renewals`, {
      type: 'ROVINIETA',
      validUntil: '2027-06-30',
      reminderEnabled: false,
    });
    const titles = async () =>
      ((await ro.client.get('/api/notifications')).data as { title: string; type: string }[]).filter(
        (n) => n.type === 'RENEWAL_REMINDER',
      );
    await scan('2027-05-31');
    await scan('2027-05-31');
    await scan('2027-06-25');
    await scan('2027-06-29');
    await scan('2027-06-30');
    await scan('2027-07-01');
    const list = await titles();
    expect(list.map((n) => n.title)).toEqual([
      'ITP expiră azi',
      'ITP expiră mâine',
      'ITP expiră în 7 zile',
      'ITP expiră în 30 de zile',
    ]);
    const full = (await ro.client.get('/api/notifications')).data[0];
    expect(full.content).toBe(
      'ITP pentru Dacia Logan (CJ-10-ITP) este valabilă până pe 2027-06-30. Reînnoiește la timp.',
    );
    expect(full.vehicleId).toBe(v);
  });
});

describe('country setting', () => {
  it('follows the language until chosen, then keeps the choice', async () => {
    const es = await registered(t.app, 'lucia');
    const me = async () => (await es.client.get('/api/users/me')).data;
    expect((await me()).country).toBe('GENERIC');
    const body = { username: es.account.username, email: es.account.email };
    await es.client.put('/api/users/me', { ...body, language: 'es' });
    expect((await me()).country).toBe('ES');
    const put = await es.client.put('/api/users/me', { ...body, language: 'es', country: 'RO' });
    expect(put.data.country).toBe('RO');
    expect((await me()).country).toBe('RO');
    expect((await es.client.put('/api/users/me', { ...body, country: 'FR' })).statusCode).toBe(400);
  });
});
