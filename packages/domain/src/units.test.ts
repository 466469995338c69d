import { describe, expect, it } from 'vitest';
import { UnitOfConsumption, UnitOfDistance, UnitOfVolume } from './money-schemas.js';
import { EXISTING_USER_MONEY_AND_UNITS, moneyAndUnitsForCountry } from './preferences.js';
import {
  consumptionFromL100km,
  consumptionToL100km,
  distanceToKm,
  distanceToStored,
  formatConsumption,
  formatDistance,
  formatVolume,
  kmToDistance,
  litersToVolume,
  pricePerLiterToPerVolume,
  pricePerVolumeToPerLiter,
  pricePerVolumeToStored,
  storedToDistance,
  storedToPricePerVolume,
  storedToVolume,
  volumeToLiters,
  volumeToStored,
} from './units.js';

const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('exact factors', () => {
  it('a mile is 1.609344 km, a US gallon 3.785411784 L, a UK gallon 4.54609 L', () => {
    expect(distanceToKm(1, 'mi')).toBe(1.609344);
    expect(distanceToKm(250, 'km')).toBe(250);
    expect(volumeToLiters(1, 'USGAL')).toBe(3.785411784);
    expect(volumeToLiters(1, 'UKGAL')).toBe(4.54609);
    expect(volumeToLiters(40, 'L')).toBe(40);
    expect(kmToDistance(1.609344, 'mi')).toBe(1);
    expect(litersToVolume(4.54609, 'UKGAL')).toBe(1);
  });

  it('consumption: 235.21 / L/100 km is US MPG, 282.48 / it UK MPG, 100 / it km/L, both ways', () => {
    expect(consumptionFromL100km(8.4, 'L_100KM')).toBe(8.4);
    expect(consumptionFromL100km(5, 'KM_L')).toBe(20);
    expect(consumptionFromL100km(10, 'MPG_US')).toBeCloseTo(23.5215, 4);
    expect(consumptionFromL100km(10, 'MPG_UK')).toBeCloseTo(28.2481, 4);
    for (const unit of UnitOfConsumption.options) {
      for (const l100 of [3.2, 5.5, 8.4, 12.75, 25]) {
        const there = consumptionFromL100km(l100, unit) as number;
        expect(consumptionToL100km(there, unit)).toBeCloseTo(l100, 10);
      }
    }
  });

  it('has no consumption for 0 or less (never Infinity mpg)', () => {
    for (const unit of UnitOfConsumption.options) {
      expect(consumptionFromL100km(0, unit)).toBeUndefined();
      expect(consumptionToL100km(-3, unit)).toBeUndefined();
      expect(formatConsumption(0, unit, 'en')).toBe('–');
    }
  });

  it('a price per gallon is the price per litre times the litres in it', () => {
    expect(pricePerLiterToPerVolume(1, 'USGAL')).toBe(3.785411784);
    expect(pricePerVolumeToPerLiter(4.54609, 'UKGAL')).toBe(1);
  });
});

describe('typed in the reader’s units, stored metric, read back as typed', () => {
  it('the issue’s examples: 12345 mi, 10.5 gal', () => {
    expect(distanceToStored(12345, 'mi')).toBe(19867);
    expect(storedToDistance(19867, 'mi')).toBe(12345);
    expect(volumeToStored(10.5, 'USGAL')).toBe(39.75);
    expect(storedToVolume(39.75, 'USGAL')).toBe(10.5);
    expect(volumeToStored(10.5, 'UKGAL')).toBe(47.73);
    expect(storedToVolume(47.73, 'UKGAL')).toBe(10.5);
  });

  it('every whole mile up to 2,000,000 survives integer km', () => {
    let lost = 0;
    for (let mi = 0; mi <= 2_000_000; mi++)
      if (storedToDistance(distanceToStored(mi, 'mi'), 'mi') !== mi) lost++;
    expect(lost).toBe(0);
  });

  it('every gallon with two decimals up to 1,000 (US and UK) survives litres with two decimals', () => {
    for (const unit of ['USGAL', 'UKGAL'] as const) {
      let lost = 0;
      for (let cents = 0; cents <= 100_000; cents++) {
        const typed = cents / 100;
        if (storedToVolume(volumeToStored(typed, unit), unit) !== typed) lost++;
      }
      expect(lost, unit).toBe(0);
    }
  });

  it('km and litres are stored as typed (rounded to the column)', () => {
    expect(distanceToStored(123456, 'km')).toBe(123456);
    expect(storedToDistance(123456, 'km')).toBe(123456);
    expect(volumeToStored(42.37, 'L')).toBe(42.37);
    expect(storedToVolume(42.37, 'L')).toBe(42.37);
  });

  it('a price per gallon with 3 decimals needs 4 decimals per litre (the column has 3 today)', () => {
    const prices = Array.from({ length: 9001 }, (_, i) => (1000 + i) / 1000); // 1.000 … 10.000
    const survivesAt = (decimals: number) =>
      prices.filter((p) => {
        const perLiter = Number(pricePerVolumeToPerLiter(p, 'USGAL').toFixed(decimals));
        return storedToPricePerVolume(perLiter, 'USGAL') === p;
      }).length;
    expect(survivesAt(3)).toBeLessThan(prices.length / 2);
    for (const unit of ['USGAL', 'UKGAL'] as const) {
      expect(prices.every((p) => storedToPricePerVolume(pricePerVolumeToStored(p, unit), unit) === p)).toBe(
        true,
      );
    }
  });
});

