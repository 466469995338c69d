/** Spaces put back between the words PaddleOCR glued together ("Brakepadsreplaced"). */
import { every } from '../lexicon/index.js';

/**
 * PaddleOCR drops the narrow spaces of small print: "Brakepadsreplaced". The words that describe work
 * on a car and what a driver pays for, in English, Romanian and Spanish, put them back. A token is
 * split only when it is wholly made of such words.
 */
const WORDS = every((l) => l.gluedWords);
const DICT = new Set(WORDS);
/** Whether `token` is one of those words (any case, accents or not). */
export const isKnownWord = (token: string) => DICT.has(plain(token));
/** Those words, lowercase and without accents. */
export const knownWords = (): readonly string[] => WORDS;
const LONGEST = Math.max(...WORDS.map((w) => w.length));

/** Lowercase letters without accents, one per character of `s` (ș → s, ó → o). */
export const plain = (s: string) =>
  [...s]
    .map(
      (c) =>
        c
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase()[0] ?? c,
    )
    .join('');

/** Where to cut `token` into dictionary words (fewest words), or null when it cannot be. */
function cuts(token: string): number[] | null {
  const t = plain(token);
  const best: (number[] | null)[] = Array(t.length + 1).fill(null);
  best[0] = [];
  for (let i = 0; i < t.length; i++) {
    const here = best[i];
    if (!here) continue;
    for (let j = i + 1; j <= Math.min(t.length, i + LONGEST); j++) {
      if (!DICT.has(t.slice(i, j))) continue;
      const next = [...here, j];
      const prev = best[j];
      if (!prev || next.length < prev.length) best[j] = next;
    }
  }
  return best[t.length] ?? null;
}

/** Each long run of letters that is several known words glued together gets its spaces back. */
export function respace(text: string): string {
  // "park3 hours", "Rovinietă12 luni": a word glued to the number after it.
  // "3hours", "4buc": a number glued to the word after it; "podFetești", "autopistaAP-7": a word
  // glued to a capitalised one.
  const apart = text
    .replace(/(?<=\p{L}{3})(?=\d)/gu, ' ')
    .replace(/(?<=\d)(?=\p{L}{3})/gu, ' ')
    .replace(/(?<=\p{Ll}{2})(?=\p{Lu})/gu, ' ');
  return apart.replace(/\p{L}{4,}/gu, (token) => {
    if (DICT.has(plain(token))) return token;
    const at = cuts(token);
    if (!at || at.length < 2) return token;
    let from = 0;
    const parts = at.map((to) => {
      const part = token.slice(from, to);
      from = to;
      return part;
    });
    return parts.join(' ');
  });
}
