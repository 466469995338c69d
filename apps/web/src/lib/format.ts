import {
  CONSUMPTION_SIGNS,
  type ConsumptionUnitCode,
  CURRENCY_SIGN_OVERRIDES,
  type CurrencyCode,
  consumptionFromL100km,
  DISTANCE_SIGNS,
  type DistanceUnitCode,
  formatAmount,
  kmToDistance,
  litersToVolume,
  type MoneyAndUnits,
  moneyFormatOptions,
  pricePerLiterToPerVolume,
  SHOWN_DECIMALS,
  VOLUME_SIGNS,
  type VolumeUnitCode,
} from '@evdra/domain';
import { useTranslation } from 'react-i18next';
import { useMoneyAndUnits } from './units';

// An Intl formatter costs far more to build than to use: a currency one ~14 ms on a slow phone, inside
// the first list's render. The app's languages are written out below (format.test.ts checks them
// against Intl); any other language, and numbers too big to write out, use Intl, one formatter per
// language and style, kept for the visit.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key);
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f as F;
}

/** How each app language writes a number (Intl's marks; Spanish groups from five digits on). */
const NUMBER_MARKS: Record<string, { group: string; decimal: string; groupFrom: number }> = {
  en: { group: ',', decimal: '.', groupFrom: 4 },
  ro: { group: '.', decimal: ',', groupFrom: 4 },
  es: { group: '.', decimal: ',', groupFrom: 5 },
};

/**
 * `value` with exactly `decimals` decimals in the marks of `lng`, rounded half away from zero on
 * its shortest decimal form as Intl does (1.005 → 1.01); undefined where Intl must decide.
 */
