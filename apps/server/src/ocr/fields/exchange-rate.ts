/**
 * The exchange rate a receipt prints (a card slip abroad, dynamic currency conversion, a lei receipt
 * that also shows its euro total): "1 EUR = 4,9750 RON", "Exchange rate 1 HUF = 0.0127 RON",
 * "Curs: 4,9768", "Tipo de cambio 1 EUR = 395,12 HUF", "EUR/RON 4,9750".
 */
import { type CurrencyCode, roundRate } from '@evdra/domain';
import { currencyNamed } from '../text/currencies.js';
import type { Line } from '../text/lines.js';

/**
 * One rate as printed: one `from` is `rate` `to`. A side the line does not name is undefined
 * ("Curs: 4,9768" names neither).
 */
export type PrintedRate = { rate: number; from?: CurrencyCode; to?: CurrencyCode; conf: number };

/** A currency as a whole token: a sign, or a code or word the currency spellings know (checked after). */
const CUR = '(US\\$|[€£$]|(?<![A-ZЛŁ])[A-ZЛВŁ]{2,5}(?![A-ZЛВŁ]))';
/** A rate's number: digits with . or , ("4,9750", "0.0127", "395,12", "1.234,56"). */
const NUM = '(\\d+(?:[.,]\\d+)*)(?![\\d%])';
/** What stands between the two sides: "=", ":", "≈", "->". */
const EQ = '\\s*(?:=|:|≈|->|→)\\s*';

/** "1 EUR = 4,9750 RON", "1,00 EUR = RON 4,9750", "1 HUF=0.0127RON": one `from` is n `to`. */
const PAIR = new RegExp(`(?<![\\d.,])1(?:[.,]0{1,4})?\\s*${CUR}${EQ}(?:${CUR}\\s*)?${NUM}(?:\\s*${CUR})?`);
/** "EUR/RON 4,9750", "EUR/RON: 4.9750": a quote, units of the second per one of the first. */
const QUOTE = new RegExp(`${CUR}\\s*/\\s*${CUR}\\s*[:=]?\\s*${NUM}`);
/** "4,9750 RON/EUR": units of the first per one of the second. */
const PER = new RegExp(`${NUM}\\s*${CUR}\\s*/\\s*${CUR}`);
/**
 * The words a rate is labelled with. Not "RATE" alone (a VAT rate) nor "CAMBIO" alone (in Spanish
 * also the change given back).
 */
const LABEL =
  /\b(?:CURS(?:\s+(?:VALUTAR|BNR|DE\s+SCHIMB|SCHIMB|BANCAR))?|RATA\s+DE\s+SCHIMB|EXCH(?:ANGE|\.)?\s*RATE|RATE\s+OF\s+EXCHANGE|FX\s+RATE|CONVERSION\s+RATE|TIPO\s+(?:DE\s+)?CAMBIO|TASA\s+(?:DE\s+)?CAMBIO|CAMBIO\s+APLICADO)\b/;
/** After a label: an optional currency, the rate (with decimals), an optional currency. */
const LABELLED = new RegExp(
  `^\\s*[:=.]?\\s*(?:${CUR}\\s*)?(\\d+[.,]\\d+(?:[.,]\\d+)*)(?![\\d%])(?:\\s*${CUR})?`,
);

/** A rate's number: with both separators the last is the decimal one; one separator is decimal (rates have decimals). */
export function parseRate(token: string): number | null {
  const seps = token.match(/[.,]/g) ?? [];
  let t = token;
  if (new Set(seps).size === 2) {
    const dec = token.lastIndexOf('.') > token.lastIndexOf(',') ? '.' : ',';
    t = token.replace(dec === '.' ? /,/g : /\./g, '').replace(',', '.');
  } else if (seps.length === 1) t = token.replace(',', '.');
  else if (seps.length > 1) t = token.replace(/[.,]/g, '');
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? n : null;
}

const named = (token: string | undefined) => (token ? currencyNamed(token) : undefined);

