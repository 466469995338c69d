/** A policy's end date the OCR cut short after its label, mended from the start and a whole term. */
import { anyOf } from '../lexicon/index.js';
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';

const END_LABEL = new RegExp(anyOf((l) => l.dateRoles.end));
/** Terms a policy runs, the usual first: a year, half a year. */
const TERMS = [12, 6];

/**
 * "Vencimiento: 250302" (for 25/03/2025, its year cut off by a fold or the edge): the digits after
 * an end label read as no date, but they begin with the day and month that end a whole term from
 * `start` (a year or half a year, less a day). Its label garbled too ("Efecto 12032025
 * Vem0mm1103V20s"), a run of digits after the start on the start's own line, as the end follows
 * the start. That end, or null.
 */
export function cutEnd(lines: Line[], start: string): string | null {
  for (const l of lines) {
    const label = END_LABEL.exec(l.norm);
    const digits = label
      ? /^\D{0,3}(\d{4,7})(?!\d|\s+\d)/.exec(l.norm.slice(label.index + label[0].length))?.[1]
      : null;
    const end = digits ? termEndIn([digits], start) : null;
    if (end) return end;
  }
  for (const l of lines) {
    const at = findDates(l.norm).find((x) => x.iso === start)?.at;
    if (at === undefined) continue;
    // Past the start's own digits (eight at most, with its separators ten). Never a run a number
    // follows ("0410 2021"): that is a whole date, its year misread, not one cut short.
    const runs = [...l.norm.slice(at + 10).matchAll(/(?<!\d)\d{4,7}(?!\d|\s+\d)/g)].map((x) => x[0]);
    const end = termEndIn(runs, start);
    if (end) return end;
  }
  return null;
}

/** The end of a whole term from `start` whose day and month one of `runs` begins with, or null. */
function termEndIn(runs: string[], start: string): string | null {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  for (const months of TERMS) {
    const end = new Date(Date.UTC(y, m - 1 + months, d - 1));
    const dd = String(end.getUTCDate()).padStart(2, '0');
    const mm = String(end.getUTCMonth() + 1).padStart(2, '0');
    if (runs.some((r) => r.startsWith(dd + mm))) return end.toISOString().slice(0, 10);
  }
  return null;
}
