/**
 * A service invoice's reading whose last group the photo damaged ("Km: 145.%4 km"), mended from the
 * next service's distance printed at its foot ("Próxima revisión a los 155.964 km"): services fall
 * due a whole number of thousands of km (or miles) later, so the two share their last three digits.
 */
import type { Line } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';

/** "145.%4": the reading's first group and a second one with a character that is no digit. */
const DAMAGED = /^\s*[:.]?\s*(\d{1,3})[.,\s]([^\s.,]{1,3})(?![^\s]*\d{3})/;

/**
 * The reading `text` (the text after its label) begins with, its last group taken from the one
 * distance elsewhere on the invoice that is 1,000 to 50,000 more and agrees with the digits still
 * legible in the damaged group (right-aligned); null when the group is not damaged or no single
 * distance fits.
 */
export function mendFromNextService(text: string, lines: Line[], own: Line): number | null {
  const m = DAMAGED.exec(text);
  const head = Number(m?.[1]);
  const tail = m?.[2] ?? '';
  if (!m || /^\d{3}$/.test(tail) || !/\d/.test(tail)) return null;
  const legible = tail.padStart(3, '?');
  const fits = new Set<number>();
  for (const l of lines) {
    if (l === own || !/KM|MILE/.test(l.norm)) continue;
    // Thousands joined, a number glued to the words before it ("a los155.964km") set apart.
    const text = l.text.replace(/(?<=\d)[.,\s](?=\d{3}(?!\d))/g, '').replace(/(?<=\p{L})(?=\d)/gu, ' ');
    for (const t of amountTokens(text, 'int')) {
      const thousands = Math.floor(t.value / 1000) - head;
      const last = String(t.value % 1000).padStart(3, '0');
      const agree = [...legible].every((c, i) => !/\d/.test(c) || c === last[i]);
      if (thousands >= 1 && thousands <= 50 && agree) fits.add(head * 1000 + Number(last));
    }
  }
  return fits.size === 1 ? ([...fits][0] ?? null) : null;
}
