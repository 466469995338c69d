import type { CurrencyCode } from '@evdra/domain';
import { asc, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { expenses, fuelEntries, insurances, revisions, users, vehicles } from '../../db/schema.js';
import { lockVehicle } from '../records/records.repo.js';
import { type ExistingKeys, keyOf } from './keys.js';

/** What an import reads of a vehicle's records, and the transaction it writes them in. */
export class ImportRepo {
  constructor(readonly db: Db) {}

  /** Runs `fn` in one transaction holding the vehicle's record lock (as every record write does). */
  inVehicleLock<R>(vehicleId: number, fn: (tx: Executor) => Promise<R>): Promise<R> {
    return this.db.transaction(async (tx) => {
      await lockVehicle(tx, vehicleId);
      return fn(tx);
    });
  }

  /** The duplicate keys of every record the vehicle has. */
  async existingKeys(vehicleId: number, db: Executor = this.db): Promise<ExistingKeys> {
    // One after the other: on a transaction (confirm) the four share one connection.
    const fuel = await db
      .select({ date: fuelEntries.date, odometer: fuelEntries.odometer, fuelPrice: fuelEntries.fuelPrice })
      .from(fuelEntries)
      .where(eq(fuelEntries.vehicleId, vehicleId));
    const exp = await db
      .select({ date: expenses.date, amount: expenses.amount })
      .from(expenses)
      .where(eq(expenses.vehicleId, vehicleId));
    const rev = await db
      .select({ date: revisions.date, km: revisions.km, price: revisions.price })
      .from(revisions)
      .where(eq(revisions.vehicleId, vehicleId));
    const ins = await db
      .select({ startDate: insurances.startDate, price: insurances.price })
      .from(insurances)
      .where(eq(insurances.vehicleId, vehicleId));
    return {
      fuel: new Set(fuel.map(keyOf.fuel)),
      expenses: new Set(exp.map(keyOf.expenses)),
      revisions: new Set(rev.map(keyOf.revisions)),
      insurance: new Set(ins.map(keyOf.insurance)),
    };
  }

  /** The currency of the vehicle's owner (a record's rate converts into it); undefined: no such vehicle. */
  async ownerCurrency(vehicleId: number, db: Executor = this.db): Promise<CurrencyCode | undefined> {
    const [row] = await db
      .select({ currency: users.currency })
      .from(vehicles)
      .innerJoin(users, eq(users.id, vehicles.ownerId))
      .where(eq(vehicles.id, vehicleId));
    return row?.currency;
  }

  /** Every record of a vehicle, oldest first. */
  records(vehicleId: number): Promise<VehicleRecords> {
    return recordsOfVehicle(this.db, vehicleId);
  }

  /** Every reading of the vehicle's fill-ups (what the odometer-order check compares against). */
  readings(vehicleId: number, db: Executor = this.db) {
    return db
      .select({ date: fuelEntries.date, odometer: fuelEntries.odometer })
      .from(fuelEntries)
      .where(eq(fuelEntries.vehicleId, vehicleId));
  }
}

/** Every record of a vehicle, oldest first (the CSV export). */
export async function recordsOfVehicle(db: Executor, vehicleId: number) {
  const [fuel, exp, rev, ins] = await Promise.all([
    db
      .select()
      .from(fuelEntries)
      .where(eq(fuelEntries.vehicleId, vehicleId))
      .orderBy(asc(fuelEntries.date), asc(fuelEntries.id)),
    db
      .select()
      .from(expenses)
      .where(eq(expenses.vehicleId, vehicleId))
      .orderBy(asc(expenses.date), asc(expenses.id)),
    db
      .select()
      .from(revisions)
      .where(eq(revisions.vehicleId, vehicleId))
      .orderBy(asc(revisions.date), asc(revisions.id)),
    db
      .select()
      .from(insurances)
      .where(eq(insurances.vehicleId, vehicleId))
      .orderBy(asc(insurances.startDate), asc(insurances.id)),
  ]);
  return { fuel, expenses: exp, revisions: rev, insurance: ins };
}
export type VehicleRecords = Awaited<ReturnType<typeof recordsOfVehicle>>;
