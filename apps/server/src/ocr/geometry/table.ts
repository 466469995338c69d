/** A pump receipt's table: column headings over a row of numbers, each number under its heading. */

import { anyOf } from '../lexicon/index.js';
import { type Line, normalize } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';

export type Column = 'qty' | 'ppl' | 'amount';

/**
 * Column headings of a pump receipt's table, price per litre first so that "PRECIO/LITRO" is not
 * taken for litres. Matched on normalised text, spaces optional (PaddleOCR drops some).
 */
const HEADINGS: [Column, RegExp][] = [
  [
    'ppl',
    new RegExp(
      anyOf(
        (l) => l.tableHeadings.ppl,
        'P\\.?\\s*UNIT',
        // "€/L", "LEI/L" (and "E/L", "F/L": € as the OCR reads it), "/L".
        '(?:€|£|EUR|LEI|RON)\\s*\\/\\s*L\\b',
        '\\b[EF]\\s*\\/\\s*L\\b',
        '\\/\\s*L\\b',
      ),
      'y',
    ),
  ],
  [
    'qty',
    new RegExp(
      anyOf((l) => l.tableHeadings.qty, '\\bLTRS?\\b', '\\bLTS?\\b'),
      'y',
    ),
  ],
  [
    'amount',
    new RegExp(
      anyOf((l) => l.tableHeadings.amount),
      'y',
    ),
  ],
];

/** The headings on a line, left to right; null unless at least two of them and no number. */
export function headingsOf(norm: string): Column[] | null {
  if (/\d/.test(norm)) return null;
  const found = scanHeadings(norm);
  return found.length >= 2 ? found : null;
}

function scanHeadings(norm: string): Column[] {
  return headingSpans(norm).map((h) => h.col);
}

/** The headings of a text with where each starts and ends. */
function headingSpans(norm: string): { col: Column; at: number; end: number }[] {
  const found: { col: Column; at: number; end: number }[] = [];
  for (let at = 0; at < norm.length; at++) {
    for (const [col, re] of HEADINGS) {
      re.lastIndex = at;
      const m = re.exec(norm);
      if (m && (at === 0 || !/[A-Z]/.test(norm[at - 1] ?? ''))) {
        if (!found.some((f) => f.col === col)) found.push({ col, at, end: at + m[0].length });
        at += m[0].length - 1;
        break;
      }
    }
  }
  return found;
}

/**
 * Values read from a table: a row of headings ("Litros  Precio/L  Importe") over a row with as many
 * numbers ("45,67  1,459  66,63"). With word boxes (PaddleOCR) each number goes to the heading
 * above it; without them, in the headings' order.
 */
export function tableValues(lines: Line[]): { column: Column; value: number; conf: number }[] {
  const out: { column: Column; value: number; conf: number }[] = [];
  for (const head of lines) {
    const cols = headingsOf(head.norm);
    if (!cols) continue;
    for (const row of lines.slice(head.index + 1, head.index + 3)) {
      let nums = amountTokens(row.text, 'qty').filter((t) => !t.glued);
      // A product column comes first ("SIN PLOMO 98   51,36   28,74   1,787"): the last numbers are the values.
      // The numbers left out must be whole (a grade), never a quantity or money with decimals.
      const extra = nums.slice(0, Math.max(0, nums.length - cols.length));
      if (extra.length && /^\s*\p{L}/u.test(row.text) && extra.every((t) => /^\d+$/.test(t.token)))
        nums = nums.slice(-cols.length);
      if (nums.length !== cols.length) {
        // Fewer numbers than headings (one glued to the product's name): by position, when known.
        const placed = nums.length >= 2 ? columnsByNearest(head, row, cols) : null;
        if (placed) {
          for (const p of placed) out.push({ ...p, conf: row.confidence * 0.9 });
          break;
        }
        continue;
      }
      const byBox = columnsByBox(head, row, cols);
      nums.forEach((n, i) => {
        const column = byBox?.[i] ?? cols[i];
        if (column) out.push({ column, value: n.value, conf: row.confidence });
      });
      break;
    }
  }
  return out;
}

const mid = (b: { x: number; w: number }) => b.x + b.w / 2;

type HeadingWord = ReturnType<typeof headingWords>[number];
/** The column of the heading word whose middle is nearest above `box`'s. */
const nearestColumn = (heads: HeadingWord[], box: { x: number; w: number }) =>
  heads.reduce((a, b) => (Math.abs(mid(a.w.box) - mid(box)) <= Math.abs(mid(b.w.box) - mid(box)) ? a : b))
    .cols[0] as Column;

/**
 * Heading words of `head` that name one column each, with their boxes; a word the OCR read as one
 * box with two headings ("Suma Pret unitar") is shared out by where each heading sits in its text.
 */
function headingWords(head: Line) {
  return (head.words ?? []).flatMap((w) => {
    const norm = normalize(w.text);
    const spans = headingSpans(norm);
    if (spans.length <= 1) return spans.map((s) => ({ cols: [s.col], w }));
    const per = w.box.w / Math.max(1, norm.length);
    return spans.map((s) => ({
      cols: [s.col],
      w: { ...w, box: { ...w.box, x: w.box.x + s.at * per, w: (s.end - s.at) * per } },
    }));
  });
}

/** Each number word of `row` → the heading word of `head` nearest above it (null without boxes). */
function columnsByBox(head: Line, row: Line, cols: Column[]): Column[] | null {
  if (!head.words || !row.words) return null;
  const heads = headingWords(head);
  if (heads.length !== cols.length) return null;
  const numbers = row.words.filter((w) => /\d/.test(w.text));
  if (numbers.length !== cols.length) return null;
  return numbers.map((n) => nearestColumn(heads, n.box));
}

/**
 * The row's number words that stand alone (a number and nothing else), each under the heading word
 * nearest above it: every heading at most once. Null without boxes or when two share a heading.
 */
function columnsByNearest(head: Line, row: Line, cols: Column[]): { column: Column; value: number }[] | null {
  if (!head.words || !row.words) return null;
  const heads = headingWords(head);
  if (heads.length !== cols.length) return null;
  const out: { column: Column; value: number }[] = [];
  for (const w of row.words) {
    if (!/^[\d.,]+$/.test(w.text.trim())) continue;
    const value = amountTokens(w.text, 'qty')[0]?.value;
    if (value === undefined) continue;
    const column = nearestColumn(heads, w.box);
    if (out.some((o) => o.column === column)) return null;
    out.push({ column, value });
  }
  return out.length >= 2 ? out : null;
}
