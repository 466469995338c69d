/**
 * Reading the labels of the public SROIE receipt set into our field values. Written apart from
 * src/ocr/text/dates.ts on purpose: the engine's own date parser must not decide what the right answer is.
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function isoDate(y: number, m: number, d: number): string | null {
  const year = y < 100 ? 2000 + y : y;
  const dt = new Date(Date.UTC(year, m - 1, d));
  if (m < 1 || m > 12 || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
}

const month = (name: string) => MONTHS.indexOf(name.slice(0, 3).toUpperCase()) + 1;

/**
 * A SROIE date label as yyyy-mm-dd: "25/12/2018", "12-01-19", "20180304", "25032018", "2018-03-04",
 * "15 MAR 2018", "27/MAY/2018", "OCT 9, 2017". Malaysian receipts put the day first; month first
 * only where day first is impossible. null for a label we cannot read (not counted).
 */
export function sroieDate(label: string): string | null {
  const s = label.replace(/^[\s(]+|[\s)]+$/g, '').toUpperCase();
  if (/^\d{8}$/.test(s)) {
    const ymd = isoDate(Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6)));
    const dmy = /^(19|20)/.test(s.slice(4))
      ? isoDate(Number(s.slice(4)), Number(s.slice(2, 4)), Number(s.slice(0, 2)))
      : null;
    return ymd ?? dmy;
  }
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/.exec(s);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return isoDate(y, b, a) ?? isoDate(y, a, b);
  }
  m = /^(\d{1,2})[-/ ]([A-Z]{3,9})[-/ ,]+(\d{4}|\d{2})$/.exec(s);
  if (m && month(m[2] ?? '')) return isoDate(Number(m[3]), month(m[2] ?? ''), Number(m[1]));
  m = /^([A-Z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m && month(m[1] ?? '')) return isoDate(Number(m[3]), month(m[1] ?? ''), Number(m[2]));
  return null;
}

/** A SROIE total label as a number: "9.00", "RM 12.50", "$8.20", "1,234.00". null if unreadable. */
export function sroieTotal(label: string): number | null {
  const s = label.replace(/[^\d.,]/g, '');
  if (!/\d/.test(s)) return null;
  const n = Number(s.includes('.') ? s.replace(/,/g, '') : s.replace(/,(\d{2})$/, '.$1').replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}
