import { type CurrencyCode, isCurrencyCode } from '@evdra/domain';

/**
 * The currency an import's file names for an amount (issue 50): the sign or code beside the number in
 * a cell (`45,10 €`, `250 lei`, `RON 250`, `£32.40`, `25.000 Ft`), a currency column's value (`EUR`),
 * or a header's (`Total cost (€)`, `Preț (lei)`). `$` alone is only a hint (`dollar`): a default
 * LubeLogger install writes it whatever the money was.
 */
export type Stated = { currency: CurrencyCode } | { dollar: true } | null;

/** Signs and words, lower case, as they stand beside an amount. `lei` is Romania's (Moldova's reads MDL). */
const SIGNS: Record<string, CurrencyCode> = {
  '€': 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  '£': 'GBP',
  us$: 'USD',
  lei: 'RON',
  leu: 'RON',
  ft: 'HUF',
  лв: 'BGN',
  'лв.': 'BGN',
  zł: 'PLN',
  fr: 'CHF',
  'fr.': 'CHF',
};

/** A sign or code by itself (a cell's text without its number, a header's word). */
function named(token: string): Stated {
  const t = token.trim().toLowerCase();
  if (!t) return null;
  if (t === '$') return { dollar: true };
  const code = t.toUpperCase();
  if (isCurrencyCode(code)) return { currency: code };
  const sign = SIGNS[t];
  return sign ? { currency: sign } : null;
}

/** What an amount's cell names beside its number: `45,10 €` → EUR, `$89.99` → a dollar, `72.50` → nothing. */
export function currencyInCell(raw: string): Stated {
  if (!/\d/.test(raw)) return named(raw);
  // The number, its separators and sign out; what is left is the currency, if anything.
  const rest = raw.replace(/[\d.,'\s\u00a0\u202f()+-]+/g, ' ').trim();
  if (!rest || rest.includes(' ')) return null;
  return named(rest);
}

/** What a header names in parentheses or as its last word: `Total cost (€)`, `Cost (RON)`, `Preț lei`. */
export function currencyInHeader(header: string): Stated {
  const inParens = /\(([^()]+)\)\s*$/.exec(header)?.[1];
  if (inParens) {
    const s = named(inParens);
    if (s) return s;
  }
  const words = header.trim().split(/[\s/]+/);
  // The last word only, and never `$` in a header (`Price $` says as little as a `$` cell).
  if (words.length < 2) return null;
  const s = named(words[words.length - 1] ?? '');
  return s && 'currency' in s ? s : null;
}

/** A currency column's header, in the languages the readers know (normalized: lower case, no accents). */
export const CURRENCY_HEADERS = [
  'currency',
  'moneda',
  'valuta',
  'wahrung',
  'devise',
  'divisa',
  'moeda',
  'валюта',
];

/** The first text that names a currency firmly, else a `$` hint if one was seen, else nothing. */
export function firstStated(...found: Stated[]): Stated {
  let dollar: Stated = null;
  for (const s of found) {
    if (!s) continue;
    if ('currency' in s) return s;
    dollar = s;
  }
  return dollar;
}
