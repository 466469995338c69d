import { consumptionByEntry, odometerConflictMessage, odometerConflictsMany } from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import type { fuelEntries } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import type { RecordsRepo } from '../records/records.repo.js';
import type { RecordRules } from '../records/records.service.js';
import { type FillUpState, FuelRepo } from './fuel.repo.js';

type Repo = RecordsRepo<typeof fuelEntries>;
/** The vehicles module's odometer rule, run on the fuel write's transaction. */
export type RaiseOdometer = (tx: Executor, vehicleId: number, km: number) => Promise<void>;
const conflictMessage = (
  odometer: number,
  entry: { date: string; odometer: number | null },
  earlier: boolean,
) => odometerConflictMessage(odometer, entry, earlier ? 'below-earlier' : 'above-later');
const withPricePerLiter = <
  V extends { pricePerLiter?: number | null; fuelPrice: number; liters: number; odometer?: number | null },
>(
  values: V,
) => ({
  ...values,
  pricePerLiter: values.pricePerLiter ?? Math.round((values.fuelPrice / values.liters) * 1000) / 1000,
  odometer: values.odometer ?? null,
});

/**
 * Derived price per litre, odometer order, consumption and the vehicle's odometer. A write touches
 * only what it changes: the odometer check is one indexed query, and consumption is recomputed from
 * the last full fill before the earliest date the write touched (the rule starts afresh at each
 * full fill), updating only the rows whose figure changed. The vehicle's odometer is the vehicles
 * module's: `raiseOdometer` (given by the app) writes it.
 */
export function fuelRules(raiseOdometer: RaiseOdometer): RecordRules<typeof fuelEntries> {
  // The vehicle's odometer only ever rises: to the highest reading just written, when higher.
  const raiseToHighest = async (repo: Repo, vehicleId: number, rows: { odometer?: number | null }[]) => {
    const highest = rows.reduce((max, r) => Math.max(max, r.odometer ?? 0), 0);
    if (highest > 0) await raiseOdometer(repo.db, vehicleId, highest);
  };
  return {
    async prepare(repo: Repo, values, existingId) {
      const fuel = new FuelRepo(repo.db);
      if (values.odometer !== null && values.odometer !== undefined) {
        const entry = await fuel.odometerConflict(values.vehicleId, values.date, values.odometer, existingId);
        if (entry) {
          const message = conflictMessage(values.odometer, entry, entry.date < values.date);
          throw fieldError('VALIDATION_FAILED', 400, 'odometer', message);
        }
      }
      const prepared = withPricePerLiter(values);
      if (existingId !== undefined) return prepared; // an edit: afterWrite recomputes around both dates
      // A new fill is written once, with its consumption: no update of the row just inserted.
      const [consumption = null] = await consumptionOfNew(fuel, values.vehicleId, [prepared]);
      return { ...prepared, consumptionPer100km: consumption };
    },

    /** prepare for many new fills: the odometer-order check in memory against every reading. */
    async prepareMany(repo: Repo, vehicleId, values) {
      const fuel = new FuelRepo(repo.db);
      const refusedAt = odometerConflictsMany(
        await fuel.readings(vehicleId),
        values.map((v) => ({ date: v.date, odometer: v.odometer ?? null })),
      );
      const refused = [...refusedAt].map(([index, { entry, kind }]) => ({
        index,
        field: 'odometer',
        message: conflictMessage(values[index]?.odometer ?? 0, entry, kind === 'below-earlier'),
      }));
      const kept = values.filter((_, i) => !refusedAt.has(i)).map(withPricePerLiter);
      if (kept.length === 0) return { values: kept, refused };
      const consumption = await consumptionOfNew(fuel, vehicleId, kept);
      return { values: kept.map((v, i) => ({ ...v, consumptionPer100km: consumption[i] ?? null })), refused };
    },

    /** afterWrite for many new fills (consumption was set by prepareMany): the odometer, raised once. */
    afterInsertMany: raiseToHighest,

    async afterWrite(repo: Repo, vehicleId, { before, after }) {
      if (!before && after) {
        // A new fill: prepare computed its consumption (and updated the fills it changes).
        await raiseToHighest(repo, vehicleId, [after]);
        return { consumptionPer100km: after.consumptionPer100km };
      }
      const dates = [before, after]
        .filter((r) => r && r.vehicleId === vehicleId)
        .map((r) => r?.date as string);
      if (dates.length === 0) return undefined;
      const from = [...dates].sort()[0] as string; // ISO dates sort as text
      const fuel = new FuelRepo(repo.db);
      const fills = await fuel.fillsSinceResetBefore(vehicleId, from);
      const consumption = consumptionByEntry(fills);
      for (const row of fills) {
        if (row.date < from) continue; // before the change: unchanged, and its window may be cut short
        const value = consumption.get(row.id) ?? null;
        if (row.consumptionPer100km !== value) await fuel.setConsumption(row.id, value);
      }
      await raiseToHighest(repo, vehicleId, after && after.vehicleId === vehicleId ? [after] : []);
      const written = after && fills.find((row) => row.id === after.id);
      return written ? { consumptionPer100km: consumption.get(written.id) ?? null } : undefined;
    },
  };
}

type NewFill = Pick<FillUpState, 'date' | 'liters'> & {
  odometer?: number | null;
  fullTank?: boolean;
  missedPrevious?: boolean;
};

/**
 * The consumption of fills about to be inserted into one vehicle (in this order), computed before
 * they are written, with the fills they extend, so no new row is written twice; the existing fills
 * whose figure they change are updated in one statement.
 */
async function consumptionOfNew(fuel: FuelRepo, vehicleId: number, fills: NewFill[]) {
  const from = fills.map((v) => v.date).sort()[0] as string; // ISO dates sort as text
  const existing = await fuel.fillsSinceResetBefore(vehicleId, from);
  // New rows get ids above every existing one, in this order: the rule's tie-break by id holds.
  const firstId = existing.reduce((max, f) => Math.max(max, f.id), 0) + 1;
  const fresh = fills.map((v, i) => ({
    id: firstId + i,
    date: v.date,
    odometer: v.odometer ?? null,
    liters: v.liters,
    fullTank: v.fullTank ?? true,
    missedPrevious: v.missedPrevious ?? false,
  }));
  const consumption = consumptionByEntry([...existing, ...fresh]);
  await fuel.setConsumptions(
    existing
      .filter((row) => row.date >= from && row.consumptionPer100km !== (consumption.get(row.id) ?? null))
      .map((row) => ({ id: row.id, value: consumption.get(row.id) ?? null })),
  );
  return fresh.map((f) => consumption.get(f.id) ?? null);
}
