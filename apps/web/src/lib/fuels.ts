import { FUEL_PAIRS, FUEL_TYPES, type FuelType, fuelUnit } from '@evdra/domain';
import type { OwnUnit } from './format';

// A vehicle's fuels as every screen shows them (issue 51): one or two fuels, each fill in its own
// unit — litres (in the reader's volume unit) for petrol, diesel and LPG, kg for CNG, kWh for a charge.

type Fuelled = { fuelType: FuelType; secondaryFuelType?: FuelType | null };

/** The unit a fuel keeps whatever the reader's volume unit: 'kWh', 'kg'; null for a liquid fuel. */
export function ownUnit(fuelType: string | null | undefined): OwnUnit | null {
  if (!fuelType || !(FUEL_TYPES as readonly string[]).includes(fuelType)) return null;
  const u = fuelUnit(fuelType as FuelType);
  return u === 'L' ? null : u;
}

/** A vehicle's fuels: its primary, then its second one. */
export const vehicleFuels = (v: Fuelled | null | undefined): FuelType[] =>
  !v ? [] : v.secondaryFuelType ? [v.fuelType, v.secondaryFuelType] : [v.fuelType];

/** The fuels that may go second beside `primary` (FUEL_PAIRS, either order). */
export function partnersOf(primary: FuelType): FuelType[] {
  const out: FuelType[] = [];
  for (const [a, b] of FUEL_PAIRS) {
    if (a === primary) out.push(b);
    else if (b === primary) out.push(a);
  }
  return out;
}

/** "Petrol + LPG": a vehicle's fuels, named in the reader's language. */
export const fuelsLabel = (v: Fuelled, name: (f: FuelType) => string): string =>
  vehicleFuels(v).map(name).join(' + ');

/**
 * The fuel as the marketplace's server filters it: a fuel's name in the reader's language
 * ("benzină", "GLP") becomes its code, so a two-fuel car is found under either of its fuels (the
 * server matches both); other text goes as typed.
 */
export function fuelFilter(typed: string, name: (fuel: FuelType) => string[] = () => []): string {
  const q = typed.trim().toLowerCase();
  if (!q) return '';
  const hit = FUEL_TYPES.find((f) => name(f).some((n) => n.toLowerCase().includes(q)));
  return hit ?? typed.trim();
}
