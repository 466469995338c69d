import type { FillUp } from '@evdra/domain';
import { and, desc, eq, gte, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { fuelEntries as f } from '../../db/schema.js';

export type FillUpState = FillUp & { consumptionPer100km: number | null };

/** The fuel-specific queries behind the consumption rule; runs on the caller's transaction. */
export class FuelRepo {
  constructor(private readonly db: Executor) {}

  /**
   * The first fill-up (newest first) a fill with this date and odometer would contradict: an
   * earlier-dated one with a higher reading, or a later-dated one with a lower reading.
   */
  async odometerConflict(vehicleId: number, date: string, odometer: number, exceptId?: number) {
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

  /**
   * Every fill-up from the last full (or missed-previous) fill dated before `from` onwards: enough
   * to recompute consumption from `from` on, since the rule starts afresh at such a fill.
   */
  async fillsSinceResetBefore(vehicleId: number, from: string): Promise<FillUpState[]> {
    const anchor = this.db
      .select({ d: sql`max(${f.date})` })
      .from(f)
      .where(
        and(
          eq(f.vehicleId, vehicleId),
          lt(f.date, from),
          or(eq(f.fullTank, true), eq(f.missedPrevious, true)),
        ),
      );
    return this.db
      .select({
        id: f.id,
        date: f.date,
        odometer: f.odometer,
        liters: f.liters,
        fullTank: f.fullTank,
        missedPrevious: f.missedPrevious,
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
