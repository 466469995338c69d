/** A labelled line's value: the lines that carry a label, and the number after it. */
import type { Line } from '../text/lines.js';
import { amounts } from '../text/numbers.js';

/** Lines whose normalised text matches `label`, best (earliest match) first. */
export function labelled(lines: Line[], label: RegExp, not?: RegExp): Line[] {
  return lines.filter((l) => label.test(l.norm) && !not?.test(l.norm));
}

/** The value after a label: the rightmost number on the line, or the first on the next line. */
export function labelValue(
  lines: Line[],
  line: Line,
  kind: 'money' | 'qty' | 'int',
  after?: RegExp,
): number | null {
  let text = line.text;
  if (after) {
    const m = after.exec(line.norm);
    if (m) text = line.text.slice((m.index ?? 0) + m[0].length);
  }
  const own = amounts(text, kind);
  if (own.length) return own[own.length - 1] ?? null;
  const next = lines[line.index + 1];
  if (next) {
    const n = amounts(next.text, kind);
    if (n.length === 1) return n[0] ?? null;
  }
  return null;
}
