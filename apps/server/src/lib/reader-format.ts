import {
  type ConsumptionUnitCode,
  CURRENCY_SIGN_OVERRIDES,
  type CurrencyCode,
  consumptionFromL100km,
  type DistanceUnitCode,
  type FuelType,
  formatAmount,
  kmToDistance,
  type Language,
  litersToVolume,
  moneyFormatOptions,
  pricePerLiterToPerVolume,
  VOLUME_SIGNS,
  type VolumeUnitCode,
} from '@evdra/domain';

/** The units a reader reads measures in (users.distance_unit, volume_unit, consumption_unit). */
export type ReaderUnits = {
  distanceUnit: DistanceUnitCode;
  volumeUnit: VolumeUnitCode;
  consumptionUnit: ConsumptionUnitCode;
};

/** Everyone before issue 50 read these; a text with no reader named keeps them. */
export const METRIC_UNITS: Readonly<ReaderUnits> = Object.freeze({
  distanceUnit: 'km',
  volumeUnit: 'L',
  consumptionUnit: 'L_100KM',
});

const LOCALES: Record<Language, string> = { en: 'en-US', ro: 'ro-RO', es: 'es-ES' };

const CONSUMPTION_WORDS: Record<Exclude<ConsumptionUnitCode, 'L_100KM'>, string> = {
  KM_L: 'km/L',
  MPG_US: 'mpg',
  MPG_UK: 'mpg',
};

const formatters = new Map<string, ReaderFormat>();

/**
 * Numbers, money, dates and measures as one reader reads them in a server-written text (AI answers,
 * the PDF report, reminders): their language, the currency the amounts are in and their units.
 * Amounts are formatted as the web shows them (the domain's formatAmount: `1.234,50 lei`, `£1,234.50`);
 * measures come in metric (km, L, L/100 km) and are converted here. Made once per combination:
 * building the Intl formatters took 13% of an AI summary's CPU.
 */
