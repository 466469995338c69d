import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insurances, vehicles } from '../src/db/schema.js';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// Sharing a car (issue 22): the shares API and its error paths, what a grantee sees in every list,
// who wrote each record, the notifications, and the end of every share on delete and transfer.

type Who = { client: TestClient; id: number; username: string; email: string };
let t: TestApp;
let admin: Who;
let owner: Who;
let partner: Who;
let driver: Who;
let stranger: Who;
let n = 0;

const user = async (prefix: string): Promise<Who> => {
  const r = await registered(t.app, prefix);
  return { client: r.client, id: r.user.id, username: r.user.username, email: r.account.email };
};
const car = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    make: 'Skoda',
    model: 'Octavia',
    year: 2018,
    fuelType: 'DIESEL',
    registrationNumber: `SH-${n}-${Math.random().toString(36).slice(2, 6)}`,
    engineSize: 2,
    odometer: 120_000,
    aiEvaluationConsent: true,
    ...extra,
  };
};
const newCar = async (who: Who = owner) => (await who.client.post('/api/vehicles', car())).data;
const share = (v: number, username: string, role: 'VIEWER' | 'EDITOR', by: Who = owner) =>
  by.client.post(`/api/vehicles/${v}/shares`, { username, role });
const notificationsOf = async (who: Who) => (await who.client.get('/api/notifications')).data;

beforeAll(async () => {
  t = await createTestApp();
  admin = await user('admin');
  owner = await user('owner');
  partner = await user('partner');
  driver = await user('driver');
  stranger = await user('stranger');
}, 60_000);
afterAll(() => t.close());

