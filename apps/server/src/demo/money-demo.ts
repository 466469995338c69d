import { consumptionByEntry } from '@evdra/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { fuelEntries, insurances, revisions, vehicles } from '../db/schema.js';
import { recomputeConsumption } from '../modules/fuel/fuel.rules.js';

// Issue 50 in the demo: money in the currency it was paid in, measures in each reader's units.

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const money = (n: number) => Math.round(n * 100) / 100;

/** A British driver: pounds, miles, litres at the pump and UK mpg. */
export const UK_DRIVER = {
  username: 'oliver',
  settings: {
    country: 'GB',
    currency: 'GBP',
    distanceUnit: 'mi',
    volumeUnit: 'L',
    consumptionUnit: 'MPG_UK',
  },
} as const;

/** The ECB-style rates the demo's foreign records were paid at (no network needed: typed, MANUAL). */
const RON_PER_HUF = 0.01264;
const RON_PER_EUR = 4.9767;

/**
 * andrei (lei) abroad: an LPG fill-up on a trip to Hungary paid in forints (at his card's rate), and
 * his car's yearly policy priced and paid in euros. Both keep their own amount and currency, with the
 * rate to his lei; the fill-up joins the LPG chain (consumption recomputed).
 */
export async function seedAndreiAbroad(db: Executor, ownerId: number, now: Date) {
  const [car] = await db
    .select({ id: vehicles.id, fuelType: vehicles.fuelType, secondaryFuelType: vehicles.secondaryFuelType })
    .from(vehicles)
    .where(eq(vehicles.ownerId, ownerId));
  if (!car) return;
  const fills = await db
    .select({
      id: fuelEntries.id,
      date: fuelEntries.date,
      odometer: fuelEntries.odometer,
      liters: fuelEntries.liters,
      pricePerLiter: fuelEntries.pricePerLiter,
      fullTank: fuelEntries.fullTank,
    })
    .from(fuelEntries)
    .where(and(eq(fuelEntries.vehicleId, car.id), eq(fuelEntries.fuelType, 'GPL')))
    .orderBy(asc(fuelEntries.date), asc(fuelEntries.odometer));
  // Between two full LPG fills about seven weeks ago: the forint fill-up takes its share of what the
  // next one poured, so both keep the consumption they had.
  const since = day(addDays(now, -50));
  const at = fills.findIndex((f, i) => f.date >= since && f.fullTank && fills[i + 1]?.fullTank);
  const before = fills[at];
  const after = fills[at + 1];
  if (before?.odometer != null && after?.odometer != null && after.odometer - before.odometer > 10) {
    const odometer = Math.round(before.odometer + 0.7 * (after.odometer - before.odometer));
    const litres = money((after.liters * (odometer - before.odometer)) / (after.odometer - before.odometer));
    const rest = money(after.liters - litres);
    await db
      .update(fuelEntries)
      .set({ liters: rest, fuelPrice: money(rest * (after.pricePerLiter ?? 0)) })
      .where(eq(fuelEntries.id, after.id));
    const perLitre = 318.9;
    await db.insert(fuelEntries).values({
      vehicleId: car.id,
      fuelType: 'GPL',
      liters: litres,
      pricePerLiter: perLitre,
      fuelPrice: money(litres * perLitre),
      odometer,
      date: before.date,
      fullTank: true,
      missedPrevious: false,
      currency: 'HUF',
      exchangeRate: RON_PER_HUF,
      rateDate: before.date,
      rateSource: 'MANUAL',
      rateCurrency: 'RON',
    });
    await recomputeConsumption(db, car.id, {
      fuelType: car.fuelType,
      secondaryFuelType: car.secondaryFuelType,
    });
  }
  const start = addDays(now, -200);
  await db.insert(insurances).values({
    vehicleId: car.id,
    provider: 'Allianz-Țiriac',
    policyNumber: 'RCA-EUR-51',
    coverageType: 'RCA',
    startDate: day(start),
    endDate: day(addDays(start, 364)),
    price: 214,
    currency: 'EUR',
    exchangeRate: RON_PER_EUR,
    rateDate: day(start),
    rateSource: 'MANUAL',
    rateCurrency: 'RON',
  });
}

/**
 * oliver's Ford Focus: a year of petrol fill-ups in pounds (full tanks every ten days or so), a
 * service and his policy, all in GBP; he reads miles and UK mpg. Its own PRNG: the rest of the demo
 * stays as it was.
 */
export async function seedUkDriver(
  db: Executor,
  ownerId: number,
  now: Date,
  rnd: { between: (a: number, b: number) => number },
) {
  const inPounds = (date: string) => ({
    currency: 'GBP' as const,
    exchangeRate: 1,
    rateDate: date,
    rateSource: 'ECB' as const,
    rateCurrency: 'GBP' as const,
  });
  const startKm = 61_300;
  const [car] = await db
    .insert(vehicles)
    .values({
      ownerId,
      make: 'Ford',
      model: 'Focus',
      year: 2019,
      fuelType: 'PETROL',
      tankCapacity: 52,
      registrationNumber: 'OV19 FCS',
      engineSize: 1.0,
      odometer: startKm,
      aiEvaluationConsent: true,
    })
    .returning({ id: vehicles.id });
  if (!car) return;
  const fills: (typeof fuelEntries.$inferInsert & { id: number })[] = [];
  let km = startKm;
  let n = 0;
  for (let d = addDays(now, -365); d < now; d = addDays(d, Math.round(rnd.between(8, 13)))) {
    const driven = Math.round(rnd.between(480, 620));
    km += driven;
    // 5.6–6.4 L/100 km: about 44–50 UK mpg.
    const litres = money((driven * rnd.between(5.6, 6.4)) / 100);
    const perLitre = money(
      1.42 + 0.08 * Math.sin((d.getUTCMonth() / 12) * 2 * Math.PI) + rnd.between(-0.03, 0.03),
    );
    fills.push({
      id: n++,
      vehicleId: car.id,
      fuelType: 'PETROL',
      liters: litres,
      pricePerLiter: perLitre,
      fuelPrice: money(litres * perLitre),
      odometer: km,
      date: day(d),
      fullTank: true,
      missedPrevious: false,
      ...inPounds(day(d)),
    });
  }
  const consumption = consumptionByEntry(
    fills.map((f) => ({ ...f, odometer: f.odometer ?? null, fullTank: true, missedPrevious: false })),
  );
  await db
    .insert(fuelEntries)
    .values(fills.map(({ id, ...f }) => ({ ...f, consumptionPer100km: consumption.get(id) ?? null })));
  const serviced = day(addDays(now, -150));
  await db.insert(revisions).values({
    vehicleId: car.id,
    date: serviced,
    km: km - 6_000,
    price: 229,
    description: 'Annual service and MOT',
    ...inPounds(serviced),
  });
  const start = addDays(now, -90);
  await db.insert(insurances).values({
    vehicleId: car.id,
    provider: 'Aviva',
    policyNumber: 'AV-19-FOCUS',
    coverageType: 'Comprehensive',
    startDate: day(start),
    endDate: day(addDays(start, 364)),
    price: 486,
    ...inPounds(day(start)),
  });
  await db.update(vehicles).set({ odometer: km }).where(eq(vehicles.id, car.id));
}
