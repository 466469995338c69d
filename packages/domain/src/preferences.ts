import type { CurrencyCode } from './money.js';
import type { ConsumptionUnitCode, DistanceUnitCode, VolumeUnitCode } from './units.js';

// No zod here: read wherever an amount or a measure is shown.

/** The currency a reader pays in and the units they read and type. */
export type MoneyAndUnits = {
  currency: CurrencyCode;
  distanceUnit: DistanceUnitCode;
  volumeUnit: VolumeUnitCode;
  consumptionUnit: ConsumptionUnitCode;
};

/** What every account made before currencies existed keeps: nothing they stored changes meaning. */
export const EXISTING_USER_MONEY_AND_UNITS: Readonly<MoneyAndUnits> = Object.freeze({
  currency: 'EUR',
  distanceUnit: 'km',
  volumeUnit: 'L',
  consumptionUnit: 'L_100KM',
});

/** A new user's defaults by country; GB sells fuel in litres but reads miles and UK MPG. */
export const MONEY_AND_UNITS_BY_COUNTRY: Readonly<
  Record<'RO' | 'ES' | 'GB' | 'US', Readonly<MoneyAndUnits>>
> = Object.freeze({
  RO: { currency: 'RON', distanceUnit: 'km', volumeUnit: 'L', consumptionUnit: 'L_100KM' },
  ES: { currency: 'EUR', distanceUnit: 'km', volumeUnit: 'L', consumptionUnit: 'L_100KM' },
  GB: { currency: 'GBP', distanceUnit: 'mi', volumeUnit: 'L', consumptionUnit: 'MPG_UK' },
  US: { currency: 'USD', distanceUnit: 'mi', volumeUnit: 'USGAL', consumptionUnit: 'MPG_US' },
});

/** A new user's defaults for a country code (`GENERIC` and any other country: EUR, km, L, L/100 km). */
export function moneyAndUnitsForCountry(country: string): MoneyAndUnits {
  const known = Object.hasOwn(MONEY_AND_UNITS_BY_COUNTRY, country)
    ? MONEY_AND_UNITS_BY_COUNTRY[country as keyof typeof MONEY_AND_UNITS_BY_COUNTRY]
    : EXISTING_USER_MONEY_AND_UNITS;
  return { ...known };
}
