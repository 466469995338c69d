import { roundHalfAwayFromZero } from './money.js';

// No zod here: cards and charts convert and format measures (the zod enums are in money-schemas.ts).
// Measures are stored metric (km, L, L/100 km); these rules turn them into each reader's units and back.

export const DISTANCE_UNITS = ['km', 'mi'] as const;
export type DistanceUnitCode = (typeof DISTANCE_UNITS)[number];
export const VOLUME_UNITS = ['L', 'USGAL', 'UKGAL'] as const;
export type VolumeUnitCode = (typeof VOLUME_UNITS)[number];
export const CONSUMPTION_UNITS = ['L_100KM', 'KM_L', 'MPG_US', 'MPG_UK'] as const;
export type ConsumptionUnitCode = (typeof CONSUMPTION_UNITS)[number];

/** Exact by definition (international mile, 1959; US gallon = 231 in³; imperial gallon, 1985). */
export const KM_PER_MILE = 1.609344;
export const LITERS_PER_US_GALLON = 3.785411784;
export const LITERS_PER_UK_GALLON = 4.54609;

const KM_PER: Record<DistanceUnitCode, number> = { km: 1, mi: KM_PER_MILE };
const LITERS_PER: Record<VolumeUnitCode, number> = {
  L: 1,
  USGAL: LITERS_PER_US_GALLON,
  UKGAL: LITERS_PER_UK_GALLON,
};

export const distanceToKm = (value: number, unit: DistanceUnitCode): number => value * KM_PER[unit];
export const kmToDistance = (km: number, unit: DistanceUnitCode): number => km / KM_PER[unit];
export const volumeToLiters = (value: number, unit: VolumeUnitCode): number => value * LITERS_PER[unit];
export const litersToVolume = (liters: number, unit: VolumeUnitCode): number => liters / LITERS_PER[unit];
/** A price per gallon is a price per litre times the litres in a gallon, and back. */
export const pricePerVolumeToPerLiter = (price: number, unit: VolumeUnitCode): number =>
  price / LITERS_PER[unit];
export const pricePerLiterToPerVolume = (price: number, unit: VolumeUnitCode): number =>
  price * LITERS_PER[unit];

/**
 * Each consumption unit times L/100 km is a constant (MPG and km/L are distance per volume, the
 * inverse of L/100 km), so the conversion is the same division both ways.
 */
const TIMES_L_PER_100KM: Record<Exclude<ConsumptionUnitCode, 'L_100KM'>, number> = {
  KM_L: 100,
  MPG_US: (100 * LITERS_PER_US_GALLON) / KM_PER_MILE, // 235.2145833…
  MPG_UK: (100 * LITERS_PER_UK_GALLON) / KM_PER_MILE, // 282.4809363…
};

/** L/100 km in the reader's unit; undefined when there is no consumption to express (0 or less). */
export function consumptionFromL100km(lPer100km: number, unit: ConsumptionUnitCode): number | undefined {
  if (!(lPer100km > 0)) return undefined;
  return unit === 'L_100KM' ? lPer100km : TIMES_L_PER_100KM[unit] / lPer100km;
}

/** A consumption in `unit` as L/100 km; undefined for 0 or less. */
export function consumptionToL100km(value: number, unit: ConsumptionUnitCode): number | undefined {
  if (!(value > 0)) return undefined;
  return unit === 'L_100KM' ? value : TIMES_L_PER_100KM[unit] / value;
}

/**
 * Decimals of the metric columns (schema.ts): odometers are integer km, litres numeric(10,2),
 * consumption numeric(8,2); price per litre numeric(10,4), see PRICE_PER_LITER_DECIMALS.
 */
export const STORED_DECIMALS = { km: 0, liters: 2, lPer100km: 2 } as const;

/**
 * Decimals a reader types and reads in their own unit. With STORED_DECIMALS each typed value reads
 * back as typed: storing rounds by at most half a stored step, which is less than half a shown step
 * in every unit (0.5 km = 0.31 mi < 0.5 mi; 0.005 L = 0.0013 US gal, 0.0011 UK gal < 0.005 gal), so
 * rounding back to the shown decimals lands on the typed value (units.test.ts tries every integer
 * mile to 2,000,000 and every gallon with two decimals to 1,000).
 */
export const SHOWN_DECIMALS = { distance: 0, volume: 2, pricePerVolume: 3, consumption: 1 } as const;

