import { RENEWAL_TYPES_BY_COUNTRY } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectInvalid } from './helpers/expect.js';

// Issue 50: a user's currency and units on GET|PUT /api/users/me.

let t: TestApp;
let admin: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registered(t.app, 'admin');
});
afterAll(() => t.close());

async function registerIn(language: 'en' | 'ro' | 'es') {
  const client = new TestClient(t.app);
  const account = newAccount(`mu${language}`);
  const res = await client.post('/api/auth/register', { ...account, language });
  expect(res.statusCode).toBe(201);
  return { client, account, res };
}

const moneyAndUnits = (u: Record<string, unknown>) => ({
  country: u.country,
  currency: u.currency,
  distanceUnit: u.distanceUnit,
  volumeUnit: u.volumeUnit,
  consumptionUnit: u.consumptionUnit,
});

describe('a new account gets its country’s money and units', () => {
  it('Romanian: lei, km, litres, L/100 km, on register, /me and /auth/me', async () => {
    const { client, res } = await registerIn('ro');
    const expected = {
      country: 'RO',
      currency: 'RON',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    };
    expect(moneyAndUnits(res.data.user)).toEqual(expected);
    expect(moneyAndUnits((await client.get('/api/users/me')).data)).toEqual(expected);
    expect(moneyAndUnits((await client.get('/api/auth/me')).data)).toEqual(expected);
  });

  it('Spanish: euros, km, litres, L/100 km; English (GENERIC): the same', async () => {
    for (const language of ['es', 'en'] as const) {
      const { client } = await registerIn(language);
      const me = (await client.get('/api/users/me')).data;
      expect(moneyAndUnits(me)).toEqual({
        country: language === 'es' ? 'ES' : 'GENERIC',
        currency: 'EUR',
        distanceUnit: 'km',
        volumeUnit: 'L',
        consumptionUnit: 'L_100KM',
      });
    }
  });

  it('an account an admin creates in Romanian gets lei too', async () => {
    const account = newAccount('muadm');
    const res = await admin.client.post('/api/admin/users', {
      ...account,
      role: 'USER',
      status: 'Active',
      language: 'ro',
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.currency).toBe('RON');
    const listed = (await admin.client.get(`/api/admin/users?q=${account.username}`)).data;
    expect(listed[0].currency).toBe('RON');
  });

  it('an account made before currencies existed keeps euros, km, litres and L/100 km', async () => {
    // What the migration gives an existing row: the columns' defaults.
    const { client, account } = await registerIn('ro');
    await t.database.db.execute(sql`
      update users set currency = default, distance_unit = default, volume_unit = default,
        consumption_unit = default where username = ${account.username}`);
    expect(moneyAndUnits((await client.get('/api/users/me')).data)).toEqual({
      country: 'RO',
      currency: 'EUR',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
  });
});

describe('PUT /api/users/me: currency and units', () => {
  it('a US driver picks dollars, miles, US gallons and US MPG; they stay on every read', async () => {
    const { client, account } = await registered(t.app, 'muus');
    const res = await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      country: 'US',
      currency: 'USD',
      distanceUnit: 'mi',
      volumeUnit: 'USGAL',
      consumptionUnit: 'MPG_US',
    });
    expect(res.statusCode).toBe(200);
    const expected = {
      country: 'US',
      currency: 'USD',
      distanceUnit: 'mi',
      volumeUnit: 'USGAL',
      consumptionUnit: 'MPG_US',
    };
    expect(moneyAndUnits(res.data)).toEqual(expected);
    expect(moneyAndUnits((await client.get('/api/users/me')).data)).toEqual(expected);
    expect(moneyAndUnits((await client.get('/api/auth/me')).data)).toEqual(expected);
  });

  it('fields left out keep what the user has (an older client changing only the name)', async () => {
    const { client, account } = await registered(t.app, 'mukeep');
    await client.put('/api/users/me', {
      username: account.username,
      email: account.email,
      country: 'GB',
      currency: 'GBP',
      distanceUnit: 'mi',
      consumptionUnit: 'MPG_UK',
    });
    const res = await client.put('/api/users/me', { username: `${account.username}x`, email: account.email });
    expect(res.statusCode).toBe(200);
    expect(moneyAndUnits(res.data)).toEqual({
      country: 'GB',
      currency: 'GBP',
      distanceUnit: 'mi',
      volumeUnit: 'L',
      consumptionUnit: 'MPG_UK',
    });
  });

  it('refuses an unknown currency or unit with 400 naming each field, and changes nothing', async () => {
    const { client, account } = await registered(t.app, 'mubad');
    const base = { username: account.username, email: account.email };
    expectInvalid(await client.put('/api/users/me', { ...base, currency: 'XYZ' }), 'currency');
    expectInvalid(await client.put('/api/users/me', { ...base, currency: 'ron' }), 'currency');
    expectInvalid(await client.put('/api/users/me', { ...base, distanceUnit: 'miles' }), 'distanceUnit');
    expectInvalid(await client.put('/api/users/me', { ...base, volumeUnit: 'gal' }), 'volumeUnit');
    expectInvalid(await client.put('/api/users/me', { ...base, consumptionUnit: 'MPG' }), 'consumptionUnit');
    expectInvalid(await client.put('/api/users/me', { ...base, country: 'FR' }), 'country');
    const me = (await client.get('/api/users/me')).data;
    expect(me.currency).toBe('EUR');
    expect(me.distanceUnit).toBe('km');
  });

  it('GB and US drivers get the generic renewal presets', () => {
    expect(RENEWAL_TYPES_BY_COUNTRY.GB).toEqual(RENEWAL_TYPES_BY_COUNTRY.GENERIC);
    expect(RENEWAL_TYPES_BY_COUNTRY.US).toEqual(RENEWAL_TYPES_BY_COUNTRY.GENERIC);
    expect(RENEWAL_TYPES_BY_COUNTRY.GB).toContain('ROAD_TAX');
  });
});

describe('a refusal speaks the writer’s distance unit', () => {
  it('a fill-up’s odometer below the earlier one: in miles to a miles driver, in km to a km one', async () => {
    const owner = await registered(t.app, 'muodo');
    const car = (
      await owner.client.post('/api/vehicles', {
        make: 'Ford',
        model: 'Focus',
        year: 2018,
        fuelType: 'PETROL',
        registrationNumber: 'B-50-ODO',
        engineSize: 1.5,
        odometer: 90_000,
      })
    ).data.id;
    const fill = (odometer: number, date: string) => ({
      vehicleId: car,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 60,
      odometer,
      date,
      fullTank: true,
    });
    expect((await owner.client.post('/api/fuel-consumptions', fill(100_000, '2024-03-01'))).statusCode).toBe(
      201,
    );
    const inKm = await owner.client.post('/api/fuel-consumptions', fill(90_000, '2024-03-05'));
    expectInvalid(inKm, 'odometer');
    expect(inKm.data.message).toBe(
      'Odometer 90,000 km is lower than 100,000 km on the earlier fill-up of 2024-03-01.',
    );
    const put = await owner.client.put('/api/users/me', {
      username: owner.account.username,
      email: owner.account.email,
      distanceUnit: 'mi',
    });
    expect(put.data.distanceUnit).toBe('mi');
    // 90,000 km is 55,923 mi; 100,000 km is 62,137 mi.
    const inMiles = await owner.client.post('/api/fuel-consumptions', fill(90_000, '2024-03-05'));
    expectInvalid(inMiles, 'odometer');
    expect(inMiles.data.message).toBe(
      'Odometer 55,923 mi is lower than 62,137 mi on the earlier fill-up of 2024-03-01.',
    );
  });
});
