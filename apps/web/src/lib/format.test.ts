import { moneyFormatOptions } from '@evdra/domain';
import { describe, expect, it } from 'vitest';
import {
  currencySign,
  formatConsumption,
  formatDate,
  formatDistance,
  formatInt,
  formatMoney,
  formatMoneyWhole,
  formatNumber,
  formatPricePerVolume,
  formatVolume,
} from './format';

describe('formatMoney', () => {
  it("shows the € sign in the user's language, two decimals, never breakable inside", () => {
    expect(formatMoney(4678.88, 'en')).toBe('€4,678.88');
    // Romanian's default currency display is 'EUR': the sign is asked for.
    expect(formatMoney(10028.83, 'ro')).toBe('10.028,83\u00a0€');
    expect(formatMoney(4678.8, 'es')).toBe('4678,80\u00a0€');
    for (const lng of ['en', 'ro', 'es']) expect(formatMoney(1234567.5, lng)).not.toMatch(/ /);
  });
});

describe('numbers written out for en, ro and es', () => {
  // Halves that binary floats hold just under (1.005, 2.675), signs, zero, every group size, and
  // a deterministic spread of amounts, litres and odometers.
  const values = [0, -0, 0.125, 1.005, -1.005, 2.675, -0.001, 0.5, 999.995, 1234.5, -1234.5, 9999.999];
  for (let i = 1, x = 0.37; i <= 400; i++) {
    x = (x * 7919.31 + i * 13.7) % 2_000_000;
    values.push(Number(x.toFixed(i % 4)), -Number((x / 1000).toFixed(3)), Math.round(x));
  }
  values.push(1e14 + 0.5, 123_456_789_012.345, 1e-6, 3e-7, 1e21);

  it('gives what Intl gives, for money, decimals and whole numbers', () => {
    for (const lng of ['en', 'ro', 'es']) {
      const money = new Intl.NumberFormat(lng, {
        style: 'currency',
        currency: 'EUR',
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
      const fixed = (d: number) =>
        new Intl.NumberFormat(lng, { minimumFractionDigits: d, maximumFractionDigits: d });
      const whole = new Intl.NumberFormat(lng, { maximumFractionDigits: 0 });
      for (const v of values) {
        expect(formatMoney(v, lng), `${lng} money ${v}`).toBe(money.format(v));
        for (const d of [1, 2, 3])
          expect(formatNumber(v, lng, d), `${lng} ${d} ${v}`).toBe(fixed(d).format(v));
        expect(formatInt(v, lng), `${lng} int ${v}`).toBe(whole.format(v));
      }
    }
  });

  it('leaves other languages to Intl', () => {
    expect(formatMoney(1234.5, 'de')).toBe('1.234,50\u00a0€');
    expect(formatNumber(1234.5, 'fr')).toBe(
      new Intl.NumberFormat('fr', { minimumFractionDigits: 2 }).format(1234.5),
    );
  });
});

describe('formatDate', () => {
  it('writes the medium date of each language as Intl does, for every month', () => {
    expect(formatDate('2025-03-01', 'en')).toBe('Mar 1, 2025');
    expect(formatDate('2025-01-31', 'ro')).toBe('31 ian. 2025');
    expect(formatDate('2025-09-05', 'es')).toBe('5 sept 2025');
    for (const lng of ['en', 'ro', 'es']) {
      const intl = new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeZone: 'UTC' });
      for (let month = 0; month < 12; month++) {
        const iso = `2024-${String(month + 1).padStart(2, '0')}-${String(month + 9).padStart(2, '0')}`;
        expect(formatDate(iso, lng), `${lng} ${iso}`).toBe(intl.format(new Date(`${iso}T00:00:00Z`)));
      }
    }
  });

  it('keeps the day of a YYYY-MM-DD date in any time zone, and gives back what it cannot read', () => {
    expect(formatDate('2025-12-31T23:30:00-05:00', 'en')).toBe('Dec 31, 2025');
    expect(formatDate('not a date', 'en')).toBe('not a date');
    expect(formatDate('2025-02-03', 'de')).toBe('03.02.2025');
  });
});

describe("amounts in each currency and measures in the reader's units", () => {
  const CURRENCY_LIST = ['RON', 'EUR', 'GBP', 'USD', 'HUF', 'BGN', 'PLN', 'CHF', 'MDL'] as const;

  it('writes every currency as Intl does in en, ro and es, RON as lei', () => {
    for (const lng of ['en', 'ro', 'es']) {
      for (const currency of CURRENCY_LIST) {
        const intl = new Intl.NumberFormat(lng, { ...moneyFormatOptions(currency) });
        const sign = intl.formatToParts(1).find((p) => p.type === 'currency')?.value ?? '';
        for (const v of [0, 1234.5, 25000, 0.125, 99999.99]) {
          const expected = currency === 'RON' ? intl.format(v).replace(sign, 'lei') : intl.format(v);
          expect(formatMoney(v, lng, currency), `${lng} ${currency} ${v}`).toBe(expected);
        }
      }
    }
    expect(formatMoney(1234.5, 'ro', 'RON')).toBe('1.234,50\u00a0lei');
    expect(formatMoney(1234.5, 'en', 'GBP')).toBe('£1,234.50');
    expect(formatMoney(1234.5, 'en', 'USD')).toBe('$1,234.50');
  });

  it('gives chart axes whole amounts and labels the sign', () => {
    expect(formatMoneyWhole(1500, 'ro', 'RON')).toBe('1.500\u00a0lei');
    expect(formatMoneyWhole(1500, 'en', 'USD')).toBe('$1,500');
    expect(currencySign('RON', 'es')).toBe('lei');
    expect(currencySign('GBP', 'ro')).toBe('£');
  });

  it('shows distances, volumes and consumption in the chosen units; a charge keeps kWh', () => {
    expect(formatDistance(160934, 'mi', 'en')).toBe('100,000\u00a0mi');
    expect(formatDistance(19867, 'km', 'ro')).toBe('19.867\u00a0km');
    expect(formatVolume(37.85, 'USGAL', 'en')).toBe('10.00\u00a0gal');
    expect(formatVolume(39.75, 'L', 'ro')).toBe('39,75\u00a0L');
    expect(formatVolume(42.5, 'USGAL', 'en', true)).toBe('42.50\u00a0kWh');
    expect(formatConsumption(8.4, 'L_100KM', 'ro')).toBe('8,4\u00a0L/100\u00a0km');
    expect(formatConsumption(235.2145833 / 28, 'MPG_US', 'en')).toBe('28.0\u00a0mpg');
    expect(formatConsumption(100 / 12.3, 'KM_L', 'en')).toBe('12.3\u00a0km/L');
    expect(formatConsumption(15.2, 'MPG_US', 'en', true)).toBe('15.2\u00a0kWh/100\u00a0km');
    expect(formatConsumption(null, 'MPG_UK', 'en')).toBe('—');
    // $3.499 a US gallon is $0.9243… a litre, stored to 4 decimals: it reads back as typed.
    expect(formatPricePerVolume(0.9243, 'USD', 'USGAL', 'en')).toBe('$3.499/gal');
    expect(formatPricePerVolume(7.5, 'RON', 'L', 'ro')).toBe('7,500\u00a0lei/L');
  });
});