export function readerFormat(
  language: Language,
  currency: CurrencyCode = 'EUR',
  units: Readonly<ReaderUnits> = METRIC_UNITS,
): ReaderFormat {
  const key = `${language}|${currency}|${units.distanceUnit}|${units.volumeUnit}|${units.consumptionUnit}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    fmt = makeReaderFormat(language, currency, units);
    formatters.set(key, fmt);
  }
  return fmt;
}

function makeReaderFormat(language: Language, currency: CurrencyCode, units: Readonly<ReaderUnits>) {
  const locale = LOCALES[language];
  const dec1 = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const dec2 = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const dec3 = new Intl.NumberFormat(locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  const int = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const day = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const month = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const money = (n: number) => formatAmount(n, currency, locale);
  // A figure with its own decimals (a price per litre has 3) placed where the currency's amounts put
  // their number: `1,450 lei`, `1,450 €`, `£1.450`.
  // Euros keep the sign after the figure in every language, as these texts always wrote them.
  const one = currency === 'EUR' ? '1 €' : formatAmount(1, currency, locale);
  const withMoneySign = (figure: string) => one.replace(/\d+(?:[.,]\d+)?/, figure);
  // kWh (ELECTRIC) and kg (CNG) stay as they are; litres follow the reader's volume unit.
  const fixedUnit = (fuelType: FuelType) =>
    fuelType === 'ELECTRIC' ? 'kWh' : fuelType === 'CNG' ? 'kg' : null;
  const electric = (fuelType: FuelType) => fixedUnit(fuelType) !== null;
  const { distanceUnit, volumeUnit, consumptionUnit } = units;
  return {
    language,
    currency,
    units,
    money,
    dec2: (n: number) => dec2.format(n),
    dec3: (n: number) => dec3.format(n),
    int: (n: number) => int.format(Math.round(n)),
    /** A distance kept in km, in the reader's unit: `12,000 km`, `7,456 mi`. */
    km: (n: number) => `${int.format(Math.round(kmToDistance(n, distanceUnit)))} ${distanceUnit}`,
    /** The reader's distance unit's sign (`km`, `mi`), for "per km" phrases. */
    distanceSign: distanceUnit as string,
    /** A money amount per km in the reader's: per mile it is the km amount times the km in a mile. */
    moneyPerDistance: (perKm: number) =>
      money(distanceUnit === 'km' ? perKm : perKm / kmToDistance(1, distanceUnit)),
    pct: (n: number) => `${int.format(Math.round(n))}%`,
    date: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
    month: (ym: string) => month.format(new Date(`${ym}-01T00:00:00Z`)),
    /** Litres (kWh for an electric car, which stays kWh) in the reader's volume: `39,75 L`, `10.50 gal`. */
    quantity: (n: number, fuelType: FuelType) =>
      electric(fuelType)
        ? `${dec2.format(n)} ${fixedUnit(fuelType)}`
        : `${dec2.format(litersToVolume(n, volumeUnit))} ${VOLUME_SIGNS[volumeUnit]}`,
    /** The volume unit's name for "price per …" phrases (kWh for an electric car). */
    quantitySign: (fuelType: FuelType) => fixedUnit(fuelType) ?? VOLUME_SIGNS[volumeUnit],
    /** A price per litre (kWh) in the reader's currency per their volume unit: `7,450 lei`, `$4.120`. */
    pricePerQuantity: (perLiter: number, fuelType: FuelType) =>
      withMoneySign(
        dec3.format(electric(fuelType) ? perLiter : pricePerLiterToPerVolume(perLiter, volumeUnit)),
      ),
    /**
     * L/100 km in the reader's consumption unit: `6,50 L/100 km` as before, `36.2 mpg`, `15.4 km/L`.
     * An electric car's kWh/100 km has no MPG: it stays kWh/100 km.
     */
    consumption: (lPer100km: number, fuelType: FuelType) => {
      if (electric(fuelType)) return `${dec2.format(lPer100km)} ${fixedUnit(fuelType)}/100 km`;
      if (consumptionUnit === 'L_100KM') return `${dec2.format(lPer100km)} L/100 km`;
      const value = consumptionFromL100km(lPer100km, consumptionUnit);
      return value === undefined ? '–' : `${dec1.format(value)} ${CONSUMPTION_WORDS[consumptionUnit]}`;
    },
  };
}
export type ReaderFormat = ReturnType<typeof makeReaderFormat>;

/**
 * An amount formatter with Intl's grouping always on (Spanish leaves 4-digit figures ungrouped:
 * 3016,00 € beside 46.944,00 €, which a table of costs cannot have) and `decimals` fixed when given
 * (a cost per km has 3), with the signs the domain overrides (`lei`): the PDF report's money.
 */
export function groupedMoney(locale: string, currency: CurrencyCode, decimals?: number) {
  const intl = new Intl.NumberFormat(locale, {
    ...moneyFormatOptions(currency),
    useGrouping: 'always',
    ...(decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  });
  const sign = CURRENCY_SIGN_OVERRIDES[currency];
  const intlSign = intl.formatToParts(1).find((p) => p.type === 'currency')?.value;
  return sign && intlSign && intlSign !== sign
    ? (n: number) => intl.format(n).replace(intlSign, sign)
    : (n: number) => intl.format(n);
}

/** A consumption in L/100 km in `unit`, with `metricDecimals` for L/100 km as the text wrote it before. */
export function consumptionIn(
  lPer100km: number,
  fuelType: FuelType,
  unit: ConsumptionUnitCode,
  format: (n: number, decimals: number) => string,
  metricSign: string,
): string {
  // kWh and kg of CNG per 100 km have no MPG.
  if (fuelType === 'ELECTRIC' || fuelType === 'CNG' || unit === 'L_100KM')
    return `${format(lPer100km, 2)} ${metricSign}`;
  const value = consumptionFromL100km(lPer100km, unit);
  return value === undefined ? '–' : `${format(value, 1)} ${CONSUMPTION_WORDS[unit]}`;
}
