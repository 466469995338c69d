import { amountTokens, type Line, normalize } from './parse.js';

export type Column = 'qty' | 'ppl' | 'amount';

/**
 * Column headings of a pump receipt's table, price per litre first so that "PRECIO/LITRO" is not
 * taken for litres. Matched on normalised text, spaces optional (PaddleOCR drops some).
 */
const HEADINGS: [Column, RegExp][] = [
  [
    'ppl',
    /PRE[CT]IO?\s*\/\s*L[A-Z]*|PRET\s*UNITAR|PRICE\s*\/\s*L[A-Z]*|UNIT\s*PRICE|P\.?\s*UNIT|(?:€|EUR|LEI|RON)\s*\/\s*L\b|\bPPL\b|\bPRECIO\b|\bPRET\b|\bPRICE\b/y,
  ],
  ['qty', /LITROS|LITRI|LITRES|LITERS|LITRE|VOLUMEN?|CANTIDAD|CANTITATE|\bQTY\b|\bLTS?\b/y],
  ['amount', /IMPORTE|VALOARE|AMOUNT|\bTOTAL\b|\bSUMA\b/y],
];

/** The headings on a line, left to right; null unless at least two of them and no number. */
export function headingsOf(norm: string): Column[] | null {
  if (/\d/.test(norm)) return null;
  const found = scanHeadings(norm);
  return found.length >= 2 ? found : null;
}

function scanHeadings(norm: string): Column[] {
  const found: Column[] = [];
  for (let at = 0; at < norm.length; at++) {
    for (const [col, re] of HEADINGS) {
      re.lastIndex = at;
      const m = re.exec(norm);
      if (m && (at === 0 || !/[A-Z]/.test(norm[at - 1] ?? ''))) {
        if (!found.includes(col)) found.push(col);
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
      const nums = amountTokens(row.text, 'qty').filter((t) => !t.glued);
      if (nums.length !== cols.length) continue;
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

/** Each number word of `row` → the heading word of `head` nearest above it (null without boxes). */
function columnsByBox(head: Line, row: Line, cols: Column[]): Column[] | null {
  if (!head.words || !row.words) return null;
  const heads = head.words
    .map((w) => ({ cols: scanHeadings(normalize(w.text)), w }))
    .filter((h) => h.cols.length === 1);
  if (heads.length !== cols.length) return null;
  const numbers = row.words.filter((w) => /\d/.test(w.text));
  if (numbers.length !== cols.length) return null;
  const mid = (b: { x: number; w: number }) => b.x + b.w / 2;
  return numbers.map((n) => {
    const nearest = heads.reduce((a, b) =>
      Math.abs(mid(a.w.box) - mid(n.box)) <= Math.abs(mid(b.w.box) - mid(n.box)) ? a : b,
    );
    return nearest.cols?.[0] as Column;
  });
}
