import type { CurrencyCode } from '@evdra/domain';
import { currencyInCell } from './currency.js';
import { type Decimal, parseNumber, toldDecimal } from './locale.js';

/**
 * Amounts of money as files write them (issue 50). `25.000 Ft` is twenty-five thousand forints: in
 * Hungarian, Romanian, Spanish and German number style `.` groups thousands and `,` is the decimal
 * mark. A cell that says it alone (`25.000,50`, `1,234.50`, `629,9`, `47.85`) is read as it says;
 * `d.ddd` / `d,ddd` is decided by the cell, then its column, then the currency, then the file.
 */

/**
 * Currencies whose prices are written in whole units: the forint's fillér went out in 1999, so a
 * forint total never has three decimals, while `1.459` may well be euros (per-litre prices do).
 */
const WHOLE_UNITS: ReadonlySet<CurrencyCode> = new Set(['HUF']);

/** What an amount column's cells are read by: the separators its own values and the file's show. */
export type AmountStyle = { column: Decimal | null; file: Decimal | null };

/** The style of the amount column `column` in a file whose number cells are `file`. */
export const amountStyle = (column: Iterable<string>, file: Iterable<string>): AmountStyle => ({
  column: toldDecimal(column),
  file: toldDecimal(file),
});

/** `25.000` or `1,234`: one separator, once, then exactly three digits, which alone says nothing. */
const AMBIGUOUS = /^\d{1,3}([.,])\d{3}$/;

/**
 * An amount of money from its cell; `currency` is the one the row is in, as far as the file says
 * (else the one the user picked or uses), null when unknown. Null when the cell holds no number.
 */
export function parseAmount(raw: string | undefined, style: AmountStyle, currency: CurrencyCode | null) {
  if (raw === undefined) return null;
  const sep = AMBIGUOUS.exec(raw.replace(/[^\d.,]/g, ''))?.[1] as Decimal | undefined;
  if (!sep) return parseNumber(raw, style.column ?? style.file ?? '.');
  const other: Decimal = sep === '.' ? ',' : '.';
  return parseNumber(raw, groups(raw, sep, style, currency) ? other : sep);
}

/** Whether the ambiguous separator `sep` of `raw` groups thousands. */
function groups(raw: string, sep: Decimal, style: AmountStyle, currency: CurrencyCode | null): boolean {
  // A sign or code beside it: money is printed with two decimals or none, never three.
  if (currencyInCell(raw)) return true;
  if (style.column) return style.column !== sep;
  if (currency && WHOLE_UNITS.has(currency)) return true;
  if (style.file) return style.file !== sep;
  // Nothing tells: `.` is a decimal mark (as the file-wide default), so `1.459` stays 1.459.
  return sep === ',';
}
