import { describe, expect, it } from 'vitest';
import {
  addDays,
  crossRate,
  type EuroRate,
  euroRateOn,
  exchangeRateOn,
  FX_MAX_CARRY_DAYS,
  RATE_SOURCES,
} from './fx.js';
import { convertMoney } from './money.js';
import { FxRateQuery, RateSource } from './money-schemas.js';

// ECB reference rates (units per euro) around Easter 2024: Good Friday 29 March and Easter Monday
// 1 April are TARGET holidays, with no rates; 9–10 March is a weekend.
const ecb = (date: string, rate: number): EuroRate => ({ date, rate, source: 'ECB' });
const HUF = [
  ecb('2024-03-07', 393.78),
  ecb('2024-03-08', 393.15),
  ecb('2024-03-11', 394.27),
  ecb('2024-03-28', 395.1),
  ecb('2024-04-02', 394.6),
];
const RON = [
  ecb('2024-03-07', 4.9713),
  ecb('2024-03-08', 4.9699),
  ecb('2024-03-11', 4.9708),
  ecb('2024-03-28', 4.9718),
  ecb('2024-04-02', 4.9689),
];

describe('euroRateOn: the previous business day that has a rate', () => {
  it('a business day gets its own rate, not carried', () => {
    expect(euroRateOn(RON, '2024-03-08')).toEqual({
      rate: 4.9699,
      date: '2024-03-08',
      source: 'ECB',
      carried: false,
    });
  });

  it('a Saturday and a Sunday get Friday’s, marked carried', () => {
    for (const day of ['2024-03-09', '2024-03-10']) {
      expect(euroRateOn(RON, day)).toEqual({
        rate: 4.9699,
        date: '2024-03-08',
        source: 'ECB',
        carried: true,
      });
    }
  });

  it('Good Friday to Easter Monday get Maundy Thursday’s; Tuesday its own', () => {
    for (const day of ['2024-03-29', '2024-03-30', '2024-03-31', '2024-04-01']) {
      expect(euroRateOn(HUF, day)?.date, day).toBe('2024-03-28');
      expect(euroRateOn(HUF, day)?.carried, day).toBe(true);
    }
    expect(euroRateOn(HUF, '2024-04-02')).toMatchObject({ date: '2024-04-02', carried: false });
  });

  it('looks back at most FX_MAX_CARRY_DAYS, and never forward', () => {
    expect(euroRateOn(RON, addDays('2024-04-02', FX_MAX_CARRY_DAYS))?.date).toBe('2024-04-02');
    expect(euroRateOn(RON, addDays('2024-04-02', FX_MAX_CARRY_DAYS + 1))).toBeUndefined();
    expect(euroRateOn(RON, '2024-03-06')).toBeUndefined(); // before the first rate
    expect(euroRateOn([], '2024-03-08')).toBeUndefined();
  });

  it('takes the ECB’s rate over a MANUAL one on the same day, and a newer MANUAL over an older ECB', () => {
    const mixed: EuroRate[] = [
      { date: '2024-03-08', rate: 5, source: 'MANUAL' },
      ecb('2024-03-08', 4.9699),
      ecb('2024-03-07', 4.9713),
      { date: '2024-03-11', rate: 4.97, source: 'MANUAL' },
    ];
    expect(euroRateOn(mixed, '2024-03-08')?.rate).toBe(4.9699);
    expect(euroRateOn(mixed, '2024-03-11')).toMatchObject({ rate: 4.97, source: 'MANUAL' });
  });

  it('ignores a rate of 0 or less', () => {
    expect(euroRateOn([ecb('2024-03-08', 0)], '2024-03-08')).toBeUndefined();
  });

  it('addDays crosses months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-01-03', -10)).toBe('2024-12-24');
  });
});

