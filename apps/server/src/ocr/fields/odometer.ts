/** The odometer reading: the number after an odometer label (or before "km"), never the next service's. */

import { anyOf, every } from '../lexicon/index.js';
import { aLetterInThreeOff, oneEditApart } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';
import { mendFromNextService } from './odometer-mend.js';
import { NOT_TOTAL, TOTAL } from './total.js';

/** An odometer's label; "KM" and "KMS" in every language; glued to its reading too ("KM31780", "Odometer96139"). */
const ODO_LABEL = new RegExp(`\\b(${anyOf((l) => l.odometer, 'KMS?')})(?:\\b|(?=\\d))\\.?`);
/** A distance that is not the car's reading: the next service, a range, an interval, a speed. */
const NOT_ODO = new RegExp(anyOf((l) => l.notOdometer, 'KM\\s*\\/\\s*H'));

/** An amount with cents and its currency. */
const MONEY = /(?<![\d.,])\d[\d.,]*[.,]\d{2}\s*(?:LEI|RON|EUR|€|£|\$)(?![A-Za-z])/gi;

/**
 * "76 320", "76. 320": a reading whose thousands separator the OCR read as a space (or a point and a
 * space) is one number, not 76 followed by 320.
 */
export const joinThousands = (text: string) =>
  text.replace(/(?<![\d.,])\d{1,3}(?:[.,]?\s\d{3})+(?![\d.,]*\d)/g, (m) => m.replace(/[.,\s]/g, ''));

/** The odometer's labels as letters only. */
const ODO_LETTERS = every((l) => l.odometerLetters);

/**
 * Where a word up to one letter in three off an odometer's label ends ("Miieage", "Knometros",
 * "Chometros": faded print loses a letter or two of a long word; 0 and 1 read for O and I), or -1.
 */
export function fuzzyOdometerLabel(norm: string): number {
  for (const m of norm.matchAll(/(?<![A-Z0-9])[A-Z][A-Z0-9]{5,11}(?![A-Z0-9])/g)) {
    const word = m[0].replace(/0/g, 'O').replace(/1/g, 'I');
    if (ODO_LETTERS.some((w) => aLetterInThreeOff(w, word))) return (m.index ?? 0) + m[0].length;
  }
  return -1;
}

/** "miles" after the number, as printed or a letter off ("mdles", "mles"): the reading is in miles. */
export const inMiles = (norm: string) =>
  /(?:\b|(?<=\d))MILES?\b/.test(norm) ||
  [...norm.matchAll(/(?<=\d\s?)[A-Z]{4,6}\b/g)].some((m) => oneEditApart(m[0], 'MILES'));

/** A numeric date ("12.03.2024"): never a reading. */
const NUMERIC_DATE = /\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/g;

/** An amount with cents ("268,82"): a row of money, never a reading. */
const CENTS = /(?<![\d.,])\d[\d.,]*[.,]\d{2}(?![\d.,])/g;

/**
 * The odometer: the number after an odometer label anywhere on the line (not a date, not the next
 * service's), else a number followed by "km". Miles are converted. `invoice`: a service invoice's,
 * whose foot is the next service's and whose vehicle rows hold the reading (unlabelledReading).
 */
