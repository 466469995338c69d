import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  CURRENCY_SIGN_OVERRIDES,
  convertMoney,
  formatAmount,
  moneyFormatOptions,
  roundHalfAwayFromZero,
  roundMoney,
} from './money.js';
import { Currency } from './money-schemas.js';

const LANGUAGES = ['en', 'ro', 'es'] as const;
const NBSP = '\u00a0';

describe('roundMoney: half away from zero, on the decimal value as typed', () => {
  it('rounds a half cent away from zero, where bankers would round to even', () => {
    expect(roundMoney(0.125)).toBe(0.13); // bankers': 0.12
    expect(roundMoney(0.135)).toBe(0.14);
    expect(roundMoney(-0.125)).toBe(-0.13);
    expect(roundMoney(2.5 / 100)).toBe(0.03); // 0.025: bankers' 0.02
  });

  it('rounds what was typed, not its binary approximation', () => {
    // 1.005 and 2.675 are 1.00499… and 2.67499… in binary: x * 100 then Math.round gives 1.00 and 2.67.
    expect(Math.round(1.005 * 100) / 100).toBe(1);
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(roundMoney(-1.005)).toBe(-1.01);
    expect(roundMoney(1234.565)).toBe(1234.57);
  });

  it('leaves amounts already in cents alone, and below a half cent rounds down', () => {
    for (const v of [0, 0.01, 19.99, 250, 9_999_999_999.99]) expect(roundMoney(v)).toBe(v);
    expect(roundMoney(1.0049999)).toBe(1);
    expect(roundMoney(0.0000001)).toBe(0);
    expect(Object.is(roundMoney(-0.001), 0)).toBe(true); // no "-0,00"
  });

  it('rounds to other precisions the same way', () => {
    expect(roundHalfAwayFromZero(12344.5, 0)).toBe(12345);
    expect(roundHalfAwayFromZero(-12344.5, 0)).toBe(-12345);
    expect(roundHalfAwayFromZero(0.00005, 4)).toBe(0.0001);
    expect(roundHalfAwayFromZero(1e21, 2)).toBe(1e21);
  });
});

describe('convertMoney', () => {
  it('multiplies exactly before rounding to the cent', () => {
    // 350 HUF at 0.0127 RON/HUF is 4.445 RON exactly; in binary it is 4.444999…, which rounds to 4.44.
    expect(Math.round(350 * 0.0127 * 100) / 100).toBe(4.44);
    expect(convertMoney(350, 0.0127)).toBe(4.45);
    expect(convertMoney(1850, 0.0127)).toBe(23.5);
    expect(convertMoney(25_000, 0.0127)).toBe(317.5);
    expect(convertMoney(250, 0.201)).toBe(50.25);
    expect(convertMoney(100, 4.9713)).toBe(497.13);
    expect(convertMoney(1, 0.005)).toBe(0.01); // half a cent, away from zero
    expect(convertMoney(-1, 0.005)).toBe(-0.01);
    expect(convertMoney(12.34, 1)).toBe(12.34);
    expect(convertMoney(3, 2)).toBe(6);
  });

  it('agrees with exact decimal arithmetic for every amount to 1,000.00 at ECB-like rates', () => {
    // The reference: integers only. amount = k cents, rate = digits × 10^-scale.
    const exactCents = (k: number, rate: string) => {
      const [whole = '', fraction = ''] = rate.split('.');
      const product = BigInt(k) * BigInt(whole + fraction); // in 10^-(2 + scale)
      const divisor = 10n ** BigInt(fraction.length);
      return Number(product / divisor + ((product % divisor) * 2n >= divisor ? 1n : 0n));
    };
    let differ = 0;
    for (const rate of ['4.9713', '0.0127', '0.85553', '393.15', '0.2011', '1.9558', '0.012641231']) {
      for (let k = 0; k <= 100_000; k++) {
        if (convertMoney(k / 100, Number(rate)) !== exactCents(k, rate) / 100) differ++;
      }
    }
    expect(differ).toBe(0);
  });

  it('converting back with the inverse rate returns the amount to the cent', () => {
    const rate = 4.9713;
    for (const eur of [0.01, 1, 19.99, 250, 1234.5, 99_999.99]) {
      const ron = convertMoney(eur, rate);
      expect(convertMoney(ron, 1 / rate)).toBe(eur);
    }
  });

  it('gives NaN for a non-number, never a made-up amount', () => {
    expect(convertMoney(Number.NaN, 2)).toBeNaN();
    expect(convertMoney(2, Number.POSITIVE_INFINITY)).toBeNaN();
  });
});

