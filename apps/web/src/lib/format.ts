import { useTranslation } from 'react-i18next';

// An Intl formatter costs far more to build than to use (~1 ms each on a slow phone, and a list of
// 60 fill-ups formats ~400 values): one per language and style, kept for the visit.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key);
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f as F;
}

/**
 * Amounts: two decimals and the € sign (ARCHITECTURE §7), in the user's language: '€1,234.50',
 * '1.234,50 €' (ro; its default display would be 'EUR'), with a no-break space before the sign.
 */
export function formatMoney(value: number, lng: string): string {
  return cached(
    `money|${lng}`,
    () =>
      new Intl.NumberFormat(lng, {
        style: 'currency',
        currency: 'EUR',
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
  ).format(value);
}

/** Plain numbers with two decimals. */
export function formatNumber(value: number, lng: string, decimals = 2): string {
  return cached(
    `number|${lng}|${decimals}`,
    () => new Intl.NumberFormat(lng, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  ).format(value);
}

/** Whole numbers (km) with grouping. */
export function formatInt(value: number, lng: string): string {
  return cached(`int|${lng}`, () => new Intl.NumberFormat(lng, { maximumFractionDigits: 0 })).format(value);
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

/** Builds the language's number formatters ahead of the first list (each ~1 ms on a slow phone). */
export function warmFormatters(lng: string): void {
  formatMoney(0, lng);
  formatNumber(0, lng);
  formatInt(0, lng);
}

/** Formatters bound to the current UI language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return {
    lng,
    money: (v: number) => formatMoney(v, lng),
    number: (v: number, decimals = 2) => formatNumber(v, lng, decimals),
    int: (v: number) => formatInt(v, lng),
    date: (iso: string) => formatDate(iso, lng),
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
