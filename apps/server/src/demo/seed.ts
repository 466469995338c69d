import { randomUUID } from 'node:crypto';
import { consumptionByEntry, type ExpenseType, type FuelType, type Language } from '@evdra/domain';
import { inArray } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.js';
import { expenses, files, fuelEntries, insurances, revisions, users, vehicles } from '../db/schema.js';
import { databaseFileStore } from '../files/db-file-store.js';
import type { FileStore } from '../files/file-store.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { seedAndreiAbroad, seedUkDriver, UK_DRIVER } from './money-demo.js';
import { demoCarPhoto, SHAPES } from './photos.js';
import { type SeededVehicle, seedShowcase } from './showcase.js';

export const DEMO_PASSWORD = 'evdra-demo-1';
export const DEMO_ACCOUNTS: { username: string; role: 'ADMIN' | 'USER'; language: Language }[] = [
  { username: 'demo_admin', role: 'ADMIN', language: 'en' },
  { username: 'maria', role: 'USER', language: 'ro' },
  { username: 'john', role: 'USER', language: 'en' },
  { username: 'lucia', role: 'USER', language: 'es' },
  /** A small used-car dealer: most of the marketplace's listings. */
  { username: 'autopark', role: 'USER', language: 'ro' },
  /** Counts in lei and drives a Dacia Logan Eco-G on LPG and petrol (issue 51). */
  { username: 'andrei', role: 'USER', language: 'ro' },
  /** A British driver in pounds, miles and UK mpg (issue 50). */
  { username: 'oliver', role: 'USER', language: 'en' },
];

type Model = {
  make: string;
  model: string;
  fuelType: FuelType;
  engineSize: number;
  per100: number;
  tank: number;
};
const MODELS: Model[] = [
  { make: 'Dacia', model: 'Logan', fuelType: 'PETROL', engineSize: 1.0, per100: 6.3, tank: 50 },
  { make: 'Volkswagen', model: 'Golf', fuelType: 'DIESEL', engineSize: 2.0, per100: 5.4, tank: 50 },
  { make: 'Skoda', model: 'Octavia', fuelType: 'DIESEL', engineSize: 1.6, per100: 5.0, tank: 55 },
  { make: 'Renault', model: 'Clio', fuelType: 'GPL', engineSize: 0.9, per100: 8.1, tank: 40 },
  { make: 'BMW', model: '320d', fuelType: 'DIESEL', engineSize: 2.0, per100: 6.1, tank: 59 },
  { make: 'Toyota', model: 'Corolla', fuelType: 'PETROL', engineSize: 1.8, per100: 5.2, tank: 43 },
  { make: 'Ford', model: 'Focus', fuelType: 'PETROL', engineSize: 1.5, per100: 6.8, tank: 52 },
  { make: 'Tesla', model: 'Model 3', fuelType: 'ELECTRIC', engineSize: 0, per100: 15.5, tank: 60 },
];
/** The dealer's stock: a year of history each, all listed on the marketplace. */
const DEALER_MODELS: Model[] = [
  { make: 'Volkswagen', model: 'Passat', fuelType: 'DIESEL', engineSize: 2.0, per100: 5.6, tank: 66 },
  { make: 'Dacia', model: 'Sandero', fuelType: 'GPL', engineSize: 1.0, per100: 7.9, tank: 40 },
  { make: 'Ford', model: 'Kuga', fuelType: 'PETROL', engineSize: 1.5, per100: 7.6, tank: 60 },
  { make: 'Nissan', model: 'Leaf', fuelType: 'ELECTRIC', engineSize: 0, per100: 16.8, tank: 40 },
  { make: 'Renault', model: 'Megane', fuelType: 'DIESEL', engineSize: 1.5, per100: 4.9, tank: 50 },
];

