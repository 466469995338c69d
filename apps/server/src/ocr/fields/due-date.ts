/**
 * An invoice's due date and its payment term: when the photo lost the invoice's own date, the due
 * date ("Vencimiento: 11/08/2023") less the term the invoice prints ("Pago a 30 días") is that date.
 */
import { every } from '../lexicon/index.js';
import { aLetterInThreeOff, oneEditApart } from '../text/fuzzy.js';
import { type Line, normalize } from '../text/lines.js';

const DUE_LETTERS = every((l) => l.dueLetters);
const DAYS = every((l) => l.days);

/**
 * Where a due date's label ends in `norm` (one word or two, up to a letter in three misread:
 * "Voncimento", "Scadenfa", "Due datr"), or -1.
 */
export function dueLabelEnd(norm: string): number {
  const words = [...norm.matchAll(/[A-Z]+/g)];
  for (let i = 0; i < words.length; i++)
    for (const n of [1, 2]) {
      const run = words.slice(i, i + n);
      if (run.length < n) continue;
      const letters = run.map((w) => w[0]).join('');
      const near = DUE_LETTERS.some((w) => aLetterInThreeOff(w, letters));
      const last = run.at(-1);
      if (near && last) return (last.index ?? 0) + last[0].length;
    }
  return -1;
}

/**
 * The payment term the invoice prints, in days ("Payment within 30 days", "Pago a 30 dias", "Plata
 * în 30 de zile"; the word for days a letter off: "30 das", "30 de rile"), or null.
 */
export function paymentTerm(lines: Line[]): number | null {
  for (const l of lines)
    for (const m of l.text.matchAll(/(?<![\d.,])(\d{1,3})\s*(?:de\s+)?(\p{L}+)/giu)) {
      // The word up to the next one glued to it ("30dayTankofo": a capital after small letters).
      const word = normalize(/^\p{Ll}+(?=\p{Lu})/u.exec(m[2] ?? '')?.[0] ?? m[2] ?? '');
      const days = Number(m[1]);
      if (days >= 1 && days <= 120 && DAYS.some((w) => w === word || oneEditApart(w, word))) return days;
    }
  return null;
}

/** `iso` less `days` days. */
export function daysBefore(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}
