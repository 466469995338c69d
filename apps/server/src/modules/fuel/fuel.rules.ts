import { consumptionByEntry, odometerConflictMessage, odometerConflictsMany } from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import type { fuelEntries } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import type { RecordsRepo } from '../records/records.repo.js';
import type { RecordRules } from '../records/records.service.js';
import { FuelRepo } from './fuel.repo.js';

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
  return {
    async prepare(repo: Repo, values, existingId) {
      if (values.odometer !== null && values.odometer !== undefined) {
        const entry = await new FuelRepo(repo.db).odometerConflict(
          values.vehicleId,
          values.date,
          values.odometer,
          existingId,
        );
        if (entry) {
          const message = conflictMessage(values.odometer, entry, entry.date < values.date);
          throw fieldError('VALIDATION_FAILED', 400, 'odometer', message);
        }
      }
      return withPricePerLiter(values);
    },

    async prepareMany(repo: Repo, vehicleId, values) {
      const refusedAt = odometerConflictsMany(
        await new FuelRepo(repo.db).readings(vehicleId),
        values.map((v) => ({ date: v.date, odometer: v.odometer ?? null })),
      );
      const refused = [...refusedAt].map(([index, { entry, kind }]) => ({
        index,
        field: 'odometer',
        message: conflictMessage(values[index]?.odometer ?? 0, entry, kind === 'below-earlier'),
      }));
      return { values: values.filter((_, i) => !refusedAt.has(i)).map(withPricePerLiter), refused };
    },

    /** afterWrite for many new fills: one recompute from the earliest, one odometer raise to the highest. */
    async afterInsertMany(repo: Repo, vehicleId, rows) {
      const from = rows.map((r) => r.date).sort()[0] ?? ''; // ISO dates sort as text
      const fuel = new FuelRepo(repo.db);
      const fills = await fuel.fillsSinceResetBefore(vehicleId, from);
      const consumption = consumptionByEntry(fills);
      await fuel.setConsumptions(
        fills
          .filter((row) => row.date >= from && row.consumptionPer100km !== (consumption.get(row.id) ?? null))
          .map((row) => ({ id: row.id, value: consumption.get(row.id) ?? null })),
      );
      const highest = rows.reduce((max, r) => Math.max(max, r.odometer ?? 0), 0);
      if (highest > 0) await raiseOdometer(repo.db, vehicleId, highest);
    },

    async afterWrite(repo: Repo, vehicleId, { before, after }) {
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
      // The vehicle's odometer only ever rises: to the reading just written, when higher.
      if (after && after.vehicleId === vehicleId && (after.odometer ?? 0) > 0)
        await raiseOdometer(repo.db, vehicleId, after.odometer ?? 0);
      const written = after && fills.find((row) => row.id === after.id);
      return written ? { consumptionPer100km: consumption.get(written.id) ?? null } : undefined;
    },
  };
}