/** Which cars a demo user keeps, and since when their records go back. */
function garageOf(u: number, username: string, now: Date): { models: Model[]; since: Date } {
  if (username === 'autopark') return { models: DEALER_MODELS, since: addDays(now, -365) };
  const count = 2 + ((u * 7) % 3);
  return {
    models: Array.from({ length: count }, (_, i) => MODELS[(u * 3 + i) % MODELS.length] as Model),
    since: addDays(now, -3 * 365),
  };
}
const BASE_PRICE: Record<FuelType, number> = {
  PETROL: 1.52,
  DIESEL: 1.48,
  GPL: 0.72,
  ELECTRIC: 0.29,
  CNG: 1.35,
};
const INSURERS = ['Allianz', 'Groupama', 'Omniasig', 'Generali', 'Mapfre'];
const EXTRAS: { type: ExpenseType; min: number; max: number; text: string }[] = [
  { type: 'Wash', min: 8, max: 25, text: 'Car wash' },
  { type: 'Parking', min: 3, max: 40, text: 'City parking' },
  { type: 'Tolls', min: 6, max: 30, text: 'Motorway toll' },
  { type: 'Repair', min: 120, max: 900, text: 'Brake pads and discs' },
  { type: 'Tyres', min: 280, max: 620, text: 'Seasonal tyre change' },
  { type: 'Accessories', min: 15, max: 120, text: 'Phone holder and mats' },
];

/** Small deterministic PRNG, so the demo data is the same on every machine. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (a: number, b: number) => a + (b - a) * next(),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] as T,
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const money = (n: number) => Math.round(n * 100) / 100;

export class DemoAlreadySeeded extends Error {}

/**
 * An admin, three users with 2–4 vehicles each and three years of believable records up to `now`
 * (fuel with seasonal prices, a service about every 15,000 km, yearly insurance with one policy per
 * user ending within a week, occasional repairs and small expenses), and a dealer with a year of
 * history on five cars; then the showcase (showcase.ts): marketplace, conversations, a sale, the
 * mechanic's chat and notifications. Refuses to run twice, before changing anything.
 */
export async function seedDemo(
  db: Db,
  now = new Date(),
  /** Where the vehicles' photos go (drawn locally); without it the vehicles have none and listing photos go to the database. */
  fileStore?: FileStore,
): Promise<{ username: string; password: string; role: string }[]> {
  const names = DEMO_ACCOUNTS.map((a) => a.username);
  const existing = await db
    .select({ username: users.username })
    .from(users)
    .where(inArray(users.username, names));
  if (existing.length > 0) {
    throw new DemoAlreadySeeded(
      `Demo data is already here (user "${existing[0]?.username}" exists). Nothing was changed. Use a fresh DATA_DIR or database to seed again.`,
    );
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const rnd = random(20_251_122);
  const userIds = new Map<string, number>();
  const seeded: SeededVehicle[] = [];

  await db.transaction(async (tx) => {
    for (const [u, account] of DEMO_ACCOUNTS.entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          ...account,
          ...(account.username === 'andrei' ? { currency: 'RON' as const } : {}),
          ...(account.username === UK_DRIVER.username ? UK_DRIVER.settings : {}),
          email: `${account.username}@demo.evdra`,
          passwordHash,
          gdprConsent: true,
          status: 'Active',
        })
        .returning({ id: users.id });
      if (!user) continue;
      userIds.set(account.username, user.id);
      if (account.role === 'ADMIN') continue;
      if (account.username === 'andrei') {
        await seedEcoG(tx, user.id, now);
        await seedAndreiAbroad(tx, user.id, now);
        continue;
      }
      if (account.username === UK_DRIVER.username) {
        await seedUkDriver(tx, user.id, now, random(50_044));
        continue;
      }
      const garage = garageOf(u, account.username, now);
      for (const [i, m] of garage.models.entries()) {
        const startKm = Math.round(rnd.between(20_000, 120_000));
        const [vehicle] = await tx
          .insert(vehicles)
          .values({
            ownerId: user.id,
            make: m.make,
            model: m.model,
            year: 2012 + ((u + i * 3) % 12),
            fuelType: m.fuelType,
            registrationNumber: `DEMO-${u}${i}-${m.make.slice(0, 2).toUpperCase()}`,
            engineSize: m.engineSize,
            odometer: startKm,
            aiEvaluationConsent: i % 2 === 0,
          })
          .returning({ id: vehicles.id });
        if (!vehicle) continue;
        const photo = seeded.length;
        seeded.push({ id: vehicle.id, owner: account.username, make: m.make, model: m.model, photo });
        if (fileStore) {
          const bytes = await demoCarPhoto(photo, SHAPES[photo % SHAPES.length] ?? 'hatch');
          const fileId = `demo${randomUUID().replaceAll('-', '')}`;
          await fileStore.put(fileId, bytes);
          await tx
            .insert(files)
            .values({ id: fileId, vehicleId: vehicle.id, contentType: 'image/jpeg', size: bytes.length });
          await tx
            .update(vehicles)
            .set({ photoId: fileId })
            .where(inArray(vehicles.id, [vehicle.id]));
        }
        const endKm = await seedVehicle(tx, vehicle.id, m, startKm, garage.since, now, rnd, i === 0);
        await tx
          .update(vehicles)
          .set({ odometer: endKm })
          .where(inArray(vehicles.id, [vehicle.id]));
      }
    }
  });
  await seedShowcase(db, fileStore ?? databaseFileStore(db), now, userIds, seeded);
  return DEMO_ACCOUNTS.map((a) => ({ username: a.username, password: DEMO_PASSWORD, role: a.role }));
}