/**
 * A price per gallon typed with 3 decimals survives as a price per litre with 4, not 3 (half of
 * 0.001 €/L is 0.0019 €/US gal, more than half of the 0.001 shown): fuel.price_per_liter is
 * numeric(10,4) for that reason.
 */
export const PRICE_PER_LITER_DECIMALS = 4;

/** A distance typed in `unit` as the km the database keeps (integer). */
export const distanceToStored = (value: number, unit: DistanceUnitCode): number =>
  roundHalfAwayFromZero(distanceToKm(value, unit), STORED_DECIMALS.km);
/** Stored km in `unit`, rounded as the reader types it. */
export const storedToDistance = (km: number, unit: DistanceUnitCode): number =>
  roundHalfAwayFromZero(kmToDistance(km, unit), SHOWN_DECIMALS.distance);
/** A volume typed in `unit` as the litres the database keeps (2 decimals). */
export const volumeToStored = (value: number, unit: VolumeUnitCode): number =>
  roundHalfAwayFromZero(volumeToLiters(value, unit), STORED_DECIMALS.liters);
/** Stored litres in `unit`, rounded as the reader types it. */
export const storedToVolume = (liters: number, unit: VolumeUnitCode): number =>
  roundHalfAwayFromZero(litersToVolume(liters, unit), SHOWN_DECIMALS.volume);
/** A price per `unit` as the price per litre to keep (PRICE_PER_LITER_DECIMALS). */
export const pricePerVolumeToStored = (price: number, unit: VolumeUnitCode): number =>
  roundHalfAwayFromZero(pricePerVolumeToPerLiter(price, unit), PRICE_PER_LITER_DECIMALS);
/** A stored price per litre per `unit`, rounded as the reader types it. */
export const storedToPricePerVolume = (price: number, unit: VolumeUnitCode): number =>
  roundHalfAwayFromZero(pricePerLiterToPerVolume(price, unit), SHOWN_DECIMALS.pricePerVolume);

/** The unit's sign after a number, the same in en, ro and es. Both gallons read `gal`: a reader has one. */
export const DISTANCE_SIGNS: Record<DistanceUnitCode, string> = { km: 'km', mi: 'mi' };
export const VOLUME_SIGNS: Record<VolumeUnitCode, string> = { L: 'L', USGAL: 'gal', UKGAL: 'gal' };
export const CONSUMPTION_SIGNS: Record<ConsumptionUnitCode, string> = {
  L_100KM: 'L/100\u00a0km',
  KM_L: 'km/L',
  MPG_US: 'mpg',
  MPG_UK: 'mpg',
};

const numberFormatters = new Map<string, Intl.NumberFormat>();

/** `value` with exactly `decimals` decimals in the language's marks (Intl.NumberFormat, made once). */
export function formatDecimal(value: number, language: string, decimals: number): string {
  const key = `${language}:${decimals}`;
  let intl = numberFormatters.get(key);
  if (!intl) {
    intl = new Intl.NumberFormat(language, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    numberFormatters.set(key, intl);
  }
  return intl.format(value);
}

// A no-break space between a number and its unit: `8,4 L/100 km` never wraps inside.
const withSign = (number: string, sign: string) => `${number}\u00a0${sign}`;

/** Stored km in the reader's unit and language: `12,345 mi`, `19.867 km`. */
export const formatDistance = (km: number, unit: DistanceUnitCode, language: string): string =>
  withSign(formatDecimal(kmToDistance(km, unit), language, SHOWN_DECIMALS.distance), DISTANCE_SIGNS[unit]);

/** Stored litres in the reader's unit and language: `39,75 L`, `10.50 gal`. */
export const formatVolume = (liters: number, unit: VolumeUnitCode, language: string): string =>
  withSign(formatDecimal(litersToVolume(liters, unit), language, SHOWN_DECIMALS.volume), VOLUME_SIGNS[unit]);

/** Stored L/100 km in the reader's unit and language: `8,4 L/100 km`, `28.0 mpg`; `–` when there is none. */
export function formatConsumption(lPer100km: number, unit: ConsumptionUnitCode, language: string): string {
  const value = consumptionFromL100km(lPer100km, unit);
  if (value === undefined) return '–';
  return withSign(formatDecimal(value, language, SHOWN_DECIMALS.consumption), CONSUMPTION_SIGNS[unit]);
}
