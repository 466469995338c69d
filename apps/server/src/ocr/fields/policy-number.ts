/** The policy number: a Romanian series, the token after a policy-number label, or the cell under its heading. */

import { anyOf, every } from '../lexicon/index.js';
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';

const TO_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '3': 'J',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
  ')': 'J',
  ']': 'J',
  '(': 'C',
  '|': 'I',
};
const TO_DIGIT: Record<string, string> = {
  O: '0',
  D: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  T: '7',
};

/**
 * Romanian RCA series are RO/<2 digits>/<letter + 2 digits>/<2 letters>: OCR's digit-for-letter
 * swaps (R0, 325 for J25) are undone by position.
 */
export function fixRoSeries(serie: string): string {
  const parts = serie.toUpperCase().replace(/\s+/g, '').split('/');
  if (parts.length !== 4) return serie;
  const letters = (s: string) => s.replace(/[\d)\]|(]/g, (c) => TO_LETTER[c] ?? c);
  const digits = (s: string) => s.replace(/[A-Z]/g, (c) => TO_DIGIT[c] ?? c);
  const [a = '', b = '', c = '', d = ''] = parts;
  return [letters(a), digits(b), letters(c.slice(0, 1)) + digits(c.slice(1)), letters(d)].join('/');
}

/**
 * "No.", "Nr.", "Nº", "Number" alone (the OCR also reads "Nr." as "NI."); "Nº" lost before a number
 * glued to the N ("N39378394", "NPOL50125523", "NCHU-1447541"). After every language's own labels,
 * which each begin with a word of their own.
 */
const NUMBER_ALONE = [
  '(?:^|\\s)(?:N[°º]|(?:NR|NO|NUMBER|NUMERO)(?![A-Z])\\.?|N[I1L]\\.)',
  // "N'POL79329647": its º read as an apostrophe.
  "^N[°º?']?(?=[A-Z]{0,3}-?\\d{6,}\\b)",
];
const POLICY_LABEL = new RegExp(
  `(?:${[...every((l) => l.policyLabel), ...NUMBER_ALONE].join('|')})\\s*[:.#?]?\\s*`,
  'g',
);
/**
 * A line that is nothing but a policy-number label ("Póliza número", "Nº de póliza:", "Policy
 * ref"): a form that prints the value on the line below.
 */
