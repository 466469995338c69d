import {
  consumptionByEntry,
  type DistanceUnitCode,
  type FuelType,
  fuelsOf,
  kmToDistance,
  odometerConflictMessage,
  odometerConflictsMany,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import type { fuelEntries } from '../../db/schema.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { lockVehicle, type RecordsRepo } from '../records/records.repo.js';
import type { RecordRules } from '../records/records.service.js';
import { type FillUpState, FuelRepo, type VehicleFuels } from './fuel.repo.js';

const FUEL_NAMES: Record<FuelType, string> = {
  PETROL: 'petrol',
  DIESEL: 'diesel',
  GPL: 'LPG',
  CNG: 'CNG',
  ELECTRIC: 'electricity',
};
/** Why a fill of `fuel` may not go on a vehicle with these fuels (the API's 400 on fuelType). */
export const wrongFuelMessage = (fuel: FuelType, fuels: VehicleFuels) =>
  `This vehicle runs on ${fuelsOf(fuels)
    .map((f) => FUEL_NAMES[f])
    .join(' and ')}, not ${FUEL_NAMES[fuel]}.`;

type Repo = RecordsRepo<typeof fuelEntries>;
/** The vehicles module's odometer rule, run on the fuel write's transaction. */
export type RaiseOdometer = (tx: Executor, vehicleId: number, km: number) => Promise<void>;
/** A reading in miles, as a miles writer typed it ('62,137 mi'). */
const miles = (km: number) => `${Math.round(kmToDistance(km, 'mi')).toLocaleString('en-US')} mi`;
/** Why a fill's odometer was refused, in the writer's distance unit (issue 50; km: the domain's text). */
const conflictMessage = (
  odometer: number,
  entry: { date: string; odometer: number | null },
  earlier: boolean,
  unit: DistanceUnitCode = 'km',
) => {
  if (unit === 'km')
    return odometerConflictMessage(odometer, entry, earlier ? 'below-earlier' : 'above-later');
  const other = miles(entry.odometer ?? 0);
  return earlier
    ? `Odometer ${miles(odometer)} is lower than ${other} on the earlier fill-up of ${entry.date}.`
    : `Odometer ${miles(odometer)} is higher than ${other} on the later fill-up of ${entry.date}.`;
};
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
    async prepare(repo: Repo, sent, existingId, writer) {
      const fuel = new FuelRepo(repo.db);
      const fuels = await fuel.fuelsOf(sent.vehicleId);
      if (!fuels) throw notFound('Vehicle');
      // Absent: the primary fuel on a create; on an update, the fill keeps its own.
      const values = {
        ...sent,
        fuelType: sent.fuelType ?? (existingId === undefined ? fuels.fuelType : undefined),
      };
      if (values.fuelType && !fuelsOf(fuels).includes(values.fuelType)) {
        // A fill written before issue 51 may keep the fuel it was written with.
        const kept = existingId !== undefined && (await fuel.fuelOf(existingId)) === values.fuelType;
        if (!kept)
          throw fieldError('VALIDATION_FAILED', 400, 'fuelType', wrongFuelMessage(values.fuelType, fuels));
      }
      if (values.odometer !== null && values.odometer !== undefined) {
        const entry = await fuel.odometerConflict(values.vehicleId, values.date, values.odometer, existingId);
        if (entry) {
          const message = conflictMessage(
            values.odometer,
            entry,
            entry.date < values.date,
            writer?.distanceUnit,
          );
          throw fieldError('VALIDATION_FAILED', 400, 'odometer', message);
        }
      }
      const prepared = withPricePerLiter(values);
      if (existingId !== undefined) return prepared; // an edit: afterWrite recomputes around both dates
      // A new fill is written once, with its consumption: no update of the row just inserted.
      const [consumption = null] = await consumptionOfNew(fuel, values.vehicleId, [prepared], fuels);
      return { ...prepared, consumptionPer100km: consumption };
    },

    /** prepare for many new fills: the odometer-order check in memory against every reading. */
    async prepareMany(repo: Repo, vehicleId, sent) {
      const fuel = new FuelRepo(repo.db);
      const fuels = await fuel.fuelsOf(vehicleId);
      if (!fuels) throw notFound('Vehicle');
      const values = sent.map((v) => ({ ...v, fuelType: v.fuelType ?? fuels.fuelType }));
      const wrongFuel = new Map<number, string>();
      values.forEach((v, index) => {
        if (!fuelsOf(fuels).includes(v.fuelType)) wrongFuel.set(index, wrongFuelMessage(v.fuelType, fuels));
      });
      const refusedAt = odometerConflictsMany(
        await fuel.readings(vehicleId),
        values.map((v) => ({ date: v.date, odometer: v.odometer ?? null })),
      );
      const refused = [
        ...[...wrongFuel].map(([index, message]) => ({ index, field: 'fuelType', message })),
        ...[...refusedAt]
          .filter(([index]) => !wrongFuel.has(index))
          .map(([index, { entry, kind }]) => ({
            index,
            field: 'odometer',
            message: conflictMessage(values[index]?.odometer ?? 0, entry, kind === 'below-earlier'),
          })),
      ].sort((a, b) => a.index - b.index);
      const kept = values.filter((_, i) => !refusedAt.has(i) && !wrongFuel.has(i)).map(withPricePerLiter);
      if (kept.length === 0) return { values: kept, refused };
      const consumption = await consumptionOfNew(fuel, vehicleId, kept, fuels);
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
      const secondary = (await fuel.fuelsOf(vehicleId))?.secondaryFuelType ?? null;
      const fills = await fuel.fillsSinceResetBefore(vehicleId, from, secondary);
      const consumption = consumptionByEntry(fills, secondary);
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
  fuelType?: FuelType;
  distanceOnThisFuel?: number | null;
};

/**
 * The consumption of fills about to be inserted into one vehicle (in this order), computed before
 * they are written, with the fills they extend, so no new row is written twice; the existing fills
 * whose figure they change are updated in one statement.
 */
async function consumptionOfNew(fuel: FuelRepo, vehicleId: number, fills: NewFill[], fuels: VehicleFuels) {
  const from = fills.map((v) => v.date).sort()[0] as string; // ISO dates sort as text
  const secondary = fuels.secondaryFuelType;
  const existing = await fuel.fillsSinceResetBefore(vehicleId, from, secondary);
  // New rows get ids above every existing one, in this order: the rule's tie-break by id holds.
  const firstId = existing.reduce((max, f) => Math.max(max, f.id), 0) + 1;
  const fresh = fills.map((v, i) => ({
    id: firstId + i,
    date: v.date,
    odometer: v.odometer ?? null,
    liters: v.liters,
    fullTank: v.fullTank ?? true,
    missedPrevious: v.missedPrevious ?? false,
    fuelType: v.fuelType,
    distanceOnThisFuel: v.distanceOnThisFuel ?? null,
  }));
  const consumption = consumptionByEntry([...existing, ...fresh], secondary);
  await fuel.setConsumptions(
    existing
      .filter((row) => row.date >= from && row.consumptionPer100km !== (consumption.get(row.id) ?? null))
      .map((row) => ({ id: row.id, value: consumption.get(row.id) ?? null })),
  );
  return fresh.map((f) => consumption.get(f.id) ?? null);
}

/**
 * Every fill's consumption of one vehicle again, from scratch, with the fuels it now has (its
 * second fuel added, removed or swapped changes the chains): on `tx`, which holds the vehicle's lock.
 */
export async function recomputeConsumption(tx: Executor, vehicleId: number, fuels: VehicleFuels) {
  const fuel = new FuelRepo(tx);
  const fills = await fuel.fillsSinceResetBefore(vehicleId, '-infinity', fuels.secondaryFuelType);
  const consumption = consumptionByEntry(fills, fuels.secondaryFuelType);
  await fuel.setConsumptions(
    fills
      .filter((row) => row.consumptionPer100km !== (consumption.get(row.id) ?? null))
      .map((row) => ({ id: row.id, value: consumption.get(row.id) ?? null })),
  );
}

/**
 * A vehicle's fuels are about to change (the vehicles module calls it on the update's transaction,
 * before writing): takes the vehicle's records lock, refuses (409 CONFLICT, on secondaryFuelType)
 * to take away a fuel of a two-fuel vehicle while fills of it remain, then recomputes every fill's
 * consumption for the new chains. A single-fuel vehicle's change of fuel keeps its old behaviour
 * (its fills stay in one chain).
 */
export async function changeFuels(
  tx: Executor,
  vehicleId: number,
  before: VehicleFuels,
  after: VehicleFuels,
) {
  await lockVehicle(tx, vehicleId);
  const dropped = before.secondaryFuelType ? fuelsOf(before).filter((f) => !fuelsOf(after).includes(f)) : [];
  const counts = await new FuelRepo(tx).countByFuel(vehicleId, dropped);
  for (const fuel of dropped) {
    const n = counts.get(fuel) ?? 0;
    if (n === 0) continue;
    const message = `${n} ${n === 1 ? 'fill-up is' : 'fill-ups are'} ${FUEL_NAMES[fuel]}: delete ${n === 1 ? 'it' : 'them'} or change ${n === 1 ? 'its' : 'their'} fuel before taking ${FUEL_NAMES[fuel]} off this vehicle.`;
    throw new AppError(409, 'CONFLICT', message, [{ field: 'secondaryFuelType', message }]);
  }
  await recomputeConsumption(tx, vehicleId, after);
}
