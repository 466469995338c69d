import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';

describe('formatMoney', () => {
  it("shows the € sign in the user's language, two decimals, never breakable inside", () => {
    expect(formatMoney(4678.88, 'en')).toBe('€4,678.88');
    // Romanian's default currency display is 'EUR': the sign is asked for.
    expect(formatMoney(10028.83, 'ro')).toBe('10.028,83\u00a0€');
    expect(formatMoney(4678.8, 'es')).toBe('4678,80\u00a0€');
    for (const lng of ['en', 'ro', 'es']) expect(formatMoney(1234567.5, lng)).not.toMatch(/ /);
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
