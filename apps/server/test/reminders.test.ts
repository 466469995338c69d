import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
const scan = (day: string) => runReminderScan(t.database.db, new Date(`${day}T08:00:00Z`));
const titles = async (c: TestClient) =>
  ((await c.get('/api/notifications')).data as { title: string }[]).map((n) => n.title);

const vehicle = (reg: string, odometer = 100_000) => ({
  make: 'Toyota',
  model: 'Corolla',
  year: 2016,
  fuelType: 'GPL',
  registrationNumber: reg,
  engineSize: 1.6,
  odometer,
});

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
});
afterAll(() => t.close());

describe('insurance reminders', () => {
  it('reminds 30, 7 and 1 days before the end and on the day, once each, naming the vehicle', async () => {
    const car = (await alice.post('/api/vehicles', vehicle('IN-1'))).data.id;
    await alice.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2024-07-01',
      endDate: '2025-06-30',
      price: 300,
    });
    expect(await scan('2025-05-20')).toBe(0); // 41 days left: nothing yet
    expect(await scan('2025-05-31')).toBe(1); // 30 days
    expect(await scan('2025-05-31')).toBe(0); // same day again: nothing new
    expect(await scan('2025-06-10')).toBe(0); // 20 days: still the 30-day threshold
    expect(await scan('2025-06-25')).toBe(1); // 5 days: the 7-day threshold
    expect(await scan('2025-06-29')).toBe(1); // tomorrow
    expect(await scan('2025-06-30')).toBe(1); // today
    expect(await scan('2025-07-01')).toBe(0); // over
    const list = (await alice.get('/api/notifications')).data as {
      title: string;
      content: string;
      type: string;
      vehicleId: number;
    }[];
    expect(list.map((n) => n.title)).toEqual([
      'Insurance ends today',
      'Insurance ends tomorrow',
      'Insurance ends in 7 days',
      'Insurance ends in 30 days',
    ]);
    expect(list[0]).toMatchObject({ type: 'INSURANCE_REMINDER', vehicleId: car });
    expect(list[0]?.content).toContain('Allianz policy of your Toyota Corolla (IN-1) ends on 2025-06-30');
    await alice.delete('/api/notifications/clear');
  });

  it('sends only the nearest threshold to a policy already past several, none when disabled', async () => {
    const car = (await alice.post('/api/vehicles', vehicle('IN-2'))).data.id;
    await alice.post('/api/insurance', {
      vehicleId: car,
      provider: 'Groupama',
      startDate: '2025-01-01',
      endDate: '2025-09-03',
      price: 250,
    });
    const off = (
      await alice.post('/api/insurance', {
        vehicleId: car,
        provider: 'Omniasig',
        startDate: '2025-01-01',
        endDate: '2025-09-02',
        price: 250,
        reminderEnabled: false,
      })
    ).data;
    expect(await scan('2025-08-31')).toBe(1); // 3 days left: only "7 days", not also "30 days"
    expect(await titles(alice)).toEqual(['Insurance ends in 7 days']);
    // Re-enabling the other policy's reminder makes it eligible.
    await alice.put(`/api/insurance/${off.id}/toggle-reminder`);
    expect(await scan('2025-08-31')).toBe(1);
    await alice.delete('/api/notifications/clear');
    // Clearing the notifications does not send them again.
    expect(await scan('2025-08-31')).toBe(0);
  });

  it("writes in the owner's language", async () => {
    const { client: ana } = await registered(t.app, 'ana');
    await ana.put('/api/users/me', {
      username: ana.user?.username,
      email: `${ana.user?.username}@example.com`,
      language: 'ro',
    });
    const car = (await ana.post('/api/vehicles', vehicle('RO-1'))).data.id;
    await ana.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2025-01-01',
      endDate: '2025-10-08',
      price: 100,
    });
    await scan('2025-10-01');
    expect(await titles(ana)).toEqual(['Asigurarea expiră în 7 zile']);
    expect(await titles(bob)).toEqual([]);
  });
});