function isPolicyLabelAlone(norm: string): boolean {
  const text = norm.trim();
  return [...text.matchAll(POLICY_LABEL)].some(
    (m) => (m.index ?? 0) === 0 && /^[\s:.#?]*$/.test(text.slice(m[0].length)) && /[A-Z]{2}/.test(m[0]),
  );
}
/** A column heading that names the policy number ("Policy number", "Nr. poliță", "Póliza"), value below. */
const POLICY_HEADING = new RegExp(`^(?:${anyOf((l) => l.policyHeading)})(?:\\s{2,}|$)`);
/** A Romanian series and number ("RO/06/J25/KF 332215395"), as a table cell holds them. */
const RO_SERIES_CELL =
  /^([A-Z0-9]{2}\/[A-Z0-9]{1,3}\/[A-Z0-9]{2,4}\/(?:[A-Z0-9]{2,3}(?=\s)|[A-Z]{2}))\s*(\d{6,})/;

/**
 * The policy number after its label ("Policy No.", "Nº", "Nr.", "Póliza", "Număr poliță"): the next
 * token with at least three digits, so "Póliza de seguro" or "Nr. crt." are not taken.
 */
export function policyNumber(norm: string): string | null {
  for (const m of norm.matchAll(POLICY_LABEL)) {
    const t = leadingPolicyToken(norm.slice((m.index ?? 0) + m[0].length));
    if (t) return t;
  }
  return null;
}

/**
 * A label the OCR garbled and glued to its "No:" ("CortncatoNo: CHU-6670983"): the token after it,
 * only when it has letters as well as digits (a phone number after "Teléfono:" has none).
 */
export function gluedLabelPolicy(norm: string): string | null {
  for (const m of norm.matchAll(/(?<=[A-Z]{3})N[O0R]\s*[.:]\s*/g)) {
    const t = leadingPolicyToken(norm.slice((m.index ?? 0) + m[0].length));
    if (t && /[A-Z]{2}/.test(t) && /\d{5}/.test(t)) return t;
  }
  return null;
}

/** "3V2025/205481": a Spanish number (office / year / number) whose first slash the OCR read V or |. */
export const fixPolicySlashes = (v: string) =>
  v.replace(/^(\d{1,2})[V|\\]((?:19|20)\d{2}\/\d{4,7})$/, '$1/$2');

/**
 * A number printed in groups: letters then groups of digits ("MPC 3117 9042", "MPC 31179042"; the
 * OCR also widens the gap after the letters, "MPC   3117 9042", or glues them, "MPC3117 9042"), parts
 * between slashes the OCR spaced out or read as bars ("AXA / MT / 25 / 0048217", "AXA|MT|25|0048217"),
 * or lost ("AXA MT 25 0048217"). Up to two spaces between digit groups: a wider gap is the next
 * column; a group that starts a date ("2024-03-11") is the next column too.
 */
const DIGIT_GROUP = '\\d{3,8}(?![-/.]\\d)';
const GROUPED = new RegExp(
  [
    `^[A-Z]{2,4}(?: {1,3}| ?(?=\\d))${DIGIT_GROUP}(?: {1,2}${DIGIT_GROUP}){0,2}(?![A-Z0-9])`,
    '^[A-Z]{2,4} [A-Z]{2,3} \\d{2} \\d{4,8}(?![A-Z0-9])',
    '^[A-Z0-9]{2,4}(?: ?[/|] ?[A-Z0-9]{2,8}){2,4}(?![A-Z0-9])',
  ].join('|'),
);

/** The policy-number-like token that starts `text`: at least three digits, not a date. */
function leadingPolicyToken(text: string): string | null {
  const grouped = GROUPED.exec(text)?.[0];
  const t =
    grouped?.replace(/ ?[/|] ?/g, '/').replace(/\s+/g, ' ') ??
    /^([A-Z0-9][A-Z0-9/.-]{3,}[A-Z0-9])/.exec(text)?.[1];
  // "28-UL-2025": a date whose month the OCR garbled is no policy number either.
  const date = t && /^\d{1,2}[-/.][A-Z]{2,4}[-/.](?:19|20)\d{2}$/.test(t);
  return t && !date && (t.match(/\d/g) ?? []).length >= 3 && !findDates(t).length ? t : null;
}

/**
 * The policy number of a table whose heading row starts with "Policy number" ("Nr. poliță",
 * "Póliza"): the first cell of the row below it (a Romanian series with its number).
 */
export function policyNumberBelow(heading: string, row: Line | undefined): string | null {
  if (!row) return null;
  // "Nº" (or "Nr.", "No.") alone over a line that is nothing but the number.
  if (/^(?:N[°º?'"]?|NO|NR)\s*[.:]?$/.test(heading.trim())) return lonePolicyToken(row);
  if (!(POLICY_HEADING.test(heading) || isPolicyLabelAlone(heading))) return null;
  const ro = RO_SERIES_CELL.exec(row.norm);
  if (ro) return `${fixRoSeries(ro[1] ?? '')} ${ro[2]}`;
  return leadingPolicyToken(row.norm);
}

/** A line that is nothing but a policy-number-like token with five digits or more ("POL76693172"). */
function lonePolicyToken(l: Line | undefined): string | null {
  const text = l?.norm.trim() ?? '';
  const t = leadingPolicyToken(text);
  return t === text && /(?:\d\D*){5}/.test(t) ? t : null;
}

/**
 * The number on the line just above a label that stands alone with nothing usable below it: a
 * stacked form whose lines the OCR put out of order ("POL76693172" over "Póliza/Suplemento").
 */
export function policyNumberAbove(lines: Line[]): string | null {
  for (const l of lines)
    if (isPolicyLabelAlone(l.norm) || POLICY_HEADING.test(l.norm)) {
      const above = lonePolicyToken(lines[l.index - 1]);
      if (above) return above;
    }
  return null;
}

/** The policy number, the first way that finds one (null without). */
export function readPolicyNumber(lines: Line[]): { value: string | null; conf: number } {
  let policy: { v: string; conf: number } | null = null;
  for (const [i, l] of lines.entries()) {
    const ro =
      /(?:SERIA|SENA|SER1A)\s*[:.]?\s*([A-Z0-9/ )(|\][-]+?)\s*(?:NR|NUMAR)\.?\s*[:.]?\s*([A-Z0-9-]+)/.exec(
        l.norm,
      );
    if (ro) {
      const start = l.norm.indexOf(ro[1] ?? '');
      const serie = l.text.slice(start, start + (ro[1] ?? '').length).trim();
      policy = { v: `${fixRoSeries(serie)} ${ro[2]?.replace(/O/g, '0')}`, conf: l.confidence };
      break;
    }
    const other = policyNumber(l.norm) ?? policyNumberBelow(l.norm, lines[i + 1]);
    if (other) {
      policy = { v: other, conf: l.confidence };
      break;
    }
  }
  if (!policy) {
    const v = policyNumberAbove(lines);
    if (v) policy = { v, conf: 0.6 };
  }
  if (!policy)
    for (const l of lines) {
      const v = gluedLabelPolicy(l.norm);
      if (v) {
        policy = { v, conf: l.confidence * 0.8 };
        break;
      }
    }
  return { value: policy ? fixPolicySlashes(policy.v) : null, conf: policy?.conf ?? 0 };
}
