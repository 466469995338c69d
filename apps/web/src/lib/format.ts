import { useTranslation } from 'react-i18next';

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
 * Amounts: two decimals and the € sign (ARCHITECTURE §7), in the user's language: '€1,234.50',
 * '1.234,50 €' (ro; its default display would be 'EUR'), with a no-break space before the sign.
 */
export function formatMoney(value: number, lng: string): string {
  const written = writeNumber(value, lng, 2);
  if (written !== undefined) return lng === 'en' ? written.replace(/^(-?)/, '$1€') : `${written}\u00a0€`;
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
