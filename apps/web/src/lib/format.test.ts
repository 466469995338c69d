import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';

describe('formatMoney', () => {
  it("shows the € sign in the user's language, two decimals, never breakable inside", () => {
    expect(formatMoney(4678.88, 'en')).toBe('€4,678.88');
    // Romanian's default currency display is 'EUR': the sign is asked for.
    expect(formatMoney(10028.83, 'ro')).toBe('10.028,83\u00a0€');
    expect(formatMoney(4678.8, 'es')).toBe('4678,80\u00a0€');
    for (const lng of ['en', 'ro', 'es']) expect(formatMoney(1234567.5, lng)).not.toMatch(/ /);
  });
});
