import { describe, expect, it } from 'vitest';
import { consumptionByEntry, type FillUp, odometerConflict } from './fuel.js';

const fill = (
  id: number,
  date: string,
  odometer: number | null,
  liters: number,
  extra: Partial<FillUp> = {},
): FillUp => ({
  id,
  date,
  odometer,
  liters,
  fullTank: true,
  missedPrevious: false,
  ...extra,
});

describe('consumptionByEntry (full tank to full tank)', () => {
  // Hand-computed: see the comment beside each expectation.
  const fills = [
    fill(1, '2025-01-01', 10000, 40), // first fill: null
    fill(2, '2025-01-10', 10500, 30), // 30 L / 500 km = 6.00
    fill(3, '2025-01-20', 10800, 10, { fullTank: false }), // partial: null
    fill(4, '2025-01-25', 11100, 25), // (10 + 25) L / 600 km = 5.83
    fill(5, '2025-02-05', 11900, 40, { missedPrevious: true }), // missed a fill-up: null, restarts here
    fill(6, '2025-02-15', 12400, 35), // 35 L / 500 km = 7.00
    fill(7, '2025-02-20', null, 20), // no odometer: null, chain broken
    fill(8, '2025-03-01', 13000, 30), // previous full fill had no odometer: null
    fill(9, '2025-03-10', 13600, 33), // 33 L / 600 km = 5.50
  ];

  it('computes each entry as a person with a calculator would', () => {
    const c = consumptionByEntry(fills);
    expect([...c.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v)).toEqual([
      null,
      6,
      null,
      5.83,
      null,
      7,
      null,
      null,
      5.5,
    ]);
  });

  it('does not depend on the order the entries arrive in', () => {
    const shuffled = [...fills].reverse();
    expect(consumptionByEntry(shuffled).get(4)).toBe(5.83);
  });
});

describe('odometerConflict', () => {
  const existing = [fill(1, '2025-01-01', 10000, 40), fill(2, '2025-02-01', 12000, 40)];
  it('refuses a reading below an earlier-dated one or above a later-dated one', () => {
    expect(odometerConflict(existing, { date: '2025-01-15', odometer: 9000 })?.kind).toBe('below-earlier');
    expect(odometerConflict(existing, { date: '2025-01-15', odometer: 13000 })?.kind).toBe('above-later');
    expect(odometerConflict(existing, { date: '2025-01-15', odometer: 11000 })).toBeUndefined();
    expect(odometerConflict(existing, { date: '2025-01-15', odometer: null })).toBeUndefined();
  });
  it('ignores the entry being edited', () => {
    expect(odometerConflict(existing, { id: 2, date: '2025-02-01', odometer: 9000 })?.entry.id).toBe(1);
    expect(odometerConflict(existing, { id: 1, date: '2025-01-01', odometer: 11000 })).toBeUndefined();
  });
});
