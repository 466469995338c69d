/** What the customer handed over and got back: paid − change vouches for the total. */
import { round } from '../draft.js';
import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { amounts } from '../text/numbers.js';

/** What the customer handed over (cash, card) and got back: paid − change is the total. */
export const PAID = new RegExp(`\\b(${anyOf((l) => l.paid)})\\b`);
/** Change given back ("REST" only before its number: "REST 0,00", not a "rest area"). */
export const CHANGE = new RegExp(
  `\\b(${anyOf((l) => l.change)})\\b|\\b(?:${anyOf((l) => l.changeBeforeNumber)})\\s*:?\\s*-?\\d`,
);
/** The change's label, before its amount. */
export const CHANGE_LABEL = new RegExp(`\\b(${anyOf((l) => [...l.change, ...l.changeBeforeNumber])})\\b`);

/**
 * A total or payment line that ends in "64 13" with no amount in cents anywhere: the OCR read the
 * decimal point as a space (faded thermal print), so it is 64.13.
 */
export function joinSplitCents(text: string): string {
  if (/\d[.,]\s?\d{2}(?!\d)/.test(text)) return text;
  return text.replace(/(\d) (\d{2})(?=[^\w]*$)/, '$1.$2');
}

/**
 * The rightmost amount after `label` on the line itself (payment lines never borrow the next
 * line's), not a date or a time stamped on it ("Paid   30/04/2017 (Sn) 23: 14", the time's colon
 * followed by a space).
 */
export function ownAmount(l: Line, label: RegExp): number | null {
  const m = label.exec(l.norm);
  const after = (m ? l.text.slice((m.index ?? 0) + m[0].length) : l.text)
    .replace(/\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/g, ' ')
    .replace(/(?<![\d.,])\d{1,2}:\s?\d{2}(?::\s?\d{2})?(?![\d.,]?\d)/g, ' ');
  const found = amounts(joinSplitCents(after));
  return found.length ? (found[found.length - 1] ?? null) : null;
}

/** The amounts the payment lines vouch for: each amount handed over, less the change when there is one. */
export function paidAmounts(lines: Line[]): number[] {
  const change = changeGiven(lines);
  const out: number[] = [];
  for (const l of lines) {
    if (!PAID.test(l.norm) || CHANGE.test(l.norm)) continue;
    const v = ownAmount(l, PAID);
    if (v === null || v <= 0) continue;
    // With change given back, the total is what was handed over less the change, not the amount
    // handed over ("Total Paid RM50.00", "Change RM28.15").
    if (change > 0 && v - change > 0) out.push(round(v - change, 2));
    else if (change <= 0) out.push(v);
    // "RM CASH   100.000": a zero too many after the cents, read as thousands; the cents reading
    // less the change is a candidate too (a total or subtotal it equals decides).
    const extraZero = /(?<![\d.,])(\d+)[.,](\d{2})0\s*$/.exec(l.text);
    if (extraZero && change > 0) {
      const alt = Number(`${extraZero[1]}.${extraZero[2]}`);
      if (alt - change > 0) out.push(round(alt - change, 2));
    }
  }
  return out;
}

export function changeGiven(lines: Line[]): number {
  for (const l of lines) {
    if (!CHANGE.test(l.norm)) continue;
    const v = ownAmount(l, CHANGE_LABEL);
    if (v !== null) return v;
  }
  return 0;
}

/** What was paid (the most handed over, less the change) when no total is labelled. */
export function paidTotal(lines: Line[]): number | undefined {
  const handed = lines
    .filter((l) => PAID.test(l.norm) && !CHANGE.test(l.norm))
    .map((l) => ownAmount(l, PAID) ?? 0);
  if (!handed.length) return undefined;
  const v = round(Math.max(...handed) - changeGiven(lines), 2);
  return v > 0 ? v : undefined;
}
