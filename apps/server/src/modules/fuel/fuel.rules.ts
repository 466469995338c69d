import { consumptionByEntry, odometerConflict } from '@evdra/domain';
import type { fuelEntries } from '../../db/schema.js';
import { fieldError } from '../../lib/errors.js';
import type { RecordsRepo } from '../records/records.repo.js';
import type { RecordRules } from '../records/records.service.js';

type Repo = RecordsRepo<typeof fuelEntries>;
const km = (n: number) => `${n.toLocaleString('en-US')} km`;

/** Derived price per litre, odometer order, consumption and the vehicle's odometer. */
export const fuelRules: RecordRules<typeof fuelEntries> = {
  async prepare(repo: Repo, values, existingId) {
    const others = await repo.listByVehicle(values.vehicleId);
    const conflict = odometerConflict(others, {
      id: existingId,
      date: values.date,
      odometer: values.odometer,
    });
    if (conflict) {
      const { entry, kind } = conflict;
      const message =
        kind === 'below-earlier'
          ? `Odometer ${km(values.odometer ?? 0)} is lower than ${km(entry.odometer ?? 0)} on the earlier fill-up of ${entry.date}.`
          : `Odometer ${km(values.odometer ?? 0)} is higher than ${km(entry.odometer ?? 0)} on the later fill-up of ${entry.date}.`;
      throw fieldError('VALIDATION_FAILED', 400, 'odometer', message);
    }
    const pricePerLiter =
      values.pricePerLiter ?? Math.round((values.fuelPrice / values.liters) * 1000) / 1000;
    return { ...values, pricePerLiter, odometer: values.odometer ?? null };
  },

  async afterWrite(repo: Repo, vehicleId) {
    const all = await repo.listByVehicle(vehicleId);
    const consumption = consumptionByEntry(all);
    for (const row of all) {
      const value = consumption.get(row.id) ?? null;
      if (row.consumptionPer100km !== value)
        await repo.update(row.id, { consumptionPer100km: value }, { bumpVersion: false });
    }
    const highest = Math.max(0, ...all.map((r) => r.odometer ?? 0));
    if (highest > 0) await repo.raiseVehicleOdometer(vehicleId, highest);
  },
};