export function odometer(
  lines: Line[],
  opts: { invoice?: boolean } = {},
): { value: number; conf: number } | null {
  // `units`: the text that says whether the reading is in miles (its own line and its label's).
  const read = (units: string, text: string, conf: number, last = false) => {
    // Neither a date nor an amount of money ("Kilometraj   55,98 RON": a tilted photo's row beside
    // the label): a reading has no cents and no currency.
    const clean = joinThousands(text.replace(NUMERIC_DATE, ' ').replace(MONEY, ' '));
    const ok = amountTokens(clean, 'int').filter((t) => t.value >= 10 && !/^(19|20)\d{2}$/.test(t.token));
    const v = (last ? ok.at(-1) : ok[0])?.value;
    if (v === undefined) return null;
    // "48320miles": PaddleOCR glues the unit to the number.
    return { value: inMiles(units) ? Math.round(v * 1.609344) : v, conf };
  };
  /** The reading after a label that ends at `end` in line `l`, or on the row beside it. */
  const after = (l: Line, end: number, sure: number) => {
    const own = read(l.norm, l.text.slice(end), l.confidence * sure);
    // A service invoice's reading under 1,000 whose next group is damaged ("145.%4"): mended from
    // the next service's distance, or none.
    if (own && opts.invoice && own.value < 1000) {
      const mended = mendFromNextService(l.text.slice(end), lines, l);
      return mended === null ? null : { value: mended, conf: own.conf * 0.7 };
    }
    if (own) return own;
    const next = lines[l.index + 1];
    const below =
      next && amountTokens(next.text, 'int').length === 1
        ? read(`${l.norm}\n${next.norm}`, next.text.replace(CENTS, ' '), next.confidence * 0.9 * sure)
        : null;
    if (below) return below;
    // A label alone on its line whose reading a tilted photo put on the row above ("Matricula: 4260
    // KLM   220.414" over "Kilometraje"): the last number there, no amount with cents.
    const prev = lines[l.index - 1];
    if (!prev || /\d/.test(l.text.slice(end))) return null;
    const above = read(
      `${l.norm}\n${prev.norm}`,
      prev.text.replace(CENTS, ' '),
      prev.confidence * 0.8 * sure,
      true,
    );
    return above && above.value >= 1000 ? above : null;
  };
  // A label that starts its line first ("KM 270243"), then one inside a line ("N-340 km 12" is an address).
  const starting = lines.filter((l) => ODO_LABEL.exec(l.norm)?.index === 0);
  for (const l of [...starting, ...lines.filter((l) => !starting.includes(l))]) {
    if (NOT_ODO.test(l.norm)) continue;
    const m = ODO_LABEL.exec(l.norm);
    if (!m) continue;
    // Inside a line only a full label counts: "N-340 km 12" is an address, "Mileage: 45,210" a reading.
    // "Nr. înmatriculare: B 729 XYZ   KM: 51.196": a short label with its colon is a label anywhere.
    // So is one that starts a column ("MariCufa 60/BKL M   Km 169 238"): three spaces before it.
    const colon = /^\s*:/.test(l.norm.slice((m.index ?? 0) + m[0].length));
    const column = /\s{3}$/.test(l.norm.slice(0, m.index ?? 0));
    if ((m.index ?? 0) > 0 && /^(KMS?|ODO)\b/.test(m[1] ?? '') && !colon && !column) continue;
    const v = after(l, (m.index ?? 0) + m[0].length, 1);
    if (v) return v;
  }
  // No label as printed: one a letter or two off, less sure; so is a reading under 1,000 after it
  // (few cars in a workshop show one; "208 J07" is a reading's first group, its second misread).
  for (const l of lines) {
    if (NOT_ODO.test(l.norm)) continue;
    const end = fuzzyOdometerLabel(l.norm);
    const v = end >= 0 ? after(l, end, 0.8) : null;
    if (v && v.value >= 1000) return v;
  }
  // A service invoice prints the next service's distance at its foot, after the total, its label
  // often lost ("Pyoxirua reviudn s los 1 79738 km"): no unlabelled reading there.
  const foot = opts.invoice
    ? lines.findLast((l) => TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm))
    : undefined;
  for (const l of lines) {
    if (NOT_ODO.test(l.norm) || (foot && l.index > foot.index)) continue;
    const m = /(\d[\d.,\s]{2,}\d)\s*KM\b/.exec(l.norm);
    if (m) {
      const v = read(l.norm, (m[1] ?? '').replace(/\s/g, ''), l.confidence * 0.8);
      if (v && v.value >= 100) return v;
    }
  }
  return opts.invoice ? unlabelledReading(lines) : null;
}

/**
 * A number printed as a reading: thousands grouped ("206.884", "161,069", "76 320"), no decimals; by
 * a space only after two digits or three ("8 058 XYZ" is a plate).
 */
const GROUPED = /(?<![\d.,])(?:\d{1,3}(?:[.,]\d{3})+|\d{2,3}(?: \d{3})+)(?![\d.,]*\d)/g;

/**
 * A service invoice's reading whose label the photo lost ("VaiCAa MUOLKLM   206.884" for "Matrícula:
 * … Kilómetros: 206.884"): the vehicle's rows come before the priced table, and there the only number
 * grouped in thousands without decimals (not a date, not the next service's) is the reading. Two or
 * more such numbers: none.
 */
export function unlabelledReading(lines: Line[]): { value: number; conf: number } | null {
  // Above the first amount with cents, and never at the foot (the total on, where no amount was read).
  const table = lines.findIndex(
    (l) => new RegExp(CENTS.source).test(l.text) || (TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm)),
  );
  const found = lines
    .slice(0, table < 0 ? lines.length : table)
    .filter((l) => !NOT_ODO.test(l.norm))
    .flatMap((l) =>
      [...l.text.replace(NUMERIC_DATE, ' ').matchAll(GROUPED)].map((m) => ({
        value: Number(m[0].replace(/[., ]/g, '')),
        conf: l.confidence * 0.5,
      })),
    )
    .filter((r) => r.value >= 1000);
  return found.length === 1 ? (found[0] ?? null) : null;
}
