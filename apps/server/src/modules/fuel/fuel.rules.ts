import { consumptionByEntry } from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import type { fuelEntries } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import type { RecordsRepo } from '../records/records.repo.js';
import type { RecordRules } from '../records/records.service.js';
import { FuelRepo } from './fuel.repo.js';

type Repo = RecordsRepo<typeof fuelEntries>;
/** The vehicles module's odometer rule, run on the fuel write's transaction. */
export type RaiseOdometer = (tx: Executor, vehicleId: number, km: number) => Promise<void>;
const km = (n: number) => `${n.toLocaleString('en-US')} km`;

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
          const message =
            entry.date < values.date
              ? `Odometer ${km(values.odometer)} is lower than ${km(entry.odometer ?? 0)} on the earlier fill-up of ${entry.date}.`
              : `Odometer ${km(values.odometer)} is higher than ${km(entry.odometer ?? 0)} on the later fill-up of ${entry.date}.`;
          throw fieldError('VALIDATION_FAILED', 400, 'odometer', message);
        }
      }
      const pricePerLiter =
        values.pricePerLiter ?? Math.round((values.fuelPrice / values.liters) * 1000) / 1000;
      return { ...values, pricePerLiter, odometer: values.odometer ?? null };
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
