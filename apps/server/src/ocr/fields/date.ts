/** The day of a purchase or of the work: the labelled date first, never a due or next-service date. */

import { anyOf } from '../lexicon/index.js';
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';
import { daysBefore, dueLabelEnd, paymentTerm } from './due-date.js';

export const DATE_LABEL = new RegExp(`\\b(${anyOf((l) => l.dateLabel)})\\b`);
/** Dates that are not the day of the purchase or the work: the next service, a due date, a registration. */
const OTHER_DATE = new RegExp(anyOf((l) => l.otherDate));

/**
 * A date that is part of a product or invoice code ("HD03-04-06", "SP-NULL-18/06/04-1016956",
 * "MI11/3-21", "100007017/04/2018"): glued to letters or digits before it, or to "-digits" after
 * it, and no date label before it.
 */
export function inCode(norm: string, at: number): boolean {
  const before = norm.slice(0, at);
  if (/(?:DATE|DATA|FECHA|TARIKH|ON|:)\s*$/.test(before)) return false;
  // Glued to a digit only right before it: "REG #19- 10/03/2018" is no code.
  return /[A-Z]-?$|\d$/.test(before) || /^[\d./-]{6,10}-\d(?!\d?:\d{2})/.test(norm.slice(at));
}

export function pickDate(lines: Line[]): { iso: string; conf: number } | null {
  // A due date's line, its label as printed or up to a letter in three off, is another date too.
  const dueEnd = new Map(lines.map((l) => [l, dueLabelEnd(l.norm)] as const));
  const usable = lines.filter((l) => !OTHER_DATE.test(l.norm) && (dueEnd.get(l) ?? -1) < 0);
  const withLabel = usable.filter((l) => DATE_LABEL.test(l.norm));
  // Dates inside codes only when there is no other.
  for (const codes of [false, true])
    for (const l of [...withLabel, ...usable, ...lines]) {
      const d = findDates(l.norm).find((x) => codes || !inCode(x.line, x.at));
      if (!d) continue;
      const conf = l.confidence * (withLabel.includes(l) ? 1 : 0.85) * (codes ? 0.6 : 1);
      // The invoice's own date lost: its due date (after the due label) less the term it prints.
      const due = dueEnd.get(l) ?? -1;
      // (Not a date after another date label: "Vencsento2705/25 Fecha:2704/25".)
      const afterDue = due >= 0 && d.at >= due && !DATE_LABEL.test(d.line.slice(due, d.at));
      const term = !usable.includes(l) && afterDue ? paymentTerm(lines) : null;
      if (term) return { iso: daysBefore(d.iso, term), conf: conf * 0.7 };
      const reread = sameDayReread(d.iso, usable);
      return reread ? { iso: reread, conf: conf * 0.8 } : { iso: d.iso, conf };
    }
  // Last: a date without separators on a line of its own ("25032018", ": 20180428/191204"), else
  // one before its time ("25032018 13:11:54", "20180428/191 …") or after a date label.
  for (const l of lines) {
    const m = /^[:\s]*(\d{8})(?:\/\d{4,6})?$/.exec(l.norm.trim());
    const iso = m ? compactDate(m[1] ?? '') : null;
    if (iso) return { iso, conf: l.confidence * 0.6 };
  }
  for (const l of lines) {
    const m =
      /(?<![\d.,:/-])(\d{8})(?=\s*\/\s*\d|\s+\d{1,2}:\d{2})/.exec(l.norm) ??
      /\b(?:DATE|DATA|FECHA)\b[^\d]{0,8}(\d{8})(?![\d.,])/.exec(l.norm);
    const iso = m ? compactDate(m[1] ?? '') : null;
    if (iso) return { iso, conf: l.confidence * 0.5 };
  }
  // "05 02-18", "05-02 18": dd-mm-yy with one separator read as a space, on a receipt where nothing
  // else reads as a date.
  for (const l of lines) {
    const m =
      /(?<![\d.,:/-]\s?)(\d{2})(?: (\d{2})[./-]|[./-](\d{2}) )(\d{2})(?![\d.,:/-]|\s?\d(?!\d?:\d{2}))/.exec(
        l.norm,
      );
    const iso = m ? compactDate(`${m[1]}${m[2] ?? m[3]}20${m[4]}`) : null;
    if (iso) return { iso, conf: l.confidence * 0.4 };
  }
  return null;
}

/** Digits a faded print turns into one another (each pair in order): 3 and 8, 0 and 8, 1 and 7… */
const LOOKALIKE_DIGITS = ['38', '08', '68', '89', '56', '17', '06', '09'];
/**
 * The same date printed twice (the sale and the receipt's printing, "Date: 13/04/2013" and "PRN ON:
 * 13/04/2018"; "Date: 03/09/2017" and "DD: 08/09/2017") with one digit apart, a pair a faded print
 * confuses: one of them misread, most often an 8 read as 3 or 0. The later one (the 8). Null when
 * there is no other reading.
 */
export function sameDayReread(iso: string, lines: Line[]): string | null {
  const lookAlike = (o: string) => {
    const diff = [...o].flatMap((c, i) => (c !== iso[i] ? [[c, iso[i]].sort().join('')] : []));
    return diff.length === 1 && LOOKALIKE_DIGITS.includes(diff[0] ?? '');
  };
  const later = lines
    .flatMap((l) => findDates(l.norm).map((d) => d.iso))
    .filter((o) => o > iso && lookAlike(o))
    .sort();
  return later.at(-1) ?? null;
}

/** "25032018" (day first) or "20180428" (year first) as ISO, or null. */
export function compactDate(t: string): string | null {
  const ok = (y: number, m: number, d: number) => {
    const dt = new Date(Date.UTC(y, m - 1, d));
    return y >= 1990 && y <= 2100 && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d
      ? dt.toISOString().slice(0, 10)
      : null;
  };
  const n = (a: number, b: number) => Number(t.slice(a, b));
  return ok(n(0, 4), n(4, 6), n(6, 8)) ?? ok(n(4, 8), n(2, 4), n(0, 2));
}
