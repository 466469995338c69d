import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// A listed car's record summary (the marketplace card's history, vehicle_history) after every kind of
// write. Since migration 0042 an insert adds what it brings to the summary instead of reading every
// record of the car again (issue 54: a fill-up into a 5,000-fill car counted all 5,000); an update or
// a delete still refreshes it from the records. After each step the card must say what the records say.

let t: TestApp;
let seller: TestClient;
let buyer: TestClient;
let car: number;
let listing: number;

type History = {
  services: number;
  lastService: { date: string; km: number | null } | null;
  recordsSince: string | null;
  fuelEntries: number;
  consumptionPer100km: number | null;
};

/** The summary as the car's records say it, counted from scratch. */
async function fromRecords(): Promise<History> {
  const [row] = rowsOf<{
    services: number;
    last_date: string | null;
    last_km: number | null;
    since: string | null;
    fills: number;
    consumption: string | null;
  }>(
    await t.database.db.execute(sql`select
      (select count(*)::int from revisions where vehicle_id = ${car}) as services,
      (select to_char(date, 'YYYY-MM-DD') from revisions where vehicle_id = ${car} order by date desc, id desc limit 1) as last_date,
      (select km from revisions where vehicle_id = ${car} order by date desc, id desc limit 1) as last_km,
      to_char(least((select min(date) from revisions where vehicle_id = ${car}),
                    (select min(date) from fuel_entries where vehicle_id = ${car}),
                    (select min(date) from expenses where vehicle_id = ${car}),
                    (select min(start_date) from insurances where vehicle_id = ${car})), 'YYYY-MM-DD') as since,
      (select count(*)::int from fuel_entries where vehicle_id = ${car}) as fills,
      (select round(avg(consumption_per_100km), 2)::text from fuel_entries where vehicle_id = ${car}) as consumption`),
  );
  if (!row) throw new Error('no summary');
  return {
    services: row.services,
    lastService: row.last_date ? { date: row.last_date, km: row.last_km } : null,
    recordsSince: row.since,
    fuelEntries: row.fills,
    consumptionPer100km: row.consumption === null ? null : Number(row.consumption),
  };
}

/** The card's history, which must be what the records say; returned for the step's own checks. */
async function cardSaysTheRecords(): Promise<History> {
  const res = await buyer.get(`/api/marketplace/listings/${listing}`);
  expect(res.statusCode).toBe(200);
  const expected = await fromRecords();
  expect(res.data.history).toMatchObject(expected);
  return res.data.history;
}

const fill = (date: string, odometer: number, liters = 40) =>
  seller.post('/api/fuel-consumptions', {
    vehicleId: car,
    fuelType: 'DIESEL',
    liters,
    fuelPrice: liters * 1.7,
    odometer,
    date,
    fullTank: true,
  });

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'vhadmin'); // the first account is the admin
  seller = (await registered(t.app, 'vhseller')).client;
  buyer = (await registered(t.app, 'vhbuyer')).client;
  const res = await seller.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Duster',
    year: 2018,
    fuelType: 'DIESEL',
    registrationNumber: 'VH-01-EVD',
    engineSize: 1.5,
    odometer: 40_000,
  });
  car = res.data.id;
  const listed = await seller.post('/api/marketplace/list', {
    vehicleId: car,
    price: 9000,
    description: 'Kept.',
  });
  expect(listed.statusCode, listed.body).toBe(201);
  listing = listed.data.id;
});
afterAll(() => t.close());

describe("a listed car's record summary", () => {
  it('adds each inserted record, of every kind, to the card', async () => {
    expect(await cardSaysTheRecords()).toMatchObject({ services: 0, fuelEntries: 0, recordsSince: null });
    expect((await fill('2024-03-01', 50_000)).statusCode).toBe(201);
    expect((await fill('2024-03-15', 50_800, 48)).statusCode).toBe(201);
    expect((await fill('2024-04-01', 51_500, 35)).statusCode).toBe(201);
    // The first full fill has no consumption; the next two 6.0 and 5.0 l/100 km.
    expect(await cardSaysTheRecords()).toMatchObject({ fuelEntries: 3, consumptionPer100km: 5.5 });
    await seller.post('/api/revision', { vehicleId: car, date: '2024-02-10', km: 49_000, price: 300 });
    await seller.post('/api/revision', { vehicleId: car, date: '2023-11-05', km: 45_000, price: 250 });
    expect(await cardSaysTheRecords()).toMatchObject({
      services: 2,
      lastService: { date: '2024-02-10', km: 49_000 },
      recordsSince: '2023-11-05',
    });
    await seller.post('/api/expenses', {
      vehicleId: car,
      date: '2023-06-01',
      expenseType: 'Parking',
      amount: 5,
    });
    await seller.post('/api/insurance', {
      vehicleId: car,
      provider: 'Allianz',
      policyNumber: 'VH-1',
      startDate: '2023-01-01',
      endDate: '2023-12-31',
      price: 200,
    });
    expect(await cardSaysTheRecords()).toMatchObject({ recordsSince: '2023-01-01' });
  });

  it('follows a fill written between two others, an edit and a delete', async () => {
    // Between two fills: its own consumption, and the next fill's changed by the same write.
    expect((await fill('2024-03-20', 51_000, 12)).statusCode).toBe(201);
    await cardSaysTheRecords();
    const fills = (await seller.get(`/api/fuel-consumptions/vehicle/${car}`)).data as {
      id: number;
      date: string;
    }[];
    const newest = fills.find((f) => f.date === '2024-04-01');
    const edited = await seller.put(`/api/fuel-consumptions/${newest?.id}`, {
      vehicleId: car,
      fuelType: 'DIESEL',
      liters: 20,
      fuelPrice: 34,
      odometer: 51_500,
      date: '2024-04-01',
      fullTank: true,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await cardSaysTheRecords();
    const oldest = fills.find((f) => f.date === '2024-03-01');
    expect((await seller.delete(`/api/fuel-consumptions/${oldest?.id}`)).statusCode).toBe(204);
    expect(await cardSaysTheRecords()).toMatchObject({ fuelEntries: 3 });
  });

  it('moves back to the service before when the last one is deleted, and the start with the first record', async () => {
    const services = (await seller.get(`/api/revision/vehicle/${car}`)).data as {
      id: number;
      date: string;
    }[];
    const last = services.find((s) => s.date === '2024-02-10');
    expect((await seller.delete(`/api/revision/${last?.id}`)).statusCode).toBe(204);
    expect(await cardSaysTheRecords()).toMatchObject({
      services: 1,
      lastService: { date: '2023-11-05', km: 45_000 },
    });
    const policies = (await seller.get(`/api/insurance/vehicle/${car}`)).data as { id: number }[];
    expect((await seller.delete(`/api/insurance/${policies[0]?.id}`)).statusCode).toBe(204);
    expect(await cardSaysTheRecords()).toMatchObject({ recordsSince: '2023-06-01' });
    // The next insert adds to a summary a refresh wrote: still what the records say.
    expect((await fill('2024-05-01', 52_300, 44)).statusCode).toBe(201);
    await cardSaysTheRecords();
  });
});
