import { describe, expect, it } from 'vitest';
import { utcDays } from '../src/lib/utc-day.js';

const at = (iso: string) => new Date(iso).getTime();

describe('utcDays', () => {
  it('gives the UTC date of each time, across midnight, backwards and far apart', () => {
    const day = utcDays();
    const times = [
      '2026-03-10T00:00:00.000Z',
      '2026-03-10T23:59:59.999Z',
      '2026-03-11T00:00:00.000Z',
      '2026-03-10T12:00:00.000Z', // a test clock set back
      '2024-02-29T23:30:00.000Z',
      '1969-12-31T23:59:59.000Z', // before the epoch: floor, not truncation
      '2099-12-31T23:59:59.999Z',
    ];
    for (const iso of times) expect(day(at(iso)), iso).toBe(iso.slice(0, 10));
  });

  it('answers a time zone ahead of UTC by its UTC date', () => {
    const day = utcDays();
    expect(day(at('2026-03-11T01:30:00+03:00'))).toBe('2026-03-10');
  });
});
