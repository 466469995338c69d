import type { Db } from '../db/client.js';
import { renewals, vehicles } from '../db/schema.js';
import type { Principal } from '../modules/auth/auth.service.js';
import { SharingRepo } from '../modules/sharing/sharing.repo.js';
import { SharingService } from '../modules/sharing/sharing.service.js';
import type { VehiclesService } from '../modules/vehicles/vehicles.service.js';
import { recordServices } from '../record-services.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

type RenewalPlan = {
  type: (typeof renewals.$inferInsert)['type'];
  daysLeft: number;
  months: number;
  price: number;
};

/** Romania's (maria) and Spain's (lucia) renewals: some due within two weeks, so the bell and calendar show them. */
const RENEWALS: Record<string, Record<string, RenewalPlan[]>> = {
  maria: {
    Clio: [
      { type: 'ITP', daysLeft: 12, months: 24, price: 150 },
      { type: 'ROVINIETA', daysLeft: 25, months: 12, price: 28 },
    ],
    Corolla: [
      { type: 'ITP', daysLeft: 290, months: 24, price: 150 },
      { type: 'ROVINIETA', daysLeft: 160, months: 12, price: 28 },
    ],
  },
  lucia: {
    Golf: [
      { type: 'ITV', daysLeft: 9, months: 12, price: 45 },
      { type: 'IVTM', daysLeft: 120, months: 12, price: 68 },
    ],
    Octavia: [{ type: 'ITV', daysLeft: 410, months: 24, price: 45 }],
  },
};

/**
 * A year of a Seat Ibiza's fill-ups and two services as LubeLogger exports them (US dates, one CSV
 * per record type), imported for lucia like a user switching apps would.
 */
function lubeLoggerFiles(now: Date): { gas: string; service: string } {
  const us = (d: Date) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
  const gas = ['Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags'];
  let km = 61_200;
  for (let i = 0; i < 26; i++) {
    const day = addDays(now, -364 + i * 14);
    km += 520 + ((i * 37) % 90);
    const liters = Math.round((520 + ((i * 37) % 90)) * 0.058 * 100) / 100;
    gas.push(`${us(day)},${km},${liters},${(liters * 1.61).toFixed(2)},0,True,False,,`);
  }
  const service = [
    'Date,Description,Cost,Notes,Odometer,Tags',
    `${us(addDays(now, -300))},Oil and filter change,189.90,,${61_200 + 2_400},`,
    `${us(addDays(now, -60))},Brake pads front,240.00,,${km - 2_600},`,
  ];
  return { gas: gas.join('\r\n'), service: service.join('\r\n') };
}

/**
 * The showcase of this batch's features: a car maria shares with john (editor), Romanian and Spanish
 * renewals, and a car whose history lucia brought from LubeLogger, through the app's own services.
 */
export async function seedBatchFeatures(
  db: Db,
  now: Date,
  who: (username: string) => Principal,
  carOf: (owner: string, model: string) => { id: number },
  vehiclesService: VehiclesService,
): Promise<void> {
  const sharing = new SharingService(new SharingRepo(db), vehiclesService);
  await sharing.share(who('maria'), carOf('maria', 'Corolla').id, { username: 'john', role: 'EDITOR' });

  for (const [owner, cars] of Object.entries(RENEWALS)) {
    for (const [model, plans] of Object.entries(cars)) {
      const vehicleId = carOf(owner, model).id;
      await db.insert(renewals).values(
        plans.map((r) => {
          const until = addDays(now, r.daysLeft);
          const from = new Date(until);
          from.setUTCMonth(from.getUTCMonth() - r.months);
          return {
            vehicleId,
            type: r.type,
            validFrom: isoDay(addDays(from, 1)),
            validUntil: isoDay(until),
            price: r.price,
            createdById: who(owner).userId,
          };
        }),
      );
    }
  }

  const [ibiza] = await db
    .insert(vehicles)
    .values({
      ownerId: who('lucia').userId,
      make: 'Seat',
      model: 'Ibiza',
      year: 2017,
      fuelType: 'PETROL',
      registrationNumber: '4821 KLM',
      engineSize: 1.0,
      odometer: 61_200,
      aiEvaluationConsent: false,
    })
    .returning({ id: vehicles.id });
  if (!ibiza) throw new Error('demo: no Ibiza');
  const files = lubeLoggerFiles(now);
  const { importer } = recordServices(db, vehiclesService);
  await importer.confirm(who('lucia'), ibiza.id, Buffer.from(files.gas));
  await importer.confirm(who('lucia'), ibiza.id, Buffer.from(files.service));
}
