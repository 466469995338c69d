import {
  type Conversation,
  type Listing,
  type MarketChatMessage,
  TRANSFER_MESSAGE,
  type Vehicle,
} from '@evdra/domain';
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

async function as(username: string) {
  const client = new TestClient(t.app);
  expect((await client.post('/api/auth/login', { username, password: DEMO_PASSWORD })).statusCode).toBe(200);
  return client;
}

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
      ['autopark', 'USER'],
      ['andrei', 'USER'],
      ['oliver', 'USER'],
    ]);
    for (const u of users.slice(1, 4)) expect(u.vehicles.length).toBeGreaterThanOrEqual(2);
    for (const u of users.slice(1, 4)) expect(u.vehicles.length).toBeLessThanOrEqual(4);

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

  it('gives andrei, in lei, a Dacia Logan Eco-G with a year of LPG and petrol, each with its own consumption', async () => {
    const andrei = await as('andrei');
    const [eco] = (await andrei.get('/api/vehicles')).data as Vehicle[];
    expect(eco).toMatchObject({ model: 'Logan Eco-G', fuelType: 'PETROL', secondaryFuelType: 'GPL' });
    const fills = (await andrei.get(`/api/fuel-consumptions/vehicle/${eco?.id}`)).data as {
      date: string;
      fuelType: string;
      consumptionPer100km: number | null;
    }[];
    const of = (fuel: string) => fills.filter((f) => f.fuelType === fuel);
    expect(of('GPL').length).toBeGreaterThan(35);
    expect(of('PETROL').length).toBeGreaterThanOrEqual(3);
    expect(fills.at(-1)?.date).toBe('2025-11-22'); // a year back from the day it runs
    for (const f of of('GPL').filter((f) => f.consumptionPer100km !== null)) {
      expect(f.consumptionPer100km).toBeGreaterThan(7);
      expect(f.consumptionPer100km).toBeLessThan(12);
    }
    const total = (await andrei.get(`/api/analytics/vehicle/${eco?.id}/total`)).data;
    expect(total.currency).toBe('RON');
    const [petrol, lpg] = total.byFuel as { fuelType: string; per100km: number; cost: number }[];
    expect([petrol?.fuelType, lpg?.fuelType]).toEqual(['PETROL', 'GPL']);
    expect(lpg?.per100km).toBeGreaterThan(8);
    expect(lpg?.per100km).toBeLessThan(10);
    expect(petrol?.per100km).toBeLessThan(1);
  });

  it("keeps andrei's forint fill-up from Hungary and his policy in euros, each with its rate to his lei", async () => {
    const andrei = await as('andrei');
    const [eco] = (await andrei.get('/api/vehicles')).data as Vehicle[];
    const fills = (await andrei.get(`/api/fuel-consumptions/vehicle/${eco?.id}`)).data as {
      currency: string;
      fuelPrice: number;
      pricePerLiter: number;
      exchangeRate: number;
      consumptionPer100km: number | null;
    }[];
    const huf = fills.filter((f) => f.currency === 'HUF');
    expect(huf).toHaveLength(1);
    expect(huf[0]).toMatchObject({ pricePerLiter: 318.9, exchangeRate: 0.01264 });
    // A tank's worth of forints: thousands of them, never read as lei.
    expect(huf[0]?.fuelPrice).toBeGreaterThan(3_000);
    // It joins the LPG chain: a believable consumption, not one spanning two tanks.
    expect(huf[0]?.consumptionPer100km).toBeGreaterThan(7);
    expect(huf[0]?.consumptionPer100km).toBeLessThan(12);
    const policies = (await andrei.get(`/api/insurance/vehicle/${eco?.id}`)).data as {
      price: number;
      currency: string;
      exchangeRate: number;
    }[];
    expect(policies).toEqual([
      expect.objectContaining({ price: 214, currency: 'EUR', exchangeRate: 4.9767 }),
    ]);
    // His totals in lei count the euros at their rate: 214 € is 1,065.01 lei.
    const total = (await andrei.get(`/api/analytics/vehicle/${eco?.id}/total`)).data;
    expect(total).toMatchObject({ currency: 'RON', totalInsuranceCost: 1065.01 });
  });

  it('gives oliver, in the UK, pounds, miles and UK mpg on a year of his Ford Focus', async () => {
    const oliver = await as('oliver');
    expect((await oliver.get('/api/users/me')).data).toMatchObject({
      country: 'GB',
      currency: 'GBP',
      distanceUnit: 'mi',
      volumeUnit: 'L',
      consumptionUnit: 'MPG_UK',
    });
    const [focus] = (await oliver.get('/api/vehicles')).data as Vehicle[];
    expect(focus).toMatchObject({ make: 'Ford', model: 'Focus', ownerCurrency: 'GBP' });
    const fills = (await oliver.get(`/api/fuel-consumptions/vehicle/${focus?.id}`)).data as {
      currency: string;
      consumptionPer100km: number | null;
    }[];
    expect(fills.length).toBeGreaterThan(25);
    expect(new Set(fills.map((f) => f.currency))).toEqual(new Set(['GBP']));
    const total = (await oliver.get(`/api/analytics/vehicle/${focus?.id}/total`)).data;
    expect(total.currency).toBe('GBP');
    // 5.6–6.4 L/100 km: about 44–50 UK mpg.
    const [petrol] = total.byFuel as { per100km: number }[];
    expect(petrol?.per100km).toBeGreaterThan(5.5);
    expect(petrol?.per100km).toBeLessThan(6.5);
    const fuel = await oliver.get(`/ai-feedback/vehicle/${focus?.id}/fuel`);
    expect(fuel.body).toMatch(/£[\d,]+\.\d\d/);
    expect(fuel.body).toMatch(/\d+\.\d mpg/);
    expect(fuel.body).not.toMatch(/€|L\/100/);
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

  it('has already given each user an unread insurance reminder (a second scan adds none)', async () => {
    expect(await runReminderScan(t.database.db, now)).toBe(0);
    const john = await as('john');
    const notes = (await john.get('/api/notifications')).data as { title: string; read: boolean }[];
    expect(notes.filter((n) => !n.read).map((n) => n.title)).toContain('Insurance ends in 7 days');
  });

  it('fills the marketplace: 8 cards in every price band and one N/A, each with 2–4 photos', async () => {
    const john = await as('john');
    const cards = (await john.get('/api/marketplace/listings')).data as Listing[];
    expect(cards.length).toBeGreaterThanOrEqual(8);
    expect(cards.length).toBeLessThanOrEqual(12);
    expect(new Set(cards.map((c) => c.priceRating.label))).toEqual(
      new Set(['Very High', 'High', 'Fair', 'Low', 'Very Low', 'N/A']),
    );
    expect(cards.filter((c) => c.priceRating.label === 'N/A')).toHaveLength(1);
    expect(new Set(cards.map((c) => c.listedByUsername))).toEqual(
      new Set(['autopark', 'maria', 'john', 'lucia']),
    );
    for (const c of cards) {
      expect(c.photoUrls.length).toBeGreaterThanOrEqual(2);
      expect(c.photoUrls.length).toBeLessThanOrEqual(4);
    }
    const photo = await john.get(cards[0]?.photoUrls[1] ?? '');
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
  });

  it('shows a conversation between maria and john, and a car lucia bought from john with its history', async () => {
    const maria = await as('maria');
    const [talk] = (await maria.get('/api/marketplace/conversations')).data as Conversation[];
    expect(talk).toMatchObject({
      counterparty: 'john',
      role: 'buyer',
      vehicle: { make: 'Ford', model: 'Focus' },
    });
    const messages = (await maria.get(`/api/marketplace/chat/${talk?.interestId}`))
      .data as MarketChatMessage[];
    expect(messages.map((m) => m.sender)).toEqual(['maria', 'john', 'maria', 'john']);

    const lucia = await as('lucia');
    const logan = ((await lucia.get('/api/vehicles')).data as Vehicle[]).find((v) => v.model === 'Logan');
    expect(logan?.ownerUsername).toBe('lucia');
    const fuel = (await lucia.get(`/api/fuel-consumptions/vehicle/${logan?.id}`)).data as unknown[];
    expect(fuel.length).toBeGreaterThan(50);
    const [sale] = (await lucia.get('/api/marketplace/conversations')).data as Conversation[];
    const chat = (await lucia.get(`/api/marketplace/chat/${sale?.interestId}`)).data as MarketChatMessage[];
    expect(chat.at(-1)?.content).toBe(TRANSFER_MESSAGE);
    const john = await as('john');
    expect(((await john.get('/api/vehicles')).data as Vehicle[]).map((v) => v.model)).not.toContain('Logan');
  });

  it('gives maria a mechanic chat answered from her own records, in Romanian', async () => {
    const maria = await as('maria');
    const history = (await maria.get('/api/chat/history')).data as { role: string; content: string }[];
    expect(history.map((m) => m.role)).toEqual(['user', 'ai', 'user', 'ai']);
    expect(history[1]?.content).toMatch(/următoarea revizie până pe .* \d{4} sau la [\d.]+ km/);
    expect(history[3]?.content).toMatch(/[\d,]+\s€ pe combustibil în/);
  });

  it('has notifications of every kind, some read and some not', async () => {
    const kinds = rowsOf<{ type: string; read: boolean }>(
      await t.database.db.execute(sql`select distinct type, read from notifications`),
    );
    for (const type of [
      'INSURANCE_REMINDER',
      'REVISION_REMINDER',
      'MARKET_INTEREST',
      'MARKET_MESSAGE',
      'MARKET_TRANSFER',
    ])
      expect(kinds.some((k) => k.type === type)).toBe(true);
    expect(kinds.some((k) => k.read)).toBe(true);
    expect(kinds.some((k) => !k.read)).toBe(true);
  });

  it('has an electric car charged in kWh, a GPL car and a diesel, with believable consumption', async () => {
    const ranges = rowsOf<{ fuel_type: string; avg: number }>(
      await t.database.db.execute(sql`
        select f.fuel_type, avg(f.consumption_per_100km)::float8 as avg from fuel_entries f
        where f.consumption_per_100km is not null group by 1`),
    );
    const avg = Object.fromEntries(ranges.map((r) => [r.fuel_type, r.avg]));
    expect(avg.ELECTRIC).toBeGreaterThan(12); // kWh/100km
    expect(avg.ELECTRIC).toBeLessThan(22);
    expect(avg.GPL).toBeGreaterThan(6);
    expect(avg.GPL).toBeLessThan(11);
    expect(avg.DIESEL).toBeGreaterThan(4);
    expect(avg.DIESEL).toBeLessThan(7.5);
  });

  it("shares maria's Corolla with john as an editor, who can log its fill-ups", async () => {
    const john = await as('john');
    const corolla = ((await john.get('/api/vehicles')).data as Vehicle[]).find((v) => v.model === 'Corolla');
    expect(corolla).toMatchObject({ ownerUsername: 'maria', access: 'EDITOR' });
  });

  it('keeps Romanian and Spanish renewals, some due within two weeks', async () => {
    const maria = await as('maria');
    const clio = ((await maria.get('/api/vehicles')).data as Vehicle[]).find((v) => v.model === 'Clio');
    const ro = (await maria.get(`/api/vehicles/${clio?.id}/renewals`)).data as {
      type: string;
      validUntil: string;
    }[];
    expect(ro.map((r) => r.type).sort()).toEqual(['ITP', 'ROVINIETA']);
    const lucia = await as('lucia');
    const golf = ((await lucia.get('/api/vehicles')).data as Vehicle[]).find((v) => v.model === 'Golf');
    const es = (await lucia.get(`/api/vehicles/${golf?.id}/renewals`)).data as {
      type: string;
      validUntil: string;
    }[];
    expect(es.map((r) => r.type).sort()).toEqual(['ITV', 'IVTM']);
    const soon = new Date(now.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
    expect([...ro, ...es].filter((r) => r.validUntil <= soon).length).toBeGreaterThanOrEqual(2);
  });

  it('gives every active listing its history report link, which opens without a login', async () => {
    const john = await as('john');
    const cards = (await john.get('/api/marketplace/listings')).data as (Listing & {
      reportUrl: string | null;
    })[];
    for (const c of cards) expect(c.reportUrl).toMatch(/\/r\/[\w-]{40,}$/);
    const page = await t.app.inject({
      method: 'GET',
      url: new URL(cards[0]?.reportUrl ?? '', 'http://x').pathname,
    });
    expect(page.statusCode).toBe(200);
  });

  it("has lucia's Seat Ibiza with a year of history imported from LubeLogger files", async () => {
    const lucia = await as('lucia');
    const ibiza = ((await lucia.get('/api/vehicles')).data as Vehicle[]).find((v) => v.model === 'Ibiza');
    const fuel = (await lucia.get(`/api/fuel-consumptions/vehicle/${ibiza?.id}`)).data as {
      consumptionPer100km: number | null;
    }[];
    expect(fuel).toHaveLength(26);
    expect(fuel.filter((f) => f.consumptionPer100km !== null).length).toBe(25);
    expect(((await lucia.get(`/api/revision/vehicle/${ibiza?.id}`)).data as unknown[]).length).toBe(2);
    expect(ibiza?.odometer).toBeGreaterThan(61_200 + 25 * 500);
  });

  it('refuses to run twice, with a clear message, without touching the data', async () => {
    const count = async () =>
      rowsOf<{ n: string }>(
        await t.database.db.execute(sql`
          select (select count(*) from users) + (select count(*) from vehicles) + (select count(*) from listings)
               + (select count(*) from notifications) + (select count(*) from chat_messages) as n`),
      )[0]?.n;
    const before = await count();
    await expect(seedDemo(t.database.db, now)).rejects.toThrow(DemoAlreadySeeded);
    await expect(seedDemo(t.database.db, now)).rejects.toThrow(/already here.*Nothing was changed/);
    expect(await count()).toBe(before);
  });
});
