/** Numbers as receipts from Romania, Spain and English-speaking countries print them: amounts, quantities, km. */
export type NumberKind = 'money' | 'qty' | 'int';

/** A number token: digits with . , separators (and OCR's O for 0 inside digits). */
const NUM = /(?<![\w.,])-?\d[\d.,]*\d(?![\d])|(?<![\w.,])\d(?![\d.,]*\d)/g;

/**
 * Parses one number token. `money` has 2 decimals (a single separator followed by 3 digits is a
 * thousands separator: 1.234 = 1234), `qty` (litres, price per litre) takes 1–3 decimals, `int`
 * (km) treats every separator as thousands.
 */
export function parseNumber(token: string, kind: NumberKind): number | null {
  const t = token.replace(/[^\d.,]/g, '');
  if (!/\d/.test(t)) return null;
  const seps = [...t.matchAll(/[.,]/g)].map((m) => m.index ?? 0);
  if (seps.length === 0) return Number(t);
  if (kind === 'int') {
    // "98,500" or "98.500" or "98 500": thousands. A trailing ",0"/".00" decimal part is dropped.
    const m = /^(.*?)[.,](\d{1,2})$/.exec(t);
    const body = m && seps.length >= 1 && !/[.,]\d{3}$/.test(t) ? (m[1] ?? '') : t;
    const n = Number(body.replace(/[.,]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  const last = seps[seps.length - 1] ?? 0;
  const decimals = t.length - last - 1;
  const lastSep = t[last];
  const sameSep = seps.every((i) => t[i] === lastSep);
  let intPart: string;
  let decPart: string;
  if (seps.length > 1 && sameSep && decimals === 3) {
    // 1.234.567 — all thousands. ("2.040.81" is 2,040.81 with its comma read as a point.)
    intPart = t.replace(/[.,]/g, '');
    decPart = '';
  } else if (seps.length === 1 && decimals === 3 && kind === 'money' && last > 3) {
    // "2853,356": no thousands group has four digits before it; the cents, then a euro sign the
    // recogniser (no € in its alphabet) read as a digit.
    intPart = t.slice(0, last);
    decPart = t.slice(last + 1, last + 3);
  } else if (seps.length === 1 && decimals === 3 && kind === 'money') {
    intPart = t.replace(/[.,]/g, '');
    decPart = '';
  } else if (decimals >= 1 && decimals <= 3) {
    intPart = t.slice(0, last).replace(/[.,]/g, '');
    decPart = t.slice(last + 1);
  } else {
    intPart = t.replace(/[.,]/g, '');
    decPart = '';
  }
  const n = Number(decPart ? `${intPart}.${decPart}` : intPart);
  return Number.isFinite(n) ? n : null;
}

/** Number tokens of a line, left to right, with where they start. */
export function numberTokens(text: string): { token: string; at: number; end: number }[] {
  const fixed = text.replace(/(?<=\d)[Oo](?=[\d.,]|\b)/g, '0');
  return [...fixed.matchAll(NUM)].map((m) => ({
    token: m[0],
    at: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}

const CURRENCY_PREFIX = /\b(RM|MYR|EUR|RON|LEI|USD|GBP|SGD|US\$|S\$|HUF|PLN|BGN|CHF|MDL)(?=\d)/gi;

/** Numbers on a line that look like amounts (not times, not percentages, not long ids), with their text. */
export function amountTokens(
  text: string,
  kind: NumberKind = 'money',
): { value: number; token: string; glued: boolean }[] {
  let clean = text
    .replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, ' ')
    // A card number's last digits after its mask ("**** **** 4026") are no amount.
    .replace(/[*•]{3,}[\s*•]*\d{2,4}\b/g, ' ')
    // A currency code glued to the number ("RM9.00", "EUR12,50"): a number starts after it.
    .replace(CURRENCY_PREFIX, '$1 ')
    // "£2160.68" whose pound sign the OCR read as a small f, glued to the amount.
    .replace(/(?<![\w£])[f£](?=\d)/g, '£ ')
    // "C966.98", "L3,665.02", "E696.41": a currency sign read as a capital glued to an amount with cents.
    .replace(/(?<![\w£€$])[CELF](?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?![\d.,]))/g, '£ ')
    // "S8.20": a dollar sign read as an S; "FM3.00", "1M3.00", "pM0.00": RM with its R misread.
    .replace(/(?<![\w£€$])S(?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?![\d.,]))/g, '$ ')
    .replace(/(?<![A-Za-z])[FPpK1]M(?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?![\d.,]))/g, 'RM ');
  // "200. 00": the OCR split a price at its decimal point.
  if (kind === 'money') clean = clean.replace(/(?<=\d[.,])\s(?=\d{2}(?![\d.,]))/g, '');
  const out: { value: number; token: string; glued: boolean }[] = [];
  for (const { token, end } of numberTokens(clean)) {
    if (clean[end] === '%' || /^\d{7,}$/.test(token)) continue;
    const n = parseNumber(token, kind);
    // glued: a letter right after it ("7c"), OCR noise more often than an amount; a currency
    // ("411.74LEI", "15,92EUR") is not.
    const after = clean.slice(end);
    // "4020,74C": a euro sign read as a C or an E right after an amount with cents is no letter either.
    const glued =
      /^[A-Za-z]/.test(after) &&
      !/^(?:LEI|LE[I!l1]|R[O0D]N|EUR|RM|USD|GBP|FT|HUF|Z[ŁL]|PLN|ЛВ|BGN|CHF|MDL)(?![A-Za-z])/i.test(after) &&
      !(/[.,]\d{2}$/.test(token) && /^[CEce](?![A-Za-z])/.test(after));
    if (n !== null) out.push({ value: n, token, glued });
  }
  return out;
}

export function amounts(text: string, kind: NumberKind = 'money'): number[] {
  return amountTokens(text, kind).map((t) => t.value);
}

/** Amounts written with cents: a VAT number, a rate or a count on the same line is not money. */
export const centsAmounts = (text: string) =>
  amountTokens(text)
    .filter((t) => /[.,]\d{2}$/.test(t.token) && !t.glued)
    .map((t) => t.value);