describe('revision reminders', () => {
  it('reminds 30 and 7 days before 12 months after the last service, and when due; only for the latest one', async () => {
    const car = (await bob.post('/api/vehicles', vehicle('RV-1', 50_000))).data.id;
    await bob.post('/api/revision', { vehicleId: car, date: '2023-03-01', km: 30_000, price: 400 }); // superseded
    await bob.post('/api/revision', { vehicleId: car, date: '2024-06-15', km: 45_000, price: 500 });
    expect(await scan('2025-05-01')).toBe(0); // 45 days before 2025-06-15
    expect(await scan('2025-05-16')).toBe(1); // 30 days
    expect(await scan('2025-06-08')).toBe(1); // 7 days
    expect(await scan('2025-06-15')).toBe(1); // due
    expect(await scan('2025-07-15')).toBe(0); // overdue: already told
    expect(await titles(bob)).toEqual(['Service due now', 'Service due in 7 days', 'Service due in 30 days']);
    await bob.delete('/api/notifications/clear');
  });

  it('is due earlier when the odometer passes the service km + 15,000', async () => {
    const car = (await bob.post('/api/vehicles', vehicle('RV-2', 100_000))).data.id;
    await bob.post('/api/revision', { vehicleId: car, date: '2025-05-01', km: 100_000, price: 500 });
    expect(await scan('2025-06-01')).toBe(0);
    // A fuel reading past 115,000 km raises the vehicle's odometer.
    await bob.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'GPL',
      liters: 40,
      fuelPrice: 140,
      odometer: 115_200,
      date: '2025-06-02',
    });
    expect(await scan('2025-06-02')).toBe(1);
    const [n] = (await bob.get('/api/notifications')).data;
    expect(n).toMatchObject({ type: 'REVISION_REMINDER', title: 'Service due now', vehicleId: car });
    expect(n.content).toContain('15,000 km');
    await bob.delete('/api/notifications/clear');
  });

  it('writes the 15,000 km interval in miles for a recipient who reads miles (issue 50)', async () => {
    const { client: carol, account } = await registered(t.app, 'carol');
    const put = await carol.put('/api/users/me', {
      username: account.username,
      email: account.email,
      distanceUnit: 'mi',
    });
    expect(put.statusCode).toBe(200);
    const car = (await carol.post('/api/vehicles', vehicle('RV-MI', 100_000))).data.id;
    await carol.post('/api/revision', { vehicleId: car, date: '2025-05-01', km: 100_000, price: 500 });
    await carol.post('/api/fuel-consumptions', {
      vehicleId: car,
      fuelType: 'GPL',
      liters: 40,
      fuelPrice: 140,
      odometer: 115_200,
      date: '2025-06-02',
    });
    expect(await scan('2025-06-02')).toBe(1);
    const [n] = (await carol.get('/api/notifications')).data;
    expect(n).toMatchObject({ type: 'REVISION_REMINDER', title: 'Service due now', vehicleId: car });
    expect(n.content).toContain('has driven 9,321 mi since its last service');
    expect(n.content).not.toContain('km');
  });

  it('follows a manual reminder date, and stays quiet while the reminder is off', async () => {
    const car = (await bob.post('/api/vehicles', vehicle('RV-3', 10_000))).data.id;
    const rev = (
      await bob.post('/api/revision', { vehicleId: car, date: '2025-01-10', km: 10_000, price: 300 })
    ).data;
    await bob.put(`/api/revision/${rev.id}/manual-reminder`, { reminderDate: '2025-04-01' });
    expect(await scan('2025-03-25')).toBe(1); // 7 days before the manual date
    await bob.put(`/api/revision/${rev.id}/toggle-reminder`);
    expect(await scan('2025-04-01')).toBe(0);
    await bob.delete('/api/notifications/clear');
  });

  it('creates nothing new when runs overlap', async () => {
    const car = (await bob.post('/api/vehicles', vehicle('RV-4', 10_000))).data.id;
    await bob.post('/api/insurance', {
      vehicleId: car,
      provider: 'Euroins',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      price: 90,
    });
    const results = await Promise.all([scan('2025-12-30'), scan('2025-12-30'), scan('2025-12-30')]);
    expect(results.reduce<number>((s, n) => s + (n ?? 0), 0)).toBe(1);
    expect((await bob.get('/api/notifications/count')).data).toEqual({ count: 1 });
    await bob.delete('/api/notifications/clear');
  });
});

describe('notifications API', () => {
  it('lists newest first, counts unread, marks one or all read, clears all; each user sees only theirs', async () => {
    const car = (await alice.post('/api/vehicles', vehicle('NT-1'))).data.id;
    await alice.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      startDate: '2025-01-01',
      endDate: '2026-02-28',
      price: 10,
    });
    await scan('2026-01-29');
    await scan('2026-02-27');
    const list = (await alice.get('/api/notifications')).data as {
      id: number;
      read: boolean;
      title: string;
    }[];
    expect(list.map((n) => n.title)).toEqual(['Insurance ends tomorrow', 'Insurance ends in 30 days']);
    expect((await alice.get('/api/notifications/count')).data.count).toBe(2);

    expect((await bob.patch(`/api/notifications/${list[0]?.id}/clear`)).statusCode).toBe(404);
    expect((await bob.get('/api/notifications')).data).toEqual([]);
    const read = await alice.patch(`/api/notifications/${list[0]?.id}/clear`);
    expect(read.data.read).toBe(true);
    // The list (written by the database) and a single answer (by the server) agree, field for field.
    expect(read.data.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await alice.get('/api/notifications')).data[0]).toEqual(read.data);
    expect((await alice.get('/api/notifications/count')).data.count).toBe(1);

    await bob.delete('/api/notifications/clear');
    await bob.patch('/api/notifications/clear-all');
    expect((await alice.get('/api/notifications/count')).data.count).toBe(1);

    expect((await alice.patch('/api/notifications/clear-all')).statusCode).toBe(204);
    expect((await alice.get('/api/notifications/count')).data.count).toBe(0);
    expect((await alice.delete('/api/notifications/clear')).statusCode).toBe(204);
    expect((await alice.get('/api/notifications')).data).toEqual([]);
    expect((await alice.patch('/api/notifications/abc/clear')).statusCode).toBe(400);
  });
});
