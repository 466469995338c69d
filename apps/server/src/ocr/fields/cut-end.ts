/** A policy's end date the OCR cut short after its label, mended from the start and a whole term. */
import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';

const END_LABEL = new RegExp(anyOf((l) => l.dateRoles.end));
/** Terms a policy runs, the usual first: a year, half a year. */
const TERMS = [12, 6];

/**
 * "Vencimiento: 250302" (for 25/03/2025, its year cut off by a fold or the edge): the digits after
 * an end label read as no date, but they begin with the day and month that end a whole term from
 * `start` (a year or half a year, less a day). That end, or null.
 */
export function cutEnd(lines: Line[], start: string): string | null {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  for (const l of lines) {
    const label = END_LABEL.exec(l.norm);
    if (!label) continue;
    const digits = /^\D{0,3}(\d{4,7})(?!\d)/.exec(l.norm.slice((label.index ?? 0) + label[0].length))?.[1];
    if (!digits) continue;
    for (const months of TERMS) {
      const end = new Date(Date.UTC(y, m - 1 + months, d - 1));
      const dd = String(end.getUTCDate()).padStart(2, '0');
      const mm = String(end.getUTCMonth() + 1).padStart(2, '0');
      if (digits.startsWith(dd + mm)) return end.toISOString().slice(0, 10);
    }
  }
  return null;
}
