/**
 * Numbers, dates, yes/no and units as other apps write them, in any locale: decimal commas,
 * thousands separators, currency symbols, `1/15/2024`, `15.01.2024`, miles, US and imperial gallons.
 * Pure functions; the decimal separator and day/month order are decided once per file.
 */

export type Decimal = ',' | '.';
export type DateOrder = 'ymd' | 'dmy' | 'mdy';

const KM_PER_MILE = 1.609344;
export const LITERS_PER = { l: 1, usgal: 3.785411784, impgal: 4.54609 } as const;
export const KM_PER = { km: 1, mi: KM_PER_MILE } as const;

export const round = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.round((n + Number.EPSILON) * f) / f;
};

/**
 * Which decimal separator a file's numbers use, from the values that tell (`1.234,50`, `11,2`,
 * `3.5`); `1,234` and `1.234` alone say nothing. '.' when nothing tells.
 */
export const detectDecimal = (values: Iterable<string>): Decimal => toldDecimal(values) ?? '.';

/** The decimal separator most of the values that tell show; null when none tells. */
export function toldDecimal(values: Iterable<string>): Decimal | null {
  let comma = 0;
  let dot = 0;
  for (const raw of values) {
    const v = raw.replace(/[^\d.,]/g, '');
    if (!/\d/.test(v)) continue;
    const lastComma = v.lastIndexOf(',');
    const lastDot = v.lastIndexOf('.');
    if (lastComma >= 0 && lastDot >= 0) {
      if (lastComma > lastDot) comma++;
      else dot++;
    } else if (lastComma >= 0) {
      if (!/^\d{1,3}(,\d{3})+$/.test(v)) comma++;
    } else if (lastDot >= 0) {
      if (!/^\d{1,3}(\.\d{3})+$/.test(v)) dot++;
    }
  }
  if (comma === 0 && dot === 0) return null;
  return comma > dot ? ',' : '.';
}

/**
 * A number from text such as `$89.99`, `"1.234,50 €"`, `11,2`, `1 234,5`, `-12`, `(12.00)`; null
 * when empty or not a number. A cell that shows its decimal mark is read by it (`1,234.50` and
 * `1.5` in a file of decimal commas, `12,5` in one of points); `decimal` decides the rest (`1.234`).
 */
export function parseNumber(raw: string | undefined, decimal: Decimal): number | null {
  if (raw === undefined) return null;
  const text = raw.trim();
  if (!text || !/\d/.test(text)) return null;
  const negative = /^\(.*\)$/.test(text) || /^[^\d]*-/.test(text);
  let v = text.replace(/[^\d.,]/g, '');
  if ((cellDecimal(v) ?? decimal) === ',') v = v.replace(/\./g, '').replace(',', '.');
  else v = v.replace(/,/g, '');
  if ((v.match(/\./g)?.length ?? 0) > 1) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

/**
 * The decimal mark a number's digits and separators show by themselves: the last of two kinds
 * (`1.234,50`), the other one when one kind is used twice (`1.234.567`), the one kind used once
 * when not followed by exactly three digits (`629,9`, `47.85`); null when they do not say (`1.234`, `40`).
 */
function cellDecimal(v: string): Decimal | null {
  const comma = v.lastIndexOf(',');
  const dot = v.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) return comma > dot ? ',' : '.';
  const at = Math.max(comma, dot);
  if (at < 0) return null;
  const sep = v[at] as Decimal;
  if (v.indexOf(sep) !== at) return sep === '.' ? ',' : '.';
  return v.length - at - 1 === 3 ? null : sep;
}

const DMY = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})\b/;
const YMD = /^(\d{4})[./-](\d{1,2})[./-](\d{1,2})\b/;

/**
 * Day/month order of a file's dates: day first if some first part is over 12, month first if some
 * second part is; otherwise by separator (`/` month first, as US apps write; `.` and `-` day first).
 */
export function detectDateOrder(values: Iterable<string>): DateOrder {
  let slash = 0;
  let other = 0;
  let any = false;
  for (const raw of values) {
    const v = raw.trim();
    if (YMD.test(v)) continue;
    const m = DMY.exec(v);
    if (!m) continue;
    any = true;
    if (Number(m[1]) > 12) return 'dmy';
    if (Number(m[2]) > 12) return 'mdy';
    if (v.includes('/')) slash++;
    else other++;
  }
  if (!any) return 'ymd';
  return slash > other ? 'mdy' : 'dmy';
}

/** An ISO date (YYYY-MM-DD) from `2024-01-15`, `2024-01-15 10:30`, `1/15/2024`, `15.01.24`…; null if none. */
export function parseDate(raw: string | undefined, order: DateOrder): string | null {
  if (!raw) return null;
  const v = raw.trim();
  let y: number;
  let m: number;
  let d: number;
  const ymd = YMD.exec(v);
  if (ymd) {
    y = Number(ymd[1]);
    m = Number(ymd[2]);
    d = Number(ymd[3]);
  } else {
    const p = DMY.exec(v);
    if (!p) return null;
    const [a, b] = [Number(p[1]), Number(p[2])];
    [d, m] = order === 'mdy' ? [b, a] : [a, b];
    y = Number(p[3]);
    if (p[3]?.length === 2) y += y < 70 ? 2000 : 1900;
  }
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(iso) || y < 1900) return null;
  return iso;
}

const YES = new Set([
  '1',
  'true',
  'yes',
  'y',
  'x',
  'da',
  'sí',
  'si',
  'sim',
  'да',
  'oui',
  'ja',
  'full',
  'plin',
  'lleno',
]);
const NO = new Set(['0', 'false', 'no', 'n', 'nu', 'não', 'nao', 'нет', 'non', 'nein', '']);

/** Yes/no in the languages these apps write (English, Portuguese, Spanish, Romanian, Russian…). */
export function parseBool(raw: string | undefined): boolean | null {
  const v = (raw ?? '').trim().toLowerCase();
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  return null;
}

/** Lower case, no accents, no punctuation: how headers are compared. */
export function normalize(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[_\-./]+/g, ' ')
    .replace(/[^\p{L}\p{N}() ]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Adds months to an ISO date, then a day back: the last day a period of `months` months covers. */
export function periodEnd(start: string, months: number): string {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
