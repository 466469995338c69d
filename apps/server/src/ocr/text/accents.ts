/** Romanian diacritics and Spanish accents put back on the usual receipt words the OCR read without them. */
import { every } from '../lexicon/index.js';

/**
 * PaddleOCR reads no Romanian diacritics and drops some Spanish accents: the usual receipt words
 * get them back ("-cion" → "-ción"), only in a text that has none at all.
 */
const ACCENTS = every((l) => l.accents);
export function restoreAccents(text: string): string {
  if (/[^ -~]/.test(text)) return text;
  let out = text;
  for (const [re, word] of ACCENTS)
    out = out.replace(re, (m) =>
      m[0] === m[0]?.toUpperCase() && word.length > 3 ? (word[0]?.toUpperCase() ?? '') + word.slice(1) : word,
    );
  return out;
}
