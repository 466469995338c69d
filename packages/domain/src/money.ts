// No zod here: every card and total on a first screen formats money (the zod enums are in
// money-schemas.ts).

/**
 * The currencies a user, a record or a listing may be in (ISO 4217). The ECB publishes a daily
 * reference rate against the euro for all but MDL (the Moldovan leu): MDL converts only through a
 * MANUAL rate.
 */
export const CURRENCIES = ['RON', 'EUR', 'GBP', 'USD', 'HUF', 'BGN', 'PLN', 'CHF', 'MDL'] as const;
export type CurrencyCode = (typeof CURRENCIES)[number];

export const isCurrencyCode = (s: string): s is CurrencyCode => (CURRENCIES as readonly string[]).includes(s);

/** Money columns are numeric(12,2): amounts are kept to the cent in every currency (HUF too). */
export const MONEY_DECIMALS = 2;

/**
 * `x` with its decimal point moved `places` to the right, through its shortest decimal text, so
 * 1.005 (whose binary double is 1.00499999…) moves to 100.5 exactly, as the user typed it.
 */
function shiftDecimal(x: number, places: number): number {
  const [mantissa, exponent = '0'] = String(x).split('e');
  return Number(`${mantissa}e${Number(exponent) + places}`);
}

/**
 * Rounds to `decimals` places, half away from zero (0.125 → 0.13, −0.125 → −0.13, 2.675 → 2.68),
 * on the number's decimal value as written, not its binary approximation. Half away from zero, not
 * bankers': it is what PostgreSQL's numeric does (round(), and a cast to numeric(12,2)), what
 * Intl.NumberFormat does by default (halfExpand) and what a till prints, so a total the server
 * rounds, the database stores and the browser shows is the same cent.
 */
export function roundHalfAwayFromZero(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const abs = Math.abs(x);
  const scale = 10 ** decimals;
  const scaled = abs * scale;
  // Fast path, far from a tie: the product's binary error (< 1e-7 below 1e9) cannot cross the half.
  // n / 10^d is the double nearest n × 10^-d, as the decimal text would parse.
  if (scaled < 1e9 && Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
    return (Math.sign(x) * Math.round(scaled)) / scale + 0;
  }
  const rounded = Math.sign(x) * Math.round(shiftDecimal(abs, decimals));
  // `+ 0` turns −0 into 0.
  return shiftDecimal(rounded, -decimals) + 0;
}

/** An amount rounded to the cent (half away from zero). */
export const roundMoney = (amount: number): number => roundHalfAwayFromZero(amount, MONEY_DECIMALS);

/** A finite number as an exact decimal: digits × 10^-scale. */
function toDecimal(x: number): { digits: bigint; scale: number } {
  const [mantissa = '0', exponent = '0'] = String(x).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * `amount × rate`, rounded to the cent (half away from zero) on the exact decimal product:
 * 25,000 HUF × 0.0127 RON/HUF is 317.50 RON, not 317.49 from 317.49999999999994.
 */
export function convertMoney(amount: number, rate: number): number {
  if (!Number.isFinite(amount) || !Number.isFinite(rate)) return Number.NaN;
  // Fast path, far from a half cent: the binary product is within 1e-15 relative of the decimal one,
  // under 1e-6 of a cent below 10 million, so it rounds the same. Near a tie, the exact product decides.
  const approx = Math.abs(amount * rate) * 100;
  if (approx < 1e9 && Math.abs(approx - Math.floor(approx) - 0.5) > 1e-6) {
    return (Math.sign(amount * rate) * Math.round(approx)) / 100 + 0;
  }
  const a = toDecimal(amount);
  const r = toDecimal(rate);
  const product = a.digits * r.digits;
  const scale = a.scale + r.scale;
  if (scale <= MONEY_DECIMALS) return Number(`${product}e-${scale}`);
  const divisor = 10n ** BigInt(scale - MONEY_DECIMALS);
  const negative = product < 0n;
  const magnitude = negative ? -product : product;
  let cents = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) cents += 1n;
  const value = Number(`${cents}e-${MONEY_DECIMALS}`);
  return negative ? -value : value;
}

/**
 * The sign shown for a currency where Intl's own is not the one its users read. RON is `lei` in every
 * language: Intl writes `RON` in older ICU data (and in Romanian with the plain symbol), and `L` in
 * Spanish (also the lempira's sign); prices in Romania say `lei`.
 */
export const CURRENCY_SIGN_OVERRIDES: Readonly<Partial<Record<CurrencyCode, string>>> = { RON: 'lei' };

/** The options every money formatter is made with (the formatting test builds Intl's reference from them). */
export const moneyFormatOptions = (currency: CurrencyCode): Intl.NumberFormatOptions => ({
  style: 'currency',
  currency,
  // `€` and `£` in Romanian and Spanish rather than `EUR` and `GBP`.
  currencyDisplay: 'narrowSymbol',
  // −0.004 € is 0,00 €, not −0,00 €.
  signDisplay: 'negative',
});

const amountFormatters = new Map<string, (amount: number) => string>();

/**
 * An amount in a currency for a reader's language, as Intl.NumberFormat writes it (the browser's own
 * formatter: grouping, decimal sign, the sign's place, the currency's decimals), with the signs above:
 * `1.234,50 lei`, `1.234,50 €` (ro), `£1,234.50`, `$1,234.50` (en). HUF shows no decimals, as Intl
 * and Hungarian prices write it (`25.000 Ft`). Formatters are made once per language and currency
 * (making one costs far more than using it).
 */
export function formatAmount(amount: number, currency: CurrencyCode, language: string): string {
  const key = `${language}:${currency}`;
  let format = amountFormatters.get(key);
  if (!format) format = makeAmountFormatter(currency, language, key);
  return format(amount);
}

function makeAmountFormatter(currency: CurrencyCode, language: string, key: string) {
  const intl = new Intl.NumberFormat(language, moneyFormatOptions(currency));
  const sign = CURRENCY_SIGN_OVERRIDES[currency];
  // Intl's sign for this language, once: letters or a symbol, never a digit or a mark, so the first
  // occurrence in a formatted amount is the sign itself.
  const intlSign = intl.formatToParts(1).find((p) => p.type === 'currency')?.value;
  const format =
    sign && intlSign && intlSign !== sign
      ? (n: number) => intl.format(n).replace(intlSign, sign)
      : (n: number) => intl.format(n);
  amountFormatters.set(key, format);
  return format;
}
