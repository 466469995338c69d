import { describe, expect, it } from 'vitest';
import { brandFactor, type PricedVehicle, priceRating, ratingBand } from './marketplace.js';

// Estimate for this car: (15000 − 7000) × 1 + 100 × 10 + 300 × 2 + 5 × 100 + 0 = 10,100.
const car: PricedVehicle = {
  make: 'Skoda',
  year: 2010,
  engineSize: 2,
  odometer: 100_000,
  fuelType: 'PETROL',
  aiScore: 7,
};

describe('priceRating (spec §9)', () => {
  it('computes the estimate and lists every term with its amount', () => {
    const r = priceRating(10_100, car);
    expect(r.estimate).toBe(10_100);
    expect(r.difference).toBe(0);
    expect(r.factors).toEqual([
      { key: 'aiScore', input: 7, amount: 8000 },
      { key: 'brand', input: 1, amount: 0 },
      { key: 'age', input: 10, amount: 1000 },
      { key: 'engine', input: 2, amount: 600 },
      { key: 'km', input: 100_000, amount: 500 },
      { key: 'electric', input: 0, amount: 0 },
    ]);
    expect(r.factors.reduce((s, f) => s + f.amount, 0)).toBe(r.estimate);
  });

  it.each([
    [8000.01, 'Very High', 5],
    [8000, 'High', 4],
    [4000.01, 'High', 4],
    [4000, 'Fair', 3],
    [-1999.99, 'Fair', 3],
    [-2000, 'Low', 2],
    [-4999.99, 'Low', 2],
    [-5000, 'Very Low', 1],
    [-20_000, 'Very Low', 1],
  ])('difference %d is %s (level %d)', (difference, label, level) => {
    expect(ratingBand(difference)).toEqual([label, level]);
    const r = priceRating(10_100 + difference, car);
    expect(r).toMatchObject({ label, level, difference });
  });

  it('is N/A at level 0 without an AI score', () => {
    expect(priceRating(5000, { ...car, aiScore: null })).toEqual({
      label: 'N/A',
      level: 0,
      estimate: null,
      difference: null,
      factors: [],
    });
  });

  it('applies brand factors, the electric bonus, and no age or km terms beyond their bounds', () => {
    expect(brandFactor('Porsche')).toBe(1.5);
    expect(brandFactor('BMW')).toBe(1.5);
    expect(brandFactor('Mercedes-Benz')).toBe(1.5);
    expect(brandFactor('audi')).toBe(1.2);
    expect(brandFactor('Volkswagen')).toBe(1.2);
    expect(brandFactor(' Dacia ')).toBe(0.9);
    expect(brandFactor('Renault')).toBe(0.9);
    expect(brandFactor('Fiat')).toBe(0.9);
    expect(brandFactor('Tesla')).toBe(1);
    // (15000 − 8000) × 1.5 = 10,500; 1998 → 0; 0 L → 0; 250,000 km → 0; electric 1000.
    const r = priceRating(11_500, {
      make: 'Porsche',
      year: 1998,
      engineSize: 0,
      odometer: 250_000,
      fuelType: 'ELECTRIC',
      aiScore: 8,
    });
    expect(r.estimate).toBe(11_500);
    expect(r.factors.find((f) => f.key === 'brand')?.amount).toBe(3500);
    expect(r.factors.find((f) => f.key === 'electric')?.amount).toBe(1000);
    expect(r.label).toBe('Fair');
  });
});
