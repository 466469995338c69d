import { describe, expect, it } from 'vitest';
import {
  countryOfLanguage,
  itpPeriodYears,
  itvPeriodYears,
  RENEWAL_TYPES_BY_COUNTRY,
  RenewalBody,
  rovinietaValidUntil,
  suggestNextItp,
  suggestNextItv,
} from './renewals.js';

describe('ITP (Romania, RNTR 1 / Ordinul MT 2133/2005, Anexa 1: M1 every 2 years, yearly after 12 years)', () => {
  it('is every 2 years for a car up to 12 years old', () => {
    expect(itpPeriodYears(2018, '2025-03-10')).toBe(2);
    expect(suggestNextItp(2018, '2025-03-10')).toBe('2027-03-10');
  });
  it('is every year once the car is 12 years old', () => {
    expect(itpPeriodYears(2013, '2025-03-10')).toBe(1);
    expect(suggestNextItp(2010, '2025-03-10')).toBe('2026-03-10');
  });
  it('keeps the end of February on a leap day', () => {
    expect(suggestNextItp(2000, '2024-02-29')).toBe('2025-02-28');
  });
});

describe('ITV (Spain, Real Decreto 920/2017, Anexo I: exempt 4 years, every 2 years to 10, then yearly)', () => {
  it('is not due in the first 4 years: first due at 4 years', () => {
    expect(itvPeriodYears(2023, '2025-06-01')).toBe('none');
    expect(suggestNextItv(2023, '2025-06-01')).toBe('2027-01-01');
  });
  it('is every 2 years from 4 to 10 years old', () => {
    expect(itvPeriodYears(2019, '2025-06-01')).toBe(2);
    expect(suggestNextItv(2019, '2025-06-01')).toBe('2027-06-01');
    expect(itvPeriodYears(2015, '2025-06-01')).toBe(2);
  });
  it('is every year after 10 years old', () => {
    expect(itvPeriodYears(2014, '2025-06-01')).toBe(1);
    expect(suggestNextItv(2014, '2025-06-01')).toBe('2026-06-01');
  });
});

describe('renewal presets', () => {
  it('follow the country, default from the language, and always offer Other', () => {
    expect(countryOfLanguage('ro')).toBe('RO');
    expect(countryOfLanguage('es')).toBe('ES');
    expect(countryOfLanguage('en')).toBe('GENERIC');
    expect(RENEWAL_TYPES_BY_COUNTRY.RO).toEqual(['RCA', 'CASCO', 'ITP', 'ROVINIETA', 'OTHER']);
    expect(RENEWAL_TYPES_BY_COUNTRY.ES).toEqual(['SEGURO_OBLIGATORIO', 'ITV', 'IVTM', 'OTHER']);
    for (const list of Object.values(RENEWAL_TYPES_BY_COUNTRY)) expect(list.at(-1)).toBe('OTHER');
  });
  it('reject an end before the start', () => {
    const r = RenewalBody.safeParse({ type: 'RCA', validFrom: '2025-02-01', validUntil: '2025-01-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['validUntil']);
  });
});

describe('rovinietă (Romania: 1 day to 12 months, both ends included)', () => {
  it('ends on the last day of its period', () => {
    expect(rovinietaValidUntil('2025-03-10', '1d')).toBe('2025-03-10');
    expect(rovinietaValidUntil('2025-03-10', '7d')).toBe('2025-03-16');
    expect(rovinietaValidUntil('2025-03-10', '10d')).toBe('2025-03-19');
    expect(rovinietaValidUntil('2025-12-20', '30d')).toBe('2026-01-18');
    expect(rovinietaValidUntil('2025-01-01', '90d')).toBe('2025-03-31');
    expect(rovinietaValidUntil('2025-03-01', '12m')).toBe('2026-02-28');
    expect(rovinietaValidUntil('2024-02-29', '12m')).toBe('2025-02-28');
  });
});
