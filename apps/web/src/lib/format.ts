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

/** A `YYYY-MM-DD` date in the user's language (no time-zone shift). */
export function formatDate(iso: string, lng: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return cached(
    `date|${lng}`,
    () => new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(d);
}

/**
 * Builds the language's formatters ahead of the first list: a date formatter alone costs ~30 ms
 * (ICU data), which otherwise lands inside the first render of a page of records.
 */
export function warmFormatters(lng: string): void {
  formatDate('2000-01-01', lng);
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
