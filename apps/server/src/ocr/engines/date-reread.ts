/** Boxes that may hold a date, read again: which boxes, and which reading of the date wins. */
import { findDates } from '../text/dates.js';
import { normalize } from '../text/lines.js';

/**
 * A box's text that may hold a date, however misread: dd?mm?yy(yy) with any separators (a letter
 * for a digit or a month in the middle: "25B412017", "02/1a0/2017", "03/0:/2018"), eight digits
 * with a year, yyyy-mm-dd, or a date label or a month's name with digits. Such boxes are read a
 * second time (paddle-worker.ts).
 */
export function mayHoldDate(text: string): boolean {
  return (
    /(?<!\d)\d{1,2}\s?[^\s\dA-Z]{1,2}\s?[\dA-Z]{1,2}\s?[^\s\dA-Z]{1,2}\s?(?:\d{4}|\d{2})(?!\d)|(?<!\d)\d{2}[/.-]?\d{2}[/.-]?(?:19|20)\d{2}(?!\d)|(?<!\d)(?:19|20)\d{2}\s?[^\s\dA-Z]{1,2}\s?\d{1,2}\s?[^\s\dA-Z]{1,2}\s?\d{1,2}(?!\d)/i.test(
      text,
    ) ||
    ((text.match(/\d/g) ?? []).length >= 3 &&
      /DATE|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC/i.test(text))
  );
}

/** Of two digits a faded print turns into one another, the one with more ink (fading takes strokes away). */
export const INKIER: Record<string, string> = {
  '38': '8',
  '08': '8',
  '68': '8',
  '89': '8',
  '58': '8',
  '56': '6',
  '59': '9',
  '17': '7',
  '49': '9',
};

/**
 * The reading of a box that may hold a date, from its first reading and its re-readings (other
 * crops of the same box): the date most readings agree on, when the first reading's is not it.
 * A tie between two dates one look-alike digit apart goes to the inkier digit ("2013" and "2018":
 * the 8); any other tie to the first reading. A date only one re-reading found counts only when
 * no reading found another one. Null: keep the first reading.
 */
export function chooseDateReading(first: string, rereads: string[]): string | null {
  const dateOf = (t: string) => findDates(normalize(t))[0]?.iso ?? null;
  const own = dateOf(first);
  const votes = new Map<string, number>();
  const texts = new Map<string, string>();
  for (const t of [first, ...rereads]) {
    const d = dateOf(t);
    if (!d) continue;
    votes.set(d, (votes.get(d) ?? 0) + 1);
    if (!texts.has(d)) texts.set(d, t);
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top) return null;
  let win = top[0];
  if (next && next[1] === top[1]) {
    const diff = [...top[0]].flatMap((c, i) => (c !== next[0][i] ? [[c, next[0][i]].sort().join('')] : []));
    const inkier = diff.length === 1 ? INKIER[diff[0] ?? ''] : undefined;
    if (inkier) win = [...top[0]].some((c, i) => c !== next[0][i] && c === inkier) ? top[0] : next[0];
    else if (own && votes.get(own) === top[1]) win = own;
    else return null;
  }
  if (win === own) return null;
  if ((votes.get(win) ?? 0) < 2 && (own || ranked.length > 1)) return null;
  return texts.get(win) ?? null;
}
