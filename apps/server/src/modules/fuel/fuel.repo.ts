import type { FillUp, FuelType } from '@evdra/domain';
import { and, desc, eq, gte, isNotNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { fuelEntries as f, vehicles } from '../../db/schema.js';

/** A vehicle's fuels (issue 51): its primary and its second one (null: a single-fuel vehicle). */
export type VehicleFuels = { fuelType: FuelType; secondaryFuelType: FuelType | null };

export type FillUpState = FillUp & { consumptionPer100km: number | null };

/** The fuel-specific queries behind the consumption rule; runs on the caller's transaction. */
export class FuelRepo {
  constructor(private readonly db: Executor) {}

  /**
   * The first fill-up (newest first) a fill with this date and odometer would contradict: an
   * earlier-dated one with a higher reading, or a later-dated one with a lower reading.
   */
  async odometerConflict(vehicleId: number, date: string, odometer: number, exceptId?: number) {
    // Every stored reading passed this check, so readings rise with the date: only the nearest
    // earlier and later days' can contradict. Two index probes say whether one does; looking for
    // it among all the car's fills read a 5,000-fill car's whole history on every fill-up (issue 54).
    const nearest = (side: SQL, order: SQL, contradicts: SQL) =>
      sql`exists (select 1 from (select e.odometer from ${f} e where e.vehicle_id = ${vehicleId}
            and e.odometer is not null and e.id is distinct from ${exceptId ?? null}::int and ${side}
            order by ${order} limit 1) n where ${contradicts})`;
    const [probe] = rowsOf<{ any: boolean }>(
      await this.db.execute(sql`select ${nearest(sql`e.date < ${date}`, sql`e.date desc, e.odometer desc`, sql`n.odometer > ${odometer}`)}
        or ${nearest(sql`e.date > ${date}`, sql`e.date, e.odometer`, sql`n.odometer < ${odometer}`)} as any`),
    );
    if (!probe?.any) return undefined;
    const [row] = await this.db
      .select({ id: f.id, date: f.date, odometer: f.odometer })
      .from(f)
      .where(
        and(
          eq(f.vehicleId, vehicleId),
          isNotNull(f.odometer),
          exceptId === undefined ? undefined : ne(f.id, exceptId),
          or(
            and(lt(f.date, date), sql`${f.odometer} > ${odometer}`),
            and(sql`${f.date} > ${date}`, sql`${f.odometer} < ${odometer}`),
          ),
        ),
      )
      .orderBy(desc(f.date), desc(f.id))
      .limit(1);
    return row;
  }

  /** The vehicle's fuels; undefined when it is not there. */
  async fuelsOf(vehicleId: number): Promise<VehicleFuels | undefined> {
    const [row] = await this.db
      .select({ fuelType: vehicles.fuelType, secondaryFuelType: vehicles.secondaryFuelType })
      .from(vehicles)
      .where(eq(vehicles.id, vehicleId));
    return row;
  }

  /** The fuel a fill-up is stored with (an update that sends none keeps it). */
  async fuelOf(id: number): Promise<FuelType | undefined> {
    const [row] = await this.db.select({ fuelType: f.fuelType }).from(f).where(eq(f.id, id));
    return row?.fuelType;
  }

  /** How many fill-ups of the vehicle are of each of `fuels`. */
  async countByFuel(vehicleId: number, fuels: FuelType[]): Promise<Map<FuelType, number>> {
    if (fuels.length === 0) return new Map();
    const rows = await this.db
      .select({ fuelType: f.fuelType, n: sql<number>`count(*)::int` })
      .from(f)
      .where(and(eq(f.vehicleId, vehicleId), sql`${f.fuelType} in ${fuels}`))
      .groupBy(f.fuelType);
    return new Map(rows.map((r) => [r.fuelType, Number(r.n)]));
  }

  /**
   * Every fill-up from the last full (or missed-previous) fill dated before `from` of each fuel's
   * chain onwards (the earliest of those): enough to recompute consumption from `from` on, since
   * each chain starts afresh at such a fill. `secondary`: the vehicle's second fuel, whose fills
   * run their own chain (every other fill is in the primary's).
   */
  async fillsSinceResetBefore(
    vehicleId: number,
    from: string,
    secondary: FuelType | null = null,
  ): Promise<FillUpState[]> {
    // Per chain with a fill before `from`, its last reset before `from` (none: -infinity, the chain's
    // whole history), each found by walking the (vehicle, date) index back from `from`; then the
    // earliest of the chains'. Grouping every earlier fill by chain read a 5,000-fill car's whole
    // history on each write (issue 54). The second chain exists only with a second fuel.
    const earlier = (where: SQL) =>
      sql`select e.date from ${f} e where e.vehicle_id = ${vehicleId} and e.date < ${from}
            and coalesce(e.fuel_type = ${secondary}::text, false) = c.chain and ${where}`;
    const anchor = sql`select min(coalesce((${earlier(sql`(e.full_tank or e.missed_previous)`)}
                                               order by e.date desc limit 1), '-infinity'::date))
        from (values (false), (true)) c(chain)
        where (not c.chain or ${secondary}::text is not null) and exists (${earlier(sql`true`)})`;
    return this.db
      .select({
        id: f.id,
        date: f.date,
        odometer: f.odometer,
        liters: f.liters,
        fullTank: f.fullTank,
        missedPrevious: f.missedPrevious,
        fuelType: f.fuelType,
        distanceOnThisFuel: f.distanceOnThisFuel,
        consumptionPer100km: f.consumptionPer100km,
      })
      .from(f)
      .where(and(eq(f.vehicleId, vehicleId), gte(f.date, sql`coalesce((${anchor}), '-infinity'::date)`)));
  }

  /** Every reading of the vehicle's fill-ups (the odometer-order check of an import). */
  readings(vehicleId: number): Promise<{ date: string; odometer: number | null }[]> {
    return this.db.select({ date: f.date, odometer: f.odometer }).from(f).where(eq(f.vehicleId, vehicleId));
  }

  /** Sets many fill-ups' consumption in one statement per 5,000 rows. */
  async setConsumptions(changes: { id: number; value: number | null }[]) {
    for (let i = 0; i < changes.length; i += 5000) {
      const part = changes.slice(i, i + 5000);
      const ids = `{${part.map((c) => c.id).join(',')}}`;
      const values = `{${part.map((c) => (c.value === null ? 'NULL' : c.value)).join(',')}}`;
      await this.db.execute(sql`update ${f} set consumption_per_100km = v.c
        from unnest(${ids}::int[], ${values}::numeric[]) as v(id, c) where ${f.id} = v.id`);
    }
  }

  async setConsumption(id: number, value: number | null) {
    await this.db.update(f).set({ consumptionPer100km: value }).where(eq(f.id, id));
  }
}
