import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { DEMO_PASSWORD, DemoAlreadySeeded, seedDemo } from '../src/demo/seed.js';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { TestClient } from './helpers/client.js';

let t: TestApp;
const now = new Date('2026-11-22T09:00:00Z');
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database.db, now);
});
afterAll(() => t.close());

describe('demo seed', () => {
  it('creates an admin and three users with 2–4 vehicles and three years of records', async () => {
    const admin = new TestClient(t.app);
    expect(
      (await admin.post('/api/auth/login', { username: 'demo_admin', password: DEMO_PASSWORD })).statusCode,
    ).toBe(200);
    const users = (await admin.get('/api/admin/users')).data as {
      username: string;
      role: string;
      vehicles: unknown[];
    }[];
    expect(users.map((u) => [u.username, u.role])).toEqual([
      ['demo_admin', 'ADMIN'],
      ['maria', 'USER'],
      ['john', 'USER'],
      ['lucia', 'USER'],
    ]);
    for (const u of users.slice(1)) expect(u.vehicles.length).toBeGreaterThanOrEqual(2);
    for (const u of users.slice(1)) expect(u.vehicles.length).toBeLessThanOrEqual(4);

    const maria = new TestClient(t.app);
    await maria.post('/api/auth/login', { username: 'maria', password: DEMO_PASSWORD });
    const [car] = (await maria.get('/api/vehicles')).data;
    const months = (await maria.get(`/api/analytics/vehicle/${car.id}/recompute`)).data as {
      monthDate: string;
    }[];
    expect(months.length).toBeGreaterThanOrEqual(35);
    const fuel = (await maria.get(`/api/fuel-consumptions/vehicle/${car.id}`)).data as {
      consumptionPer100km: number | null;
    }[];
    const known = fuel.map((f) => f.consumptionPer100km).filter((c): c is number => c !== null);
    expect(known.length).toBeGreaterThan(fuel.length / 2);
    for (const c of known) expect(c).toBeGreaterThan(2);
    const services = (await maria.get(`/api/revision/vehicle/${car.id}`)).data;
    expect(services.length).toBeGreaterThanOrEqual(2);
  });

  it('dates no fill-up, expense or service after the day it runs', async () => {
    const [latest] = rowsOf<{ latest: string }>(
      await t.database.db.execute(sql`
        select greatest((select max(date) from fuel_entries), (select max(date) from expenses),
                        (select max(date) from revisions))::text as latest`),
    );
    expect(latest?.latest).toBeDefined();
    expect((latest?.latest ?? '') <= '2026-11-22').toBe(true);
  });

  it('gives each user an insurance reminder once the scan runs', async () => {
    expect(await runReminderScan(t.database.db, now)).toBeGreaterThanOrEqual(3);
    const john = new TestClient(t.app);
    await john.post('/api/auth/login', { username: 'john', password: DEMO_PASSWORD });
    const titles = ((await john.get('/api/notifications')).data as { title: string }[]).map((n) => n.title);
    expect(titles).toContain('Insurance ends in 7 days');
  });

  it('refuses to run twice, with a clear message', async () => {
    await expect(seedDemo(t.database.db, now)).rejects.toThrow(DemoAlreadySeeded);
    await expect(seedDemo(t.database.db, now)).rejects.toThrow(/already here.*Nothing was changed/);
  });
});
