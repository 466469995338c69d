import {
  DISTANCE_SIGNS,
  distanceToStored,
  type MoneyAndUnits,
  pricePerVolumeToStored,
  storedToDistance,
  storedToPricePerVolume,
  storedToVolume,
  volumeToStored,
} from '@evdra/domain';
import type { FieldDef } from './recordFields';

// A record form shows and takes measures in the reader's units; the API keeps them metric. Each
// conversion rounds to what the database keeps and back to what the reader types (domain units.ts),
// so a value typed in miles or gallons reads back as typed.

type Values = Record<string, unknown>;

/**
 * A charge (ELECTRIC) keeps kWh in `liters` and a price per kWh, CNG kg and a price per kg: no
 * gallons for those (issue 51).
 */
export const isCharge = (values: Values) => values.fuelType === 'ELECTRIC' || values.fuelType === 'CNG';

const convertible = (def: FieldDef, values: Values) =>
  def.measure === 'distance' ||
  ((def.measure === 'volume' || def.measure === 'pricePerVolume') && !isCharge(values));

function convert(def: FieldDef, value: number, units: MoneyAndUnits, toStored: boolean): number {
  switch (def.measure) {
    case 'distance':
      return toStored
        ? distanceToStored(value, units.distanceUnit)
        : storedToDistance(value, units.distanceUnit);
    case 'volume':
      return toStored ? volumeToStored(value, units.volumeUnit) : storedToVolume(value, units.volumeUnit);
    case 'pricePerVolume':
      return toStored
        ? pricePerVolumeToStored(value, units.volumeUnit)
        : storedToPricePerVolume(value, units.volumeUnit);
    default:
      return value;
  }
}

function mapMeasures<T extends Values>(
  fields: FieldDef[],
  values: T,
  units: MoneyAndUnits,
  toStored: boolean,
): T {
  const out: Values = { ...values };
  for (const def of fields) {
    const v = out[def.name];
    if (typeof v === 'number' && Number.isFinite(v) && convertible(def, values))
      out[def.name] = convert(def, v, units, toStored);
  }
  return out as T;
}

/** A record's stored (metric) values as the reader types them. */
export const storedToShown = <T extends Values>(fields: FieldDef[], values: T, units: MoneyAndUnits): T =>
  mapMeasures(fields, values, units, false);

/** What the reader typed as the metric values the API keeps. */
export const shownToStored = <T extends Values>(fields: FieldDef[], values: T, units: MoneyAndUnits): T =>
  mapMeasures(fields, values, units, true);

/** The unit a measure's label names (`mi`); the currency's sign for money; a volume's label names its own. */
export function measureSign(def: FieldDef, units: MoneyAndUnits, currencySign: string): string | undefined {
  switch (def.measure) {
    case 'distance':
      return DISTANCE_SIGNS[units.distanceUnit];
    case 'money':
    case 'pricePerVolume':
      return currencySign;
    default:
      return undefined;
  }
}