async function seedVehicle(
  db: Executor,
  vehicleId: number,
  m: Model,
  startKm: number,
  start: Date,
  now: Date,
  rnd: ReturnType<typeof random>,
  policyEndsSoon: boolean,
): Promise<number> {
  const kmPerDay = rnd.between(25, 60);
  const fills: (typeof fuelEntries.$inferInsert & { id: number })[] = [];
  const services: (typeof revisions.$inferInsert)[] = [];
  const extras: (typeof expenses.$inferInsert)[] = [];
  let km = startKm;
  let lastServiceKm = startKm - Math.round(rnd.between(2_000, 12_000));
  for (let d = start, n = 0; d < now; d = addDays(d, Math.round(rnd.between(9, 16))), n++) {
    // Never more than a tank (or a battery) covers, so consumption stays believable for every fuel.
    const driven = Math.round(Math.min(kmPerDay * rnd.between(9, 16), (m.tank / m.per100) * 100 * 0.85));
    km += driven;
    const full = rnd.next() > 0.12;
    const liters = money(
      Math.min(m.tank, (driven * m.per100 * rnd.between(0.92, 1.1)) / 100) * (full ? 1 : 0.6),
    );
    const season = Math.sin(((d.getUTCMonth() - 3) / 12) * 2 * Math.PI); // dearer in summer
    const price = money(BASE_PRICE[m.fuelType] * (1 + 0.06 * season + rnd.between(-0.03, 0.03)));
    fills.push({
      id: n,
      vehicleId,
      fuelType: m.fuelType,
      liters,
      pricePerLiter: price,
      fuelPrice: money(liters * price),
      odometer: km,
      date: day(d),
      fullTank: full,
      missedPrevious: false,
    });
    if (km - lastServiceKm >= 15_000) {
      lastServiceKm = km;
      services.push({
        vehicleId,
        date: day(d),
        km,
        price: money(rnd.between(240, 720)),
        description: 'Oil, filters and inspection',
      });
    }
    if (rnd.next() < 0.22) {
      const e = rnd.pick(EXTRAS);
      extras.push({
        vehicleId,
        date: day(new Date(Math.min(addDays(d, 2).getTime(), now.getTime()))), // never in the future
        expenseType: e.type,
        amount: money(rnd.between(e.min, e.max)),
        description: e.text,
      });
    }
  }
  const consumption = consumptionByEntry(
    fills.map((f) => ({ ...f, odometer: f.odometer ?? null, fullTank: !!f.fullTank, missedPrevious: false })),
  );
  if (fills.length) {
    await db
      .insert(fuelEntries)
      .values(fills.map(({ id, ...f }) => ({ ...f, consumptionPer100km: consumption.get(id) ?? null })));
  }
  if (services.length) await db.insert(revisions).values(services);
  if (extras.length) await db.insert(expenses).values(extras);

  // Yearly policies back from the current one; the current one ends soon on the first vehicle.
  const currentEnd = addDays(now, policyEndsSoon ? 5 : Math.round(rnd.between(40, 300)));
  const provider = rnd.pick(INSURERS);
  const policies = [0, 1, 2].map((y) => {
    const end = addDays(currentEnd, -365 * y);
    return {
      vehicleId,
      provider,
      policyNumber: `${provider.slice(0, 3).toUpperCase()}-${vehicleId}${y}${Math.round(rnd.between(1000, 9999))}`,
      coverageType: m.make === 'BMW' || m.make === 'Tesla' ? 'CASCO' : 'RCA',
      startDate: day(addDays(end, -364)),
      endDate: day(end),
      price: money(rnd.between(180, 420) * (m.make === 'BMW' || m.make === 'Tesla' ? 2.5 : 1)),
    };
  });
  await db.insert(insurances).values(policies);
  return km;
}