describe('the shares API', () => {
  it('shares by username or email, lists them for the owner, and the grantee sees the car with its role', async () => {
    const v = await newCar();
    const byName = await share(v.id, partner.username.toUpperCase(), 'EDITOR');
    expect(byName.statusCode).toBe(201);
    expect(byName.data).toMatchObject({
      vehicleId: v.id,
      userId: partner.id,
      username: partner.username,
      role: 'EDITOR',
    });
    expect((await share(v.id, driver.email, 'VIEWER')).statusCode).toBe(201);
    const list = await owner.client.get(`/api/vehicles/${v.id}/shares`);
    expect(list.data.map((s: { username: string; role: string }) => [s.username, s.role])).toEqual([
      [partner.username, 'EDITOR'],
      [driver.username, 'VIEWER'],
    ]);
    const mine = (await partner.client.get('/api/vehicles')).data.find((x: { id: number }) => x.id === v.id);
    expect(mine).toMatchObject({ access: 'EDITOR', ownerUsername: owner.username });
    expect((await driver.client.get(`/api/vehicles/${v.id}`)).data.access).toBe('VIEWER');
    expect((await owner.client.get(`/api/vehicles/${v.id}`)).data.access).toBe('OWNER');
    // own=true leaves out the cars shared with the caller.
    const own = (await partner.client.get('/api/vehicles?own=true')).data.map((x: { id: number }) => x.id);
    expect(own).not.toContain(v.id);
  });

  it('answers 404 for an unknown user, 409 for a second share, 400 for oneself, and 400 for a bad role', async () => {
    const v = await newCar();
    const unknown = await share(v.id, 'nobody-here-at-all', 'VIEWER');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data).toMatchObject({ code: 'NOT_FOUND', details: [{ field: 'username' }] });
    expect((await share(v.id, partner.username, 'VIEWER')).statusCode).toBe(201);
    const again = await share(v.id, partner.email, 'EDITOR');
    expect(again.statusCode).toBe(409);
    expect(again.data.code).toBe('CONFLICT');
    expect(again.data.message).toContain('Change their role');
    const self = await share(v.id, owner.username, 'EDITOR');
    expect(self.statusCode).toBe(400);
    expect(self.data).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'You cannot share a vehicle with yourself.',
    });
    const bad = await owner.client.post(`/api/vehicles/${v.id}/shares`, {
      username: driver.username,
      role: 'OWNER',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.details.map((d: { field: string }) => d.field)).toContain('role');
    // Only the first share stands, unchanged.
    expect((await owner.client.get(`/api/vehicles/${v.id}/shares`)).data).toMatchObject([
      { userId: partner.id, role: 'VIEWER' },
    ]);
  });

  it('changes a role with PUT (404 for no such share), and the grantee gains the writes that come with it', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'VIEWER');
    const fill = { vehicleId: v.id, fuelType: 'DIESEL', liters: 40, fuelPrice: 300, date: '2025-03-01' };
    const refused = await partner.client.post('/api/fuel-consumptions', fill);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.message).toBe('You can view this vehicle but not change it.');
    const changed = await owner.client.put(`/api/vehicles/${v.id}/shares/${partner.id}`, { role: 'EDITOR' });
    expect(changed.statusCode).toBe(200);
    expect(changed.data.role).toBe('EDITOR');
    expect((await partner.client.post('/api/fuel-consumptions', fill)).statusCode).toBe(201);
    expect(
      (await owner.client.put(`/api/vehicles/${v.id}/shares/${driver.id}`, { role: 'EDITOR' })).statusCode,
    ).toBe(404);
    // A grantee cannot change roles, not even their own.
    const own = await partner.client.put(`/api/vehicles/${v.id}/shares/${partner.id}`, { role: 'VIEWER' });
    expect(own.statusCode).toBe(403);
  });

  it('shows a grantee only their own share, and a stranger nothing (404)', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    await share(v.id, driver.username, 'VIEWER');
    const seen = await driver.client.get(`/api/vehicles/${v.id}/shares`);
    expect(seen.statusCode).toBe(200);
    expect(seen.data).toEqual([expect.objectContaining({ userId: driver.id, role: 'VIEWER' })]);
    expect(seen.body).not.toContain(partner.username);
    const none = await stranger.client.get(`/api/vehicles/${v.id}/shares`);
    expect(none.statusCode).toBe(404);
    expect(none.body).not.toContain(owner.username);
    // An admin sees every share.
    expect((await admin.client.get(`/api/vehicles/${v.id}/shares`)).data).toHaveLength(2);
  });

  it('lets the owner revoke and a grantee leave; the revoked one is told, and then gets 404 everywhere', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    await share(v.id, driver.username, 'VIEWER');
    // The driver leaves: no notification to themselves; the owner is told who left which car.
    expect((await driver.client.delete(`/api/vehicles/${v.id}/shares/${driver.id}`)).statusCode).toBe(204);
    expect((await driver.client.get(`/api/vehicles/${v.id}`)).statusCode).toBe(404);
    expect(
      (await notificationsOf(driver)).some(
        (x: { type: string; vehicleId: number | null }) => x.type === 'VEHICLE_ACCESS_ENDED',
      ),
    ).toBe(false);
    const left = (await notificationsOf(owner)).find(
      (x: { title: string; vehicleId: number | null }) =>
        x.title === 'Someone left your shared car' && x.vehicleId === v.id,
    );
    expect(left?.content).toBe(
      `${driver.username} left the Skoda Octavia (2018): they no longer see it or its records. Share it again from its card if that was a mistake.`,
    );
    // The editor may not remove someone else's share.
    await share(v.id, stranger.username, 'VIEWER');
    expect((await partner.client.delete(`/api/vehicles/${v.id}/shares/${stranger.id}`)).statusCode).toBe(403);
    await owner.client.delete(`/api/vehicles/${v.id}/shares/${stranger.id}`);
    // The owner revokes the editor's share.
    expect((await owner.client.delete(`/api/vehicles/${v.id}/shares/${partner.id}`)).statusCode).toBe(204);
    expect((await owner.client.delete(`/api/vehicles/${v.id}/shares/${partner.id}`)).statusCode).toBe(404);
    const ended = (await notificationsOf(partner)).find(
      (x: { type: string; content: string }) =>
        x.type === 'VEHICLE_ACCESS_ENDED' && x.content.includes('stopped sharing'),
    );
    expect(ended).toMatchObject({ title: 'Access to a shared car ended', vehicleId: null });
    for (const url of [
      `/api/vehicles/${v.id}`,
      `/api/fuel-consumptions/vehicle/${v.id}`,
      `/api/analytics/vehicle/${v.id}/total`,
      `/api/vehicles/${v.id}/shares`,
    ])
      expect((await partner.client.get(url)).statusCode, url).toBe(404);
    expect((await partner.client.get('/api/vehicles')).data.map((x: { id: number }) => x.id)).not.toContain(
      v.id,
    );
  });

  it('tells the grantee that a car was shared with them', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    const got = (await notificationsOf(partner)).find(
      (x: { vehicleId: number | null }) => x.vehicleId === v.id,
    );
    expect(got).toMatchObject({ type: 'VEHICLE_SHARED', title: 'A car was shared with you' });
    expect(got.content).toContain(`${owner.username} shared the Skoda Octavia (2018) with you as an editor.`);
  });
});