/** The rate one normalised line prints, or undefined. */
export function rateOnLine(norm: string): Omit<PrintedRate, 'conf'> | undefined {
  const pair = PAIR.exec(norm);
  if (pair) {
    const from = named(pair[1]);
    const before = named(pair[2]);
    const after = named(pair[4]);
    const to = before && after ? undefined : (before ?? after);
    const rate = parseRate(pair[3] ?? '');
    if (from && to && from !== to && rate) return { rate, from, to };
  }
  const quote = QUOTE.exec(norm);
  if (quote) {
    const from = named(quote[1]);
    const to = named(quote[2]);
    const rate = parseRate(quote[3] ?? '');
    if (from && to && from !== to && rate) return { rate, from, to };
  }
  const per = PER.exec(norm);
  if (per) {
    const to = named(per[2]);
    const from = named(per[3]);
    const rate = parseRate(per[1] ?? '');
    if (from && to && from !== to && rate) return { rate, from, to };
  }
  const label = LABEL.exec(norm);
  if (label) {
    const m = LABELLED.exec(norm.slice((label.index ?? 0) + label[0].length));
    const rate = m ? parseRate(m[2] ?? '') : null;
    if (m && rate) {
      // "CURS EUR 4,9768": one euro is 4,9768; "CURS 4,9768 LEI": 4,9768 lei for one of the other.
      const from = m[1] ? named(m[1]) : undefined;
      const to = m[3] ? named(m[3]) : undefined;
      // A token after the number that is no currency ("CURS 4,97 LA DATA") is simply not a side.
      if (!(from && to && from === to) && !(m[1] && !from)) return { rate, from, to };
    }
  }
  return undefined;
}

/** How sure a reading is by how much it names: both sides, one, or none (the reference rate orients it). */
const NAMED_CONF = [0.6, 0.75, 0.9];

/** Every exchange rate the receipt prints, top to bottom. */
export function printedRates(lines: Line[]): PrintedRate[] {
  const out: PrintedRate[] = [];
  for (const l of lines) {
    const r = rateOnLine(l.norm);
    if (!r) continue;
    const sides = (r.from ? 1 : 0) + (r.to ? 1 : 0);
    out.push({ ...r, conf: Math.max(0, Math.min(1, l.confidence)) * (NAMED_CONF[sides] ?? 0.6) });
  }
  return out;
}

/**
 * How far a printed rate may be from the day's reference rate and still be taken: a card's
 * conversion adds a margin (dynamic currency conversion up to ~12 %); a misread digit or decimal
 * point is off by far more.
 */
const PLAUSIBLE = 1.3;

/**
 * The rate a receipt in `receipt` currency prints, as the API means it: one unit of the receipt's
 * currency in the user's (`user`), inverted when printed the other way ("1 RON = 0.2010 EUR" for a
 * RON receipt and a EUR user is taken as is; "1 EUR = 4,9750 RON" is 0.2010050251). A rate that names
 * a third currency is not this pair's. A side the receipt does not name is taken as this pair's; a
 * rate that names neither ("Curs: 4,9768") is oriented by `reference` (the day's reference rate of the
 * pair), and not taken without one. With a reference, a rate far from it (a misread) is not taken.
 * Undefined: none (or the receipt is in the user's currency).
 */
export function receiptRate(
  printed: PrintedRate[],
  receipt: CurrencyCode,
  user: CurrencyCode,
  reference?: number,
): { rate: number; conf: number } | undefined {
  if (receipt === user) return undefined;
  const near = (r: number) => !reference || Math.abs(Math.log(r / reference)) <= Math.log(PLAUSIBLE);
  for (const p of printed) {
    const { from, to } = p;
    let r: number | undefined;
    if ((from === receipt || from === undefined) && (to === user || to === undefined) && (from || to))
      r = p.rate;
    else if ((from === user || from === undefined) && (to === receipt || to === undefined) && (from || to))
      r = 1 / p.rate;
    else if (!from && !to && reference) {
      // Named neither way: the orientation nearer the reference.
      const [a, b] = [p.rate, 1 / p.rate];
      r = Math.abs(Math.log(a / reference)) <= Math.abs(Math.log(b / reference)) ? a : b;
    }
    if (r && near(r)) return { rate: roundRate(r), conf: p.conf };
  }
  return undefined;
}