describe('formatAmount', () => {
  it('writes the issue’s examples', () => {
    expect(formatAmount(1234.5, 'RON', 'ro')).toBe(`1.234,50${NBSP}lei`);
    expect(formatAmount(1234.5, 'EUR', 'ro')).toBe(`1.234,50${NBSP}€`);
    expect(formatAmount(1234.5, 'GBP', 'en')).toBe('£1,234.50');
    expect(formatAmount(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatAmount(25_000, 'HUF', 'ro')).toBe(`25.000${NBSP}Ft`);
  });

  it('is Intl.NumberFormat’s output for every currency in en, ro and es (RON: the lei sign in its place)', () => {
    const amounts = [0, 0.5, 1.005, 7.45, 1234.5, -1234.5, 25_000, 1_234_567.891];
    for (const language of LANGUAGES) {
      for (const currency of CURRENCIES) {
        const intl = new Intl.NumberFormat(language, moneyFormatOptions(currency));
        const sign = CURRENCY_SIGN_OVERRIDES[currency];
        for (const amount of amounts) {
          const reference = intl.formatToParts(amount);
          const expected = reference.map((p) => (p.type === 'currency' && sign ? sign : p.value)).join('');
          expect(formatAmount(amount, currency, language), `${language} ${currency} ${amount}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it('writes lei for RON in every language, whatever Intl calls it', () => {
    // Intl's own sign for RON: `RON` in older ICU data and with currencyDisplay "symbol", `L` in Spanish.
    const intlSigns = LANGUAGES.map((l) =>
      new Intl.NumberFormat(l, moneyFormatOptions('RON')).formatToParts(1).find((p) => p.type === 'currency'),
    );
    expect(intlSigns.map((p) => p?.value)).toContain('L');
    expect(new Intl.NumberFormat('ro', { style: 'currency', currency: 'RON' }).format(1234.5)).toBe(
      `1.234,50${NBSP}RON`,
    );
    expect(formatAmount(1234.5, 'RON', 'en')).toBe(`lei${NBSP}1,234.50`);
    expect(formatAmount(1234.5, 'RON', 'es')).toBe(`1234,50${NBSP}lei`);
    expect(formatAmount(-0.5, 'RON', 'ro')).toBe(`-0,50${NBSP}lei`);
  });

  it('rounds a half cent away from zero, as roundMoney does (every amount with 3 decimals to ±50)', () => {
    const intl = new Intl.NumberFormat('en', {
      maximumFractionDigits: 2,
      useGrouping: false,
      signDisplay: 'negative',
    });
    let differ = 0;
    for (let k = -50_000; k <= 50_000; k++) {
      const v = k / 1000;
      if (intl.format(v) !== intl.format(roundMoney(v)) || Number(intl.format(v)) !== roundMoney(v)) differ++;
    }
    expect(differ).toBe(0);
    expect(formatAmount(2.675, 'EUR', 'en')).toBe('€2.68');
    expect(formatAmount(-0.004, 'EUR', 'en')).toBe('€0.00');
    expect(formatAmount(-0.005, 'EUR', 'en')).toBe('-€0.01');
  });
});

describe('Currency (API enum)', () => {
  it('accepts the ISO codes the issue names and nothing else', () => {
    for (const c of ['RON', 'EUR', 'GBP', 'USD', 'HUF', 'BGN', 'PLN', 'CHF', 'MDL']) {
      expect(Currency.parse(c)).toBe(c);
    }
    for (const bad of ['ron', 'LEI', 'XYZ', '', 'EURO']) expect(Currency.safeParse(bad).success).toBe(false);
  });
});