describe('cross rates through the euro', () => {
  it('HUF → RON is RON per euro over HUF per euro', () => {
    expect(crossRate(393.15, 4.9699)).toBe(Number((4.9699 / 393.15).toPrecision(10)));
    expect(crossRate(393.15, 4.9699)).toBeCloseTo(0.01264123108, 11);
    expect(crossRate(4.9699, 393.15)).toBeCloseTo(79.10621944, 7);
  });

  it('HUF → RON → HUF is off by at most half a RON cent’s worth of forints (totals convert from stored amounts)', () => {
    const there = crossRate(393.15, 4.9699);
    const back = crossRate(4.9699, 393.15);
    const halfCentInHuf = 0.005 * back + 0.005;
    for (const huf of [1, 250, 25_000, 1_234_567]) {
      expect(Math.abs(convertMoney(convertMoney(huf, there), back) - huf)).toBeLessThanOrEqual(halfCentInHuf);
    }
    expect(convertMoney(25_000, there)).toBe(316.03);
  });

  it('hides the binary noise of a division (10 significant digits)', () => {
    expect(0.3 / 0.1).toBe(2.9999999999999996);
    expect(crossRate(0.1, 0.3)).toBe(3);
  });
});

describe('exchangeRateOn', () => {
  const series = { from: HUF, to: RON };

  it('answers the issue’s example: HUF → RON on Saturday 9 March 2024, from Friday’s rates', () => {
    expect(exchangeRateOn({ from: 'HUF', to: 'RON' }, series, '2024-03-09')).toEqual({
      rate: crossRate(393.15, 4.9699),
      date: '2024-03-08',
      source: 'ECB',
      carried: true,
    });
  });

  it('EUR is 1 on every day: EUR → RON is the RON rate, RON → EUR its inverse', () => {
    expect(exchangeRateOn({ from: 'EUR', to: 'RON' }, { from: [], to: RON }, '2024-03-11')).toEqual({
      rate: 4.9708,
      date: '2024-03-11',
      source: 'ECB',
      carried: false,
    });
    expect(exchangeRateOn({ from: 'RON', to: 'EUR' }, { from: RON, to: [] }, '2024-03-11')?.rate).toBe(
      crossRate(4.9708, 1),
    );
  });

  it('a currency in itself is 1, with no rate published', () => {
    expect(exchangeRateOn({ from: 'MDL', to: 'MDL' }, { from: [], to: [] }, '2024-03-09')).toEqual({
      rate: 1,
      date: '2024-03-09',
      source: 'ECB',
      carried: false,
    });
  });

  it('none when either side has no rate (MDL: the ECB publishes none)', () => {
    expect(exchangeRateOn({ from: 'MDL', to: 'RON' }, { from: [], to: RON }, '2024-03-08')).toBeUndefined();
    expect(exchangeRateOn({ from: 'RON', to: 'MDL' }, { from: RON, to: [] }, '2024-03-08')).toBeUndefined();
  });

  it('with a MANUAL side: its source, and the older of the two days', () => {
    const mdl: EuroRate[] = [{ date: '2024-03-07', rate: 19.2, source: 'MANUAL' }];
    expect(exchangeRateOn({ from: 'MDL', to: 'RON' }, { from: mdl, to: RON }, '2024-03-08')).toEqual({
      rate: crossRate(19.2, 4.9699),
      date: '2024-03-07',
      source: 'MANUAL',
      carried: true,
    });
  });
});

describe('FX API schemas', () => {
  it('query: two known currencies and a real date (optional)', () => {
    expect(FxRateQuery.parse({ from: 'HUF', to: 'RON', date: '2024-03-09' })).toEqual({
      from: 'HUF',
      to: 'RON',
      date: '2024-03-09',
    });
    expect(FxRateQuery.safeParse({ from: 'HUF', to: 'RON' }).success).toBe(true);
    expect(FxRateQuery.safeParse({ from: 'XYZ', to: 'RON' }).success).toBe(false);
    expect(FxRateQuery.safeParse({ from: 'HUF', to: 'RON', date: '2024-02-30' }).success).toBe(false);
    expect(FxRateQuery.safeParse({ from: 'HUF', to: 'RON', date: '09.03.2024' }).success).toBe(false);
  });

  it('rate sources are the issue’s', () => {
    expect(RateSource.options).toEqual([...RATE_SOURCES]);
    expect(RATE_SOURCES).toEqual(['ECB', 'MANUAL', 'IMPORT', 'RECEIPT']);
  });
});