/**
 * A Dacia Logan Eco-G (factory LPG beside petrol) with a year of both fuels, in lei (issue 51): LPG
 * every week or so (a partial fill now and then), petrol about every two months (the engine starts
 * and warms up on petrol), each fill in its own full-to-full chain. Its own PRNG: the other demo
 * data stay as they were.
 */
async function seedEcoG(db: Executor, ownerId: number, now: Date) {
  const rnd = random(51_051);
  const startKm = 41_200;
  const [vehicle] = await db
    .insert(vehicles)
    .values({
      ownerId,
      make: 'Dacia',
      model: 'Logan Eco-G',
      year: 2022,
      fuelType: 'PETROL',
      secondaryFuelType: 'GPL',
      tankCapacity: 50,
      secondaryTankCapacity: 40,
      registrationNumber: 'B-51-GPL',
      engineSize: 1.0,
      odometer: startKm,
      aiEvaluationConsent: true,
    })
    .returning({ id: vehicles.id });
  if (!vehicle) return;
  const inLei = (date: string) => ({
    currency: 'RON' as const,
    exchangeRate: 1,
    rateDate: date,
    rateSource: 'ECB' as const,
    rateCurrency: 'RON' as const,
  });
  const fills: (typeof fuelEntries.$inferInsert & { id: number })[] = [];
  let km = startKm;
  let sincePetrol = 0;
  let petrolLitres = 0;
  let owed = 0;
  let n = 0;
  for (let d = addDays(now, -365); d < now; d = addDays(d, Math.round(rnd.between(5, 9)))) {
    const driven = Math.round(rnd.between(300, 430));
    km += driven;
    sincePetrol += driven;
    // About 3% of the km on petrol (cold starts), the rest on LPG at 8.6–9.8 L/100 km.
    petrolLitres += (driven * 0.03 * 6.2) / 100;
    const full = rnd.next() > 0.1;
    // What the engine burnt since the last fill; a partial fill leaves some of it for the next.
    const burnt = (driven * 0.97 * rnd.between(8.6, 9.8)) / 100 + owed;
    const lpg = money(full ? burnt : burnt * 0.55);
    owed = full ? 0 : burnt - lpg;
    const lpgPrice = money(
      3.45 + 0.2 * Math.sin(((d.getUTCMonth() - 3) / 12) * 2 * Math.PI) + rnd.between(-0.05, 0.05),
    );
    fills.push({
      id: n++,
      vehicleId: vehicle.id,
      fuelType: 'GPL',
      liters: lpg,
      pricePerLiter: lpgPrice,
      fuelPrice: money(lpg * lpgPrice),
      odometer: km,
      date: day(d),
      fullTank: full,
      missedPrevious: false,
      ...inLei(day(d)),
    });
    if (sincePetrol >= 2_500 && rnd.next() < 0.6) {
      // The petrol tank topped up to full at the same station, a few km on.
      km += 2;
      const litres = money(petrolLitres + rnd.between(0.5, 2));
      const petrolPrice = money(7.1 + rnd.between(-0.15, 0.25));
      fills.push({
        id: n++,
        vehicleId: vehicle.id,
        fuelType: 'PETROL',
        liters: litres,
        pricePerLiter: petrolPrice,
        fuelPrice: money(litres * petrolPrice),
        odometer: km,
        date: day(d),
        fullTank: true,
        missedPrevious: false,
        ...inLei(day(d)),
      });
      sincePetrol = 0;
      petrolLitres = 0;
    }
  }
  const consumption = consumptionByEntry(
    fills.map((f) => ({
      ...f,
      odometer: f.odometer ?? null,
      fullTank: !!f.fullTank,
      missedPrevious: false,
      fuelType: f.fuelType,
    })),
    'GPL',
  );
  await db
    .insert(fuelEntries)
    .values(fills.map(({ id, ...f }) => ({ ...f, consumptionPer100km: consumption.get(id) ?? null })));
  await db.insert(revisions).values({
    vehicleId: vehicle.id,
    date: day(addDays(now, -120)),
    km: km - 4_000,
    price: 890,
    description: 'Revizie: ulei, filtre, filtru GPL și verificare instalație GPL',
    ...inLei(day(addDays(now, -120))),
  });
  await db
    .update(vehicles)
    .set({ odometer: km })
    .where(inArray(vehicles.id, [vehicle.id]));
}
