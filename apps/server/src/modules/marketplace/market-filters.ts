import { FUEL_TYPES, type FuelType, VEHICLE_MIN_YEAR } from '@evdra/domain';

// Spec §5's "contains" filters on fuel and year, turned into the values that match (issue 54): the
// database then looks each up in an index instead of testing every listing's text.

/** Each fuel's code and common names, lower-case (LPG is GPL, GLP, Autogas; CNG is GNC). */
const FUEL_NAMES: Record<FuelType, string> = {
  PETROL: 'petrol',
  DIESEL: 'diesel',
  GPL: 'gpl lpg glp autogas',
  ELECTRIC: 'electric',
  CNG: 'cng gnc',
};

/** The fuel codes whose code or a common name contains `text` (any case). */
export function fuelsMatching(text: string): FuelType[] {
  const t = text.toLowerCase();
  return FUEL_TYPES.filter((f) => FUEL_NAMES[f].includes(t));
}

/** The model years a vehicle may have (VEHICLE_MIN_YEAR to next year) whose digits contain `digits`. */
export function yearsMatching(digits: string, now = new Date()): number[] {
  const years: number[] = [];
  for (let y = VEHICLE_MIN_YEAR; y <= now.getUTCFullYear() + 1; y++)
    if (String(y).includes(digits)) years.push(y);
  return years;
}
