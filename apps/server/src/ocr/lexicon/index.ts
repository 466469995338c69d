/** The languages receipts are read in (a new one is a lexicon file and a line here), and their words joined. */
import { en } from './en.js';
import { es } from './es.js';
import { ro } from './ro.js';
import type { Lexicon } from './types.js';

export type { DateRole, ExpenseType, Lexicon } from './types.js';

/**
 * Every language's lexicon. The order is the insurers' search order: each market's own names
 * ("Allianz-Țiriac", "Allianz Seguros") before the group's bare name in English.
 */
export const LEXICONS = { ro, es, en } satisfies Record<string, Lexicon>;
export type Language = keyof typeof LEXICONS;
export const LANGUAGES = Object.keys(LEXICONS) as Language[];

/** One entry of every lexicon, in the table's order, each item once. */
export function every<T>(pick: (l: Lexicon) => T[]): T[] {
  return [...new Set(LANGUAGES.flatMap((lang) => pick(LEXICONS[lang])))];
}

/**
 * One entry of every lexicon as a regex alternation, the longest source first: where two labels
 * start at the same place, the longer one ("TOTAL DE PLATA", "KM BORD") wins over the word that
 * begins it ("TOTAL", "KM"). `extra` are a reader's own sources (misreadings common to all languages).
 */
export function anyOf(pick: (l: Lexicon) => string[], ...extra: string[]): string {
  const sources = [...new Set([...every(pick), ...extra])].sort((a, b) => b.length - a.length);
  // No words at all must match nothing, never the empty string.
  return sources.length ? sources.join('|') : '(?!)';
}