describe('measures formatted for the reader', () => {
  it('writes the issue’s examples', () => {
    expect(plain(formatConsumption(8.4, 'L_100KM', 'ro'))).toBe('8,4 L/100 km');
    expect(plain(formatConsumption(8.4, 'L_100KM', 'es'))).toBe('8,4 L/100 km');
    // 28.0 mpg (US) is 8.4005 L/100 km: stored as 8.40, it reads 28.0 again.
    expect(plain(formatConsumption(8.4, 'MPG_US', 'en'))).toBe('28.0 mpg');
    expect(plain(formatConsumption(10, 'MPG_UK', 'en'))).toBe('28.2 mpg');
    expect(plain(formatConsumption(5, 'KM_L', 'ro'))).toBe('20,0 km/L');
  });

  it('keeps a number and its unit together (no-break spaces only)', () => {
    for (const s of [
      formatConsumption(8.4, 'L_100KM', 'ro'),
      formatDistance(19867, 'mi', 'en'),
      formatVolume(39.75, 'USGAL', 'en'),
    ]) {
      expect(s).not.toContain(' ');
    }
  });

  it('distances and volumes in the reader’s unit, with the language’s marks', () => {
    expect(plain(formatDistance(19867, 'mi', 'en'))).toBe('12,345 mi');
    expect(plain(formatDistance(19867, 'km', 'ro'))).toBe('19.867 km');
    expect(plain(formatDistance(19867, 'km', 'es'))).toBe('19.867 km');
    expect(plain(formatVolume(39.75, 'USGAL', 'en'))).toBe('10.50 gal');
    expect(plain(formatVolume(39.75, 'L', 'ro'))).toBe('39,75 L');
  });

  it('the numbers are Intl.NumberFormat’s, in every language and unit', () => {
    for (const language of ['en', 'ro', 'es']) {
      const one = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      const two = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      const whole = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
      for (const unit of UnitOfConsumption.options) {
        const value = consumptionFromL100km(6.35, unit) as number;
        expect(formatConsumption(6.35, unit, language).split('\u00a0')[0]).toBe(one.format(value));
      }
      for (const unit of UnitOfVolume.options) {
        expect(formatVolume(55.55, unit, language).split('\u00a0')[0]).toBe(
          two.format(litersToVolume(55.55, unit)),
        );
      }
      for (const unit of UnitOfDistance.options) {
        expect(formatDistance(123456, unit, language).split('\u00a0')[0]).toBe(
          whole.format(kmToDistance(123456, unit)),
        );
      }
    }
  });
});

describe('a new user’s currency and units by country', () => {
  it('follows the issue: RO, ES, GB, US, and EUR/km/L/L_100KM elsewhere', () => {
    expect(moneyAndUnitsForCountry('RO')).toEqual({
      currency: 'RON',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
    expect(moneyAndUnitsForCountry('ES')).toEqual({
      currency: 'EUR',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
    expect(moneyAndUnitsForCountry('GB')).toEqual({
      currency: 'GBP',
      distanceUnit: 'mi',
      volumeUnit: 'L',
      consumptionUnit: 'MPG_UK',
    });
    expect(moneyAndUnitsForCountry('US')).toEqual({
      currency: 'USD',
      distanceUnit: 'mi',
      volumeUnit: 'USGAL',
      consumptionUnit: 'MPG_US',
    });
    for (const other of ['GENERIC', 'DE', 'MD', '', 'toString', 'constructor']) {
      expect(moneyAndUnitsForCountry(other), other).toEqual(EXISTING_USER_MONEY_AND_UNITS);
    }
  });

  it('existing users keep EUR, km, L and L/100 km; a copy never changes the defaults', () => {
    expect(EXISTING_USER_MONEY_AND_UNITS).toEqual({
      currency: 'EUR',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
    const mine = moneyAndUnitsForCountry('RO');
    mine.currency = 'EUR';
    expect(moneyAndUnitsForCountry('RO').currency).toBe('RON');
  });

  it('the API enums are the issue’s names', () => {
    expect(UnitOfDistance.options).toEqual(['km', 'mi']);
    expect(UnitOfVolume.options).toEqual(['L', 'USGAL', 'UKGAL']);
    expect(UnitOfConsumption.options).toEqual(['L_100KM', 'KM_L', 'MPG_US', 'MPG_UK']);
    expect(UnitOfVolume.safeParse('l').success).toBe(false);
  });
});
