/** How receipts print a currency: its code, sign or word, next to an amount ("250,00 LEI", "€ 45.10", "25.000 Ft") or in a label ("TOTAL LEI"). */
import type { CurrencyCode } from '@evdra/domain';

/** How a mark was printed: `amount` touches a number, `label` stands alone ("TOTAL EUROS", "Importe €"). */
export type MarkPlace = 'amount' | 'label';
export type CurrencyMark = { code: CurrencyCode; place: MarkPlace; at: number; weight: number };

type Spelling = {
  code: CurrencyCode;
  /** Regex source on the normalised line (upper case, no accents). */
  source: string;
  /** Counts only touching a number: a sign or a short word that is noise or another word elsewhere. */
  amountOnly?: boolean;
  /** How much one such mark says (1: a plain code or sign). */
  weight?: number;
};

/** Between an amount and the mark after it: at most two spaces ("250,00  LEI"). */
const GAP = '\\s{0,2}';

/**
 * Every way the currencies are printed, longest first where two begin alike. A code or word is a
 * whole word only: "ULEI" (oil), "ELECTRONIC", "FRONT", "EUROWASH", "SOFT" hold none.
 */
const SPELLINGS: Spelling[] = [
  { code: 'RON', source: 'LEI' },
  { code: 'RON', source: 'RON' },
  // LEI with its I misread (LE1, LEl, LE!): only glued to an amount.
  { code: 'RON', source: 'LE[1L!|]', amountOnly: true, weight: 0.6 },
  { code: 'RON', source: 'R0N', amountOnly: true, weight: 0.6 },
  { code: 'EUR', source: '€' },
  { code: 'EUR', source: 'EUR' },
  { code: 'EUR', source: 'EUROS' },
  // "EURO": also an emission standard ("EURO 5") and a petrol ("EURO 95", "Euro Super"): only
  // beside an amount written as money (see moneyTouch).
  { code: 'EUR', source: 'EURO', amountOnly: true },
  { code: 'GBP', source: '£' },
  { code: 'GBP', source: 'GBP' },
  { code: 'USD', source: 'US\\$' },
  { code: 'USD', source: 'USD' },
  // A bare "$" is OCR noise as often as a dollar ("S" read as "$"; "S$", "A$" are other dollars).
  { code: 'USD', source: '(?<![A-Z$])\\$', amountOnly: true, weight: 0.5 },
  { code: 'HUF', source: 'HUF' },
  { code: 'HUF', source: 'FT', amountOnly: true },
  { code: 'PLN', source: 'PLN' },
  { code: 'PLN', source: 'Z[ŁL]', amountOnly: true },
  { code: 'BGN', source: 'BGN' },
  { code: 'BGN', source: 'ЛВ', amountOnly: true },
  { code: 'CHF', source: 'CHF' },
  { code: 'MDL', source: 'MDL' },
];

/** A spelling as a whole word: no letter on either side (digits may touch it: "411.74LEI", "RM9.00"). */
const wordOf = (source: string) => new RegExp(`(?<![A-ZА-Я])(?:${source})(?![A-ZА-Я])`, 'g');
const MARKS = SPELLINGS.map((s) => ({ ...s, re: wordOf(s.source) }));

/**
 * A number right before or after the mark, as money is printed: with cents ("45,10"), thousands
 * ("25.000") or three digits or more ("250"). A short bare number ("95 RON", "EURO 5", "RON 97": an
 * octane, an emission standard) is no price.
 */
const MONEY_BEFORE = new RegExp(`(?:\\d[.,]\\d{2,3}|\\d{3,})${GAP}$`);
// After the mark, the amount may stand across the line ("TOTAL LEI          155,50", "RON: 45,00").
const MONEY_AFTER = /^[\s:]*-?(?:\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}(?!\d)|\d{1,3}[.,]\d{3}|\d{3,})/;
/** A price per unit: "LEI/L", "€/L", "£/litre", "Ft/kWh". */
const PER_UNIT = /^\s?\/\s?(?:L\b|LT|LITR|KWH|GAL)/;

function moneyTouch(norm: string, at: number, end: number): boolean {
  return (
    MONEY_BEFORE.test(norm.slice(0, at)) ||
    MONEY_AFTER.test(norm.slice(end)) ||
    PER_UNIT.test(norm.slice(end))
  );
}

/** RON beside an octane ("RON 95", "98 RON", "RON97"): a petrol's grade, no currency. */
const OCTANE_AFTER = /^\s?(?:8\d|9\d|10[0-2])(?![\d.,])/;
const OCTANE_BEFORE = /(?<![\d.,])(?:8\d|9\d|10[0-2])\s?$/;

/**
 * An exchange-rate line ("1 EUR = 4,9750 LEI", "CURS BNR 4,97", "TIPO DE CAMBIO"): when it names
 * two currencies, neither is much of a sign of the one paid in.
 */
const RATE_WORDS = /=|\bCURS\b|\bCAMBIO\b|\bEXCHANGE\b|\bRATE\b/;

/** The currency marks on one normalised line, left to right. */
export function currencyMarks(norm: string): CurrencyMark[] {
  const found: CurrencyMark[] = [];
  const taken = new Set<number>();
  for (const m of MARKS) {
    for (const hit of norm.matchAll(m.re)) {
      const at = hit.index ?? 0;
      const end = at + hit[0].length;
      if (taken.has(at)) continue;
      if (m.code === 'RON' && (OCTANE_AFTER.test(norm.slice(end)) || OCTANE_BEFORE.test(norm.slice(0, at))))
        continue;
      const touches = moneyTouch(norm, at, end);
      if (m.amountOnly && !touches) continue;
      taken.add(at);
      const weight = (m.weight ?? 1) * (touches ? 1 : 0.5);
      found.push({ code: m.code, place: touches ? 'amount' : 'label', at, weight });
    }
  }
  const rateLine = RATE_WORDS.test(norm) && new Set(found.map((f) => f.code)).size > 1;
  if (rateLine) for (const f of found) f.weight *= 0.2;
  return found.sort((a, b) => a.at - b.at);
}

/**
 * The currency one printed token names ("EUR", "LEI", "€", "£", "FT", "ZŁ"), normalised (upper case),
 * or undefined. Any spelling counts here, a weak one too: the caller has already found the token where
 * a currency stands (beside "=" in an exchange rate).
 */
export function currencyNamed(token: string): CurrencyCode | undefined {
  const t = token.trim();
  return MARKS.find((m) => new RegExp(`^(?:${m.source})$`).test(t))?.code;
}
