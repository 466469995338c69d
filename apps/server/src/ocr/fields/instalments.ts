/** A policy's instalments: which lines are instalments, what they add up to, how many the policy states. */
import { round } from '../draft.js';
import { anyOf } from '../lexicon/index.js';
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';
import { amountTokens, centsAmounts } from '../text/numbers.js';

const round2 = (n: number) => round(n, 2);

// Also glued to its number or to "de" ("Instalment1", "Rata3", "12ratede279,21"), as PaddleOCR prints them.
const INSTALMENT = new RegExp(`(?:\\b|(?<=\\d))(${anyOf((l) => l.instalment)})(?=\\b|\\d|DE\\b|DE\\d)`);
/** A numbered instalment whose word the OCR garbled: "Instalnont 1", "tnstaimort 4", "intalment 2", "Rala 1". */
const GARBLED_INSTALMENT = /^(?:[IT1]?NS?TA[LI1][A-Z]{2,6}|RA[LI1]A)\s*\d{1,2}\b/;

export const isInstalmentLine = (l: Line) => INSTALMENT.test(l.norm) || GARBLED_INSTALMENT.test(l.norm);

/** "Payable in 4 instalments", "12 rate", "4 cuotas": a line that states the count, not an instalment. */
// The count before the instalments' word ("12 rate", "4 cuotas"); only English puts an adjective between.
const STATED_COUNT = /(?<![\d.,])([2-9]|1[0-2])\s*(?:MONTHLY\s*)?(?:RATE|CUOTAS|PLAZOS|INSTAL+MENTS|RECIBOS)/;

/**
 * An instalment row's amount: the last one with cents; else one whose decimal point the OCR lost
 * ("613 25", "61325" after the due date), read as cents; else undefined.
 */
export function instalmentAmount(text: string): number | undefined {
  const v = centsAmounts(text).at(-1);
  if (v !== undefined) return v;
  const split = /(?<![\d.,])(\d{1,5}) (\d{2})\s*\D{0,4}$/.exec(text);
  if (split && !/\d[.,/-]\s*$/.test(text.slice(0, split.index)))
    return round2(Number(`${split[1]}.${split[2]}`));
  const last = amountTokens(text).at(-1);
  if (last && /^\d{3,7}$/.test(last.token) && !/^(19|20)\d{2}$/.test(last.token) && !last.glued)
    return round2(last.value / 100);
  return undefined;
}

/**
 * What the instalments add up to: "Rata 1: 308,64" lines summed, or "4 x 308,64" / "4 rate de
 * 308,64" multiplied. Null when fewer than two instalments are printed, one is more than
 * `premium` (the largest premium read), or a numbered row's amount is missing.
 */
export function instalmentsSum(lines: Line[], premium?: number): number | null {
  return readInstalments(lines, premium)?.sum ?? null;
}

/**
 * True when `premium` is what the instalments add up to once one of them, read unlike the others,
 * is taken as its fellows' amount: that one was misread ("803,64" among "308,64"), not the premium.
 */
export function premiumWithOneMisread(lines: Line[], premium: number): boolean {
  const values = readInstalments(lines, premium)?.values ?? [];
  if (values.length < 2) return false;
  const sum = values.reduce((a, b) => a + b, 0);
  return values.some((v, i) => {
    const others = values.filter((_, j) => j !== i).sort((a, b) => a - b);
    const typical = others[Math.floor(others.length / 2)] ?? 0;
    return v !== typical && Math.abs(premium - (sum - v) - typical) <= 0.02 + 0.005 * values.length;
  });
}

/** The instalments' amounts as read and their sum (see instalmentsSum), or null. */
function readInstalments(lines: Line[], premium?: number): { sum: number; values: number[] } | null {
  let sum = 0;
  let count = 0;
  const numbers: number[] = [];
  const values: number[] = [];
  for (const l of lines.filter(isInstalmentLine)) {
    const times =
      /(?<![\d.,])([2-9]|1[0-2])\s*(?:(?:MONTHLY|LUNARE|MENSUALES|RATE|CUOTAS|PLAZOS|INSTAL+MENTS|RECIBOS)\s*)*(?:[X×*]|DE|OF)\s*[:=]?\s*(?:€|EUR|LEI|RON|£|[FCEL](?=\d))?\s*(\d[\d.,]*[.,]\d{2})/.exec(
        l.norm,
      );
    if (times) {
      const each = centsAmounts(times[2] ?? '')[0];
      if (each) return { sum: round2(Number(times[1]) * each), values: Array(Number(times[1])).fill(each) };
    }
    // "Payable in 2 instalments of E427.85" whose amount was not read: a count, not a row.
    if (STATED_COUNT.test(l.norm)) continue;
    const n = /^\D*?(\d{1,2})\b/.exec(l.norm.replace(/(?<=[A-Z])(?=\d)/, ' '))?.[1];
    // Only a numbered row (or one with its due date) has its amount read without a decimal point.
    const numbered = n !== undefined || findDates(l.norm).length > 0;
    const v = numbered ? instalmentAmount(l.text) : centsAmounts(l.text).at(-1);
    // A numbered instalment whose amount the OCR lost ("Recibo 4" alone, or with only its due
    // date): the sum is incomplete.
    if (v === undefined && n && (/^\D*\d{1,2}\s*$/.test(l.norm) || findDates(l.norm).length)) return null;
    // One instalment more than the whole premium is a misread ("£1,704.62" read "61.704.62").
    if (v !== undefined && premium !== undefined && v > premium) return null;
    if (v !== undefined) {
      sum += v;
      values.push(v);
      count++;
      if (n) numbers.push(Number(n));
    }
  }
  // "Payable in 12 instalments" with fewer printed (the first three of a monthly plan): no sum.
  const stated = statedInstalmentCount(lines);
  if (stated && count < stated) return null;
  // Numbered instalments with one missing ("Instalment 1, 2, 4": a line the OCR lost) add up to nothing.
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  if (sorted.length === count && sorted.some((n, i) => n !== i + 1)) return null;
  return count >= 2 ? { sum: round2(sum), values } : null;
}

/** The count of instalments a policy states ("12 rate", "4 cuotas", "2 instalments"), or null. */
export function statedInstalmentCount(lines: Line[]): number | null {
  for (const l of lines) {
    const m = STATED_COUNT.exec(l.norm);
    if (m?.[1]) return Number(m[1]);
  }
  return null;
}