function writeNumber(value: number, lng: string, decimals: number): string | undefined {
  const marks = NUMBER_MARKS[lng];
  const size = Math.abs(value);
  if (!marks || !(size < 1e15) || (size !== 0 && size < 1e-6)) return undefined;
  // `1.005e2` is 100.5 exactly, where 1.005 * 100 is 100.49999…
  const scaled = Math.round(Number(`${size}e${decimals}`));
  const digits = String(scaled).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const grouped = whole.length < marks.groupFrom ? whole : whole.replace(/\B(?=(\d{3})+$)/g, marks.group);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${grouped}${decimals ? marks.decimal + digits.slice(-decimals) : ''}`;
}

/**
 * An amount in its currency, in the user's language: '€1,234.50', '1.234,50 €' (ro), '£1,234.50',
 * '1.234,50 lei', with a no-break space before a sign that follows. Euros in en/ro/es are written
 * out (the first list's render builds no Intl formatter; format.test.ts checks them against Intl);
 * every other currency and language is the domain's formatAmount (Intl.NumberFormat, made once per
 * language and currency; RON reads `lei`).
 */
export function formatMoney(value: number, lng: string, currency: CurrencyCode = 'EUR'): string {
  if (currency === 'EUR') {
    const written = writeNumber(value, lng, 2);
    if (written !== undefined) return lng === 'en' ? written.replace(/^(-?)/, '$1€') : `${written}\u00a0€`;
  }
  return formatAmount(value, currency, lng);
}

/** A chart axis's amount: whole units of the currency, its sign where the language puts it. */
export function formatMoneyWhole(value: number, lng: string, currency: CurrencyCode): string {
  return formatMoneyDecimals(value, lng, currency, 0);
}

/** The sign a form's label shows for a currency: `€`, `£`, `$`, `lei`, `Ft`. */
export function currencySign(currency: CurrencyCode, lng: string): string {
  const override = CURRENCY_SIGN_OVERRIDES[currency];
  if (override) return override;
  const intl = cached(
    `money|${lng}|${currency}|sign`,
    () => new Intl.NumberFormat(lng, moneyFormatOptions(currency)),
  );
  return (intl as Intl.NumberFormat).formatToParts(1).find((p) => p.type === 'currency')?.value ?? currency;
}

/** Plain numbers with two decimals. */
export function formatNumber(value: number, lng: string, decimals = 2): string {
  return (
    writeNumber(value, lng, decimals) ??
    cached(
      `number|${lng}|${decimals}`,
      () => new Intl.NumberFormat(lng, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
    ).format(value)
  );
}

/** Whole numbers (km) with grouping. */
export function formatInt(value: number, lng: string): string {
  return (
    writeNumber(value, lng, 0) ??
    cached(`int|${lng}`, () => new Intl.NumberFormat(lng, { maximumFractionDigits: 0 })).format(value)
  );
}

/**
 * The medium date (Intl's `dateStyle: 'medium'`) of the app's languages, written out: building an
 * Intl.DateTimeFormat loads ICU's calendar data, ~25 ms of a phone's first screen. format.test.ts
 * checks these against Intl for every month.
 */
const MEDIUM_DATES: Record<string, (day: number, month: number, year: number) => string> = {
  en: (d, m, y) => `${EN_MONTHS[m]} ${d}, ${y}`,
  ro: (d, m, y) => `${d} ${RO_MONTHS[m]} ${y}`,
  es: (d, m, y) => `${d} ${ES_MONTHS[m]} ${y}`,
};
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RO_MONTHS = [
  'ian.',
  'feb.',
  'mar.',
  'apr.',
  'mai',
  'iun.',
  'iul.',
  'aug.',
  'sept.',
  'oct.',
  'nov.',
  'dec.',
];
const ES_MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];

/** A `YYYY-MM-DD` date in the user's language (no time-zone shift). */
export function formatDate(iso: string, lng: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  const medium = MEDIUM_DATES[lng];
  if (medium) return medium(d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear());
  return cached(
    `date|${lng}`,
    () => new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(d);
}

// A number and its unit never wrap apart: `8,4 L/100 km`.
const withSign = (number: string, sign: string) => `${number}\u00a0${sign}`;

/** Stored km in the reader's unit: `12,345 mi`, `19.867 km`. */
export const formatDistance = (km: number, unit: DistanceUnitCode, lng: string): string =>
  withSign(formatNumber(kmToDistance(km, unit), lng, SHOWN_DECIMALS.distance), DISTANCE_SIGNS[unit]);

/**
 * A fuel's own unit, kept whatever the reader's volume unit (issue 51): a charge's kWh, CNG's kg.
 * `true` is a charge (kWh); false, null or undefined a liquid fuel in the reader's volume unit.
 */
export type OwnUnit = 'kWh' | 'kg';
const ownSign = (own: boolean | OwnUnit | null | undefined): OwnUnit | null =>
  own === true ? 'kWh' : own || null;

/** Stored litres in the reader's unit (`39,75 L`, `10.50 gal`); a charge's kWh and CNG's kg stay so. */
export const formatVolume = (
  liters: number,
  unit: VolumeUnitCode,
  lng: string,
  electric: boolean | OwnUnit | null = false,
): string => {
  const own = ownSign(electric);
  return own
    ? withSign(formatNumber(liters, lng, SHOWN_DECIMALS.volume), own)
    : withSign(formatNumber(litersToVolume(liters, unit), lng, SHOWN_DECIMALS.volume), VOLUME_SIGNS[unit]);
};

/**
 * Stored L/100 km in the reader's unit: `8,4 L/100 km`, `28.0 mpg`, `12.3 km/L`; a charge's
 * kWh/100 km stay as they are; `—` when there is none.
 */
export function formatConsumption(
  lPer100km: number | null,
  unit: ConsumptionUnitCode,
  lng: string,
  electric: boolean | OwnUnit | null = false,
): string {
  if (lPer100km === null) return '—';
  const own = ownSign(electric);
  if (own) return withSign(formatNumber(lPer100km, lng, SHOWN_DECIMALS.consumption), `${own}/100\u00a0km`);
  const value = consumptionFromL100km(lPer100km, unit);
  if (value === undefined) return '—';
  return withSign(formatNumber(value, lng, SHOWN_DECIMALS.consumption), CONSUMPTION_SIGNS[unit]);
}

/** A stored price per litre as the reader buys it: `1,659 €/L`, `$3.499/gal`; per kWh for a charge. */
export function formatPricePerVolume(
  pricePerLiter: number,
  currency: CurrencyCode,
  unit: VolumeUnitCode,
  lng: string,
  electric: boolean | OwnUnit | null = false,
): string {
  const own = ownSign(electric);
  const price = own ? pricePerLiter : pricePerLiterToPerVolume(pricePerLiter, unit);
  return `${formatMoneyDecimals(price, lng, currency, SHOWN_DECIMALS.pricePerVolume)}/${own ?? VOLUME_SIGNS[unit]}`;
}

/** An amount with a set number of decimals (a price per litre has three): the currency's sign and marks. */
function formatMoneyDecimals(value: number, lng: string, currency: CurrencyCode, decimals: number): string {
  const intl = cached(
    `money${decimals}|${lng}|${currency}`,
    () =>
      new Intl.NumberFormat(lng, {
        ...moneyFormatOptions(currency),
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      }),
  ) as Intl.NumberFormat;
  const sign = CURRENCY_SIGN_OVERRIDES[currency];
  if (!sign) return intl.format(value);
  return intl
    .formatToParts(value)
    .map((p) => (p.type === 'currency' ? sign : p.value))
    .join('');
}

/**
 * Formatters bound to the current UI language and the reader's currency and units. `money` is in
 * the reader's currency unless told the record's (`money(r.amount, currencyOf(r, units.currency))`).
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const units: MoneyAndUnits = useMoneyAndUnits();
  return {
    lng,
    units,
    currency: units.currency,
    money: (v: number, currency: CurrencyCode = units.currency) => formatMoney(v, lng, currency),
    number: (v: number, decimals = 2) => formatNumber(v, lng, decimals),
    int: (v: number) => formatInt(v, lng),
    date: (iso: string) => formatDate(iso, lng),
    distance: (km: number) => formatDistance(km, units.distanceUnit, lng),
    // `electric`: a charge (true, 'kWh') or CNG ('kg') keeps its own unit (lib/fuels.ts ownUnit).
    volume: (liters: number, electric: boolean | OwnUnit | null = false) =>
      formatVolume(liters, units.volumeUnit, lng, electric),
    consumption: (lPer100km: number | null, electric: boolean | OwnUnit | null = false) =>
      formatConsumption(lPer100km, units.consumptionUnit, lng, electric),
    /** A consumption's unit as `consumption` writes it: `L/100 km`, `mpg`, `kWh/100 km`. */
    consumptionSign: (electric: boolean | OwnUnit | null = false) => {
      const own = ownSign(electric);
      return own ? `${own}/100\u00a0km` : CONSUMPTION_SIGNS[units.consumptionUnit];
    },
    /** A stored L/100 km as a number in the reader's unit (a chart's axis); null when there is none. */
    consumptionValue: (lPer100km: number | null, electric: boolean | OwnUnit | null = false) =>
      lPer100km === null
        ? null
        : ownSign(electric)
          ? lPer100km
          : (consumptionFromL100km(lPer100km, units.consumptionUnit) ?? null),
    /** A quantity's unit as `volume` writes it: the reader's `L` or `gal`; `kWh`, `kg` kept. */
    volumeSign: (electric: boolean | OwnUnit | null = false) =>
      ownSign(electric) ?? VOLUME_SIGNS[units.volumeUnit],
    pricePerVolume: (
      price: number,
      currency: CurrencyCode = units.currency,
      electric: boolean | OwnUnit | null = false,
    ) => formatPricePerVolume(price, currency, units.volumeUnit, lng, electric),
    /** A money label's sign: `Total paid (lei)`. */
    currencySign: (currency: CurrencyCode = units.currency) => currencySign(currency, lng),
  };
}

/** Today as `YYYY-MM-DD` in local time. */
export function todayIso(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Parses a typed number ('' → null; accepts a decimal comma). */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : Number.NaN;
}