describe('what a grantee reads and writes', () => {
  it('lists the shared car in every all-vehicles list, and records say who wrote them', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    const mine = (
      await owner.client.post('/api/expenses', {
        vehicleId: v.id,
        date: '2025-04-02',
        expenseType: 'Tyres',
        amount: 380,
      })
    ).data;
    expect(mine.createdBy).toBe(owner.username);
    const theirs = await partner.client.post('/api/fuel-consumptions', {
      vehicleId: v.id,
      fuelType: 'DIESEL',
      liters: 42,
      fuelPrice: 310,
      date: '2025-04-03',
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.data.createdBy).toBe(partner.username);
    // The owner sees the partner's fill-up "by partner", in the car's list and in the all-cars page.
    const list = (await owner.client.get(`/api/fuel-consumptions/vehicle/${v.id}`)).data;
    expect(list).toEqual([expect.objectContaining({ id: theirs.data.id, createdBy: partner.username })]);
    const page = (await owner.client.get('/api/fuel-consumptions?limit=100')).data.items;
    expect(page.find((r: { id: number }) => r.id === theirs.data.id).createdBy).toBe(partner.username);
    // The partner's all-cars pages and analytics include the shared car; own=true leaves it out.
    const expenses = (await partner.client.get('/api/expenses?limit=100')).data.items;
    expect(expenses.map((r: { id: number }) => r.id)).toContain(mine.id);
    const ownOnly = (await partner.client.get('/api/expenses?limit=100&own=true')).data.items;
    expect(ownOnly.map((r: { id: number }) => r.id)).not.toContain(mine.id);
    const rows = (await partner.client.get('/api/analytics/user')).data;
    expect(rows.some((r: { vehicleId: number }) => r.vehicleId === v.id)).toBe(true);
    const ownRows = (await partner.client.get('/api/analytics/user?own=true')).data;
    expect(ownRows.some((r: { vehicleId: number }) => r.vehicleId === v.id)).toBe(false);
    // The stranger's lists show none of it.
    const strangers = (await stranger.client.get('/api/expenses?limit=100')).data.items;
    expect(strangers.map((r: { id: number }) => r.id)).not.toContain(mine.id);
  });

  it('keeps the car itself to its owner: an editor cannot edit, delete, share or sell it (403)', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    const edit = await partner.client.put(`/api/vehicles/${v.id}`, { ...car(), version: v.version });
    expect(edit.statusCode).toBe(403);
    expect(edit.data.message).toBe('Only the owner can do this.');
    expect((await partner.client.delete(`/api/vehicles/${v.id}`)).statusCode).toBe(403);
    expect((await share(v.id, driver.username, 'VIEWER', partner)).statusCode).toBe(403);
    const sell = await partner.client.post('/api/marketplace/list', {
      vehicleId: v.id,
      price: 5000,
      description: 'x',
    });
    expect(sell.statusCode).toBe(403);
    expect(
      (
        await stranger.client.post('/api/marketplace/list', {
          vehicleId: v.id,
          price: 5000,
          description: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect((await owner.client.get(`/api/vehicles/${v.id}`)).data.model).toBe('Octavia');
  });

  it('sends insurance reminders to the owner and to everyone the car is shared with, once each', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    await share(v.id, driver.username, 'VIEWER');
    const today = new Date('2031-06-01T08:00:00Z');
    await t.database.db.insert(insurances).values({
      vehicleId: v.id,
      provider: 'Groupama',
      startDate: '2030-06-08',
      endDate: '2031-06-08',
      price: 400,
    });
    const first = await runReminderScan(t.database.db, today);
    expect(first).toBeGreaterThanOrEqual(3);
    expect(await runReminderScan(t.database.db, today)).toBe(0);
    for (const who of [owner, partner, driver]) {
      const got = (await notificationsOf(who)).filter(
        (x: { type: string; vehicleId: number }) => x.type === 'INSURANCE_REMINDER' && x.vehicleId === v.id,
      );
      expect(got, who.username).toHaveLength(1);
    }
    expect((await notificationsOf(stranger)).some((x: { vehicleId: number }) => x.vehicleId === v.id)).toBe(
      false,
    );
  });
});

describe('the end of every share', () => {
  it('ends the shares of a deleted car, telling each grantee', async () => {
    const v = await newCar();
    await share(v.id, partner.username, 'EDITOR');
    await share(v.id, driver.username, 'VIEWER');
    expect((await owner.client.delete(`/api/vehicles/${v.id}`)).statusCode).toBe(204);
    for (const who of [partner, driver]) {
      const got = (await notificationsOf(who)).filter(
        (x: { type: string; content: string }) =>
          x.type === 'VEHICLE_ACCESS_ENDED' && x.content.includes('The owner deleted it.'),
      );
      expect(got.length, who.username).toBeGreaterThanOrEqual(1);
    }
    expect((await partner.client.get(`/api/vehicles/${v.id}`)).statusCode).toBe(404);
  });

  it('ends every share when the car is transferred through the marketplace', async () => {
    const seller = await user('seller');
    const buyer = await user('buyer');
    const v = await newCar(seller);
    await share(v.id, partner.username, 'EDITOR', seller);
    await share(v.id, buyer.username, 'VIEWER', seller);
    const listing = await seller.client.post('/api/marketplace/list', {
      vehicleId: v.id,
      price: 7000,
      description: 'Family car',
    });
    expect(listing.statusCode).toBe(201);
    const interest = await buyer.client.post(`/api/marketplace/interest/${listing.data.id}`);
    expect(interest.statusCode).toBeLessThan(300);
    const transfer = await seller.client.patch(`/api/marketplace/transfer/${interest.data.interestId}`);
    expect(transfer.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(vehicles).where(eq(vehicles.id, v.id));
    expect(row?.ownerId).toBe(buyer.id);
    // The buyer owns it now (no leftover share), the partner and the seller reach nothing.
    expect((await buyer.client.get(`/api/vehicles/${v.id}`)).data.access).toBe('OWNER');
    expect((await buyer.client.get(`/api/vehicles/${v.id}/shares`)).data).toEqual([]);
    expect((await partner.client.get(`/api/vehicles/${v.id}`)).statusCode).toBe(404);
    expect((await seller.client.get(`/api/vehicles/${v.id}`)).statusCode).toBe(404);
    const told = (await notificationsOf(partner)).some(
      (x: { type: string; content: string }) =>
        x.type === 'VEHICLE_ACCESS_ENDED' && x.content.includes('transferred to a new owner'),
    );
    expect(told).toBe(true);
    expect(
      (await notificationsOf(buyer)).some((x: { type: string }) => x.type === 'VEHICLE_ACCESS_ENDED'),
    ).toBe(false);
  });
});
