import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runReminderScan } from '../src/jobs/reminders.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A night with thousands of due services across users (issue 54): the job writes them in chunks of
// 250 and checks vehicles 2,500 ids at a time, so these cars' ids span many of its ranges.
let t: TestApp;
const scan = () => runReminderScan(t.database.db, new Date('2025-06-01T08:00:00Z'));
type Notification = { title: string; content: string; vehicleId: number };
const list = async (c: TestClient) => (await c.get('/api/notifications')).data as Notification[];
const unread = async (c: TestClient) => (await c.get('/api/notifications/count')).data.count as number;

/**
 * `count` cars of `owner` with ids from `firstId` every 7, each with one service: by date (serviced
 * 2024-01-10, due 2025-01-10) or, every other car, by km (serviced last month, 15,000 km ago).
 */
async function cars(owner: number, firstId: number, count: number, reminder = true) {
  await t.database.db.execute(sql`
    insert into vehicles (id, owner_id, make, model, year, fuel_type, registration_number, engine_size, odometer)
    select ${firstId} + 7 * g, ${owner}, 'Dacia', 'Logan', 2018, 'PETROL', 'M-' || (${firstId} + 7 * g), 1.2, 120000
      from generate_series(0, ${count - 1}) g`);
  await t.database.db.execute(sql`
    insert into revisions (vehicle_id, date, km, price, reminder_enabled, created_by)
    select ${firstId} + 7 * g, case when g % 2 = 0 then date '2024-01-10' else date '2025-05-01' end,
           case when g % 2 = 0 then 119000 else 105000 end, 300, ${reminder}, ${owner}
      from generate_series(0, ${count - 1}) g`);
}

let alice: TestClient;
let ana: TestClient;
let carol: TestClient;
let dave: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  const user = async (name: string, prefs: Record<string, string>) => {
    const r = await registered(t.app, name);
    await r.client.put('/api/users/me', { username: r.account.username, email: r.account.email, ...prefs });
    return r;
  };
  const a = await user('alice', {});
  const b = await user('ana', { language: 'ro' });
  const c = await user('carol', { distanceUnit: 'mi' });
  const d = await user('dave', {});
  [alice, ana, carol, dave] = [a.client, b.client, c.client, d.client];
  await cars(a.user.id, 100_000, 1_300);
  await cars(b.user.id, 200_000, 700);
  await cars(c.user.id, 300_000, 200);
  await cars(d.user.id, 400_000, 300, false);
  // One of alice's cars is shared with ana: she is reminded of it too, in her language.
  await t.database.db.execute(
    sql`insert into vehicle_shares (vehicle_id, user_id, role) values (100000, ${b.user.id}, 'VIEWER')`,
  );
}, 300_000);
afterAll(() => t.close());

it('notifies every due service once, to each owner and grantee in their language and unit', async () => {
  expect(await scan()).toBe(1_300 + 700 + 1 + 200);
  expect(await unread(alice)).toBe(1_300);
  expect(await unread(ana)).toBe(701);
  expect(await unread(carol)).toBe(200);
  expect(await unread(dave)).toBe(0); // reminders off

  const a = await list(alice);
  expect(a).toHaveLength(200); // the list's cap; the count says all
  expect(new Set(a.map((n) => n.title))).toEqual(new Set(['Service due now']));
  const byDate = a.find((n) => (n.vehicleId - 100_000) % 14 === 0);
  const byKm = a.find((n) => (n.vehicleId - 100_000) % 14 === 7);
  expect(byDate?.content).toBe(
    `Your Dacia Logan (M-${byDate?.vehicleId}) is due for a service on 2025-01-10.`,
  );
  expect(byKm?.content).toBe(
    `Your Dacia Logan (M-${byKm?.vehicleId}) has driven 15,000 km since its last service: time for the next one.`,
  );
  const b = await list(ana);
  expect(new Set(b.map((n) => n.title))).toEqual(new Set(['Revizia este scadentă']));
  expect(b.find((n) => (n.vehicleId - 200_000) % 14 === 0)?.content).toMatch(
    /^Dacia Logan \(M-\d+\) are revizia scadentă pe 2025-01-10\.$/,
  );
  const c = await list(carol);
  expect(c.find((n) => (n.vehicleId - 300_000) % 14 === 7)?.content).toContain('has driven 9,321 mi since');

  // The next night (or a run overlapping this one) sends nothing again.
  const [again, overlapping] = await Promise.all([scan(), scan()]);
  expect((again ?? 0) + (overlapping ?? 0)).toBe(0);
  expect(await unread(alice)).toBe(1_300);
}, 300_000);
