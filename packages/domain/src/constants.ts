// Without zod: values a page's first screen needs (a select's options, a threshold) without the
// schemas. The web build keeps this file out of the schemas' chunk (apps/web/vite.config.ts).

/** GPL is LPG (Autogas); CNG is compressed natural gas (issue 51). */
export const FUEL_TYPES = ['PETROL', 'DIESEL', 'GPL', 'ELECTRIC', 'CNG'] as const;

/**
 * The fuels a vehicle may have two of (issue 51), in either order (primary `fuelType`, then
 * `secondaryFuelType`): LPG or CNG with petrol, and electricity with petrol or diesel (plug-in hybrids).
 */
export const FUEL_PAIRS = [
  ['GPL', 'PETROL'],
  ['CNG', 'PETROL'],
  ['ELECTRIC', 'PETROL'],
  ['ELECTRIC', 'DIESEL'],
] as const satisfies readonly (readonly [(typeof FUEL_TYPES)[number], (typeof FUEL_TYPES)[number]])[];

/** The unit a fuel is bought in and stored in: litres, kg of CNG, kWh of electricity. */
export const FUEL_UNITS = {
  PETROL: 'L',
  DIESEL: 'L',
  GPL: 'L',
  CNG: 'kg',
  ELECTRIC: 'kWh',
} as const satisfies Record<(typeof FUEL_TYPES)[number], 'L' | 'kg' | 'kWh'>;
export type FuelUnit = (typeof FUEL_UNITS)[keyof typeof FUEL_UNITS];
/** The unit of a fuel's quantity (a fill's `liters`): 'L', 'kg' (CNG) or 'kWh' (ELECTRIC). */
export const fuelUnit = (fuelType: (typeof FUEL_TYPES)[number]): FuelUnit => FUEL_UNITS[fuelType];

/** Whether two fuels may share a vehicle (FUEL_PAIRS, either order). */
export const isFuelPair = (a: string, b: string): boolean =>
  FUEL_PAIRS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/** Fuel is not an expense type: fuel has its own records. */
export const EXPENSE_TYPES = [
  'Maintenance',
  'Repair',
  'Tyres',
  'Parking',
  'Tolls',
  'Tax',
  'Wash',
  'Accessories',
  'Other',
] as const;

/** A field whose confidence is below this is marked for checking in the confirm form. */
export const OCR_LOW_CONFIDENCE = 0.75;
