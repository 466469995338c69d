import type { Vehicle } from '@evdra/domain';
import type { VehicleFilter } from '../../components/FilterPanel';
import { vehicleFuels } from '../../lib/fuels';

const contains = (value: string | number, needle: string) =>
  !needle.trim() || String(value).toLowerCase().includes(needle.trim().toLowerCase());

/** Client-side filter: make, model, year, fuel type as case-insensitive contains; max odometer as an upper bound. */
export function filterVehicles(
  vehicles: Vehicle[],
  f: VehicleFilter,
  /** The fuel type's translated name, so 'benzin' finds PETROL in Romanian too. */
  fuelLabel: (fuelType: Vehicle['fuelType']) => string = (ft) => ft,
): Vehicle[] {
  const max = f.maxOdometer.trim() === '' ? null : Number(f.maxOdometer.replace(',', '.'));
  return vehicles.filter(
    (v) =>
      contains(v.make, f.make) &&
      contains(v.model, f.model) &&
      contains(v.year, f.year) &&
      // A two-fuel vehicle (issue 51) is found under either fuel.
      vehicleFuels(v).some((ft) => contains(ft, f.fuelType) || contains(fuelLabel(ft), f.fuelType)) &&
      (max === null || Number.isNaN(max) || v.odometer <= max),
  );
}
