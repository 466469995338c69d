import type { CurrencyCode, FuelType, Language } from '@evdra/domain';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/ai/evaluate.js';
import type { VehicleFacts } from '../src/ai/facts.js';
import { isBasis, type ReasonReader, readReason } from '../src/ai/reasons.js';
import type { ReaderUnits } from '../src/lib/reader-format.js';

// Issue 50: a built-in evaluation keeps its basis, and the reason written from it for a reader is the
// reason the rubric writes for that reader: the basis loses nothing the sentences need.

const METRIC: ReaderUnits = { distanceUnit: 'km', volumeUnit: 'L', consumptionUnit: 'L_100KM' };
const IMPERIAL: ReaderUnits = { distanceUnit: 'mi', volumeUnit: 'UKGAL', consumptionUnit: 'MPG_UK' };
const US: ReaderUnits = { distanceUnit: 'mi', volumeUnit: 'USGAL', consumptionUnit: 'MPG_US' };

/** Facts as FactsRepo hands them to a reader: amounts in `currency`, the reader's units. */
function facts(
  over: Partial<VehicleFacts> & { fuelType?: FuelType },
  currency: CurrencyCode,
  units: ReaderUnits,
): VehicleFacts {
  const { fuelType = 'PETROL', ...rest } = over;
  return {
    vehicle: {
      id: 1,
      make: 'Dacia',
      model: 'Logan',
      year: 2012,
      fuelType,
      engineSize: 1.4,
      odometer: 210_000,
      registrationNumber: 'B-1',
      aiEvaluationConsent: true,
    },
    currency,
    units,
    today: '2026-11-29',
    ageYears: 14,
    kmPerYear: 15_000,
    records: { fuel: 6, expenses: 1, insurances: 2, revisions: 3, total: 12 },
    costs: {
      fuel: 2400,
      expenses: 300,
      insurance: 1200,
      revisions: 2100,
      total: 6000,
      km: 24_000,
      costPerKm: 0.25,
      biggestCategory: { category: 'fuel', amount: 2400 },
      biggestMonth: null,
      last3MonthlyAvg: 0,
      prev12MonthlyAvg: 0,
      prev12Months: 0,
      largestExpense: null,
      months: [],
    },
    fuel: {
      fills: 6,
      quantity: 300,
      spent: 2400,
      measured: 5,
      avgConsumption: 9.4,
      latest: null,
      best: null,
      worst: null,
      recentPricePerUnit: null,
      earlierPricePerUnit: null,
      typicalConsumption: 6.8,
      ...(fuelType === 'ELECTRIC' ? { avgConsumption: 21.5, typicalConsumption: 17 } : {}),
    },
    service: {
      count: 3,
      last: { date: '2026-03-01', km: 205_000 },
      avgIntervalKm: 18_500,
      avgIntervalDays: 480,
      next: null,
    },
    insurance: { count: 2, current: null, latest: null, gaps: 1 },
    ...rest,
  };
}

/** Any white space (Intl's narrow and non-breaking spaces included) as one space. */
const spaced = (s: string | null) => (s ?? '').replace(/[\s\u00a0\u202f]+/g, ' ');

const reader = (language: Language, currency: CurrencyCode, units: ReaderUnits): ReasonReader => ({
  language,
  currency,
  ...units,
});

const VARIANTS: [string, Partial<VehicleFacts> & { fuelType?: FuelType }][] = [
  ['every factor', {}],
  [
    'one service',
    {
      service: {
        count: 1,
        last: { date: '2026-03-01', km: 205_000 },
        avgIntervalKm: null,
        avgIntervalDays: null,
        next: null,
      },
    },
  ],
  [
    'no service, few records',
    {
      service: { count: 0, last: null, avgIntervalKm: null, avgIntervalDays: null, next: null },
      records: { fuel: 2, expenses: 0, insurances: 1, revisions: 0, total: 3 },
    },
  ],
  ['an electric car', { fuelType: 'ELECTRIC' }],
  [
    'a cheap young car',
    { ageYears: 2, kmPerYear: 8000, costs: { ...facts({}, 'EUR', METRIC).costs, costPerKm: 0.12 } },
  ],
];

describe('an evaluation reason written again from its basis', () => {
  for (const [name, variant] of VARIANTS) {
    it(`reads as the rubric writes it for each reader: ${name}`, () => {
      // Evaluated by a Romanian owner in lei, metric.
      const evaluated = evaluate(facts(variant, 'RON', METRIC), 'ro');
      expect(isBasis(evaluated.basis)).toBe(true);
      // The stored form is JSON.
      const basis = JSON.parse(JSON.stringify(evaluated.basis));
      expect(readReason(evaluated.reason, basis, reader('ro', 'RON', METRIC))).toBe(evaluated.reason);
      for (const language of ['en', 'ro', 'es'] as const)
        for (const units of [METRIC, IMPERIAL, US]) {
          // Same money: the rubric's own text for that reader.
          expect(readReason(evaluated.reason, basis, reader(language, 'RON', units))).toBe(
            evaluate(facts(variant, 'RON', units), language).reason,
          );
        }
    });
  }

  /** Older (−1), serviced regularly (+1), expensive to run (−0.5): 2.345 lei a km in the basis. */
  const expensive = () =>
    evaluate(
      facts(
        {
          fuel: { ...facts({}, 'RON', METRIC).fuel, avgConsumption: 6.9 },
          service: { count: 3, last: null, avgIntervalKm: 12_000, avgIntervalDays: 365, next: null },
          insurance: { count: 0, current: null, latest: null, gaps: 0 },
          costs: { ...facts({}, 'RON', METRIC).costs, costPerKm: 2.345 },
        },
        'RON',
        METRIC,
      ),
      'ro',
    );

  it('converts the money at the rate given, as the facts convert a cost per km (3 decimals)', () => {
    const evaluated = expensive();
    expect(spaced(evaluated.reason)).toContain('Costă 2,35 lei pe km (scumpă de întreținut).');
    // 2.345 lei at 0.2 € a leu: 0.469 € a km; per mile 0.755 €. The judgement stays the basis's.
    const rates = new Map<CurrencyCode, number>([['RON', 0.2]]);
    expect(spaced(readReason(evaluated.reason, evaluated.basis, reader('en', 'EUR', METRIC), rates))).toBe(
      'Older car: 14 years old. Serviced every 12,000 km on average (every 365 days), regularly. Costs €0.47 per km (expensive to run).',
    );
    expect(spaced(readReason(evaluated.reason, evaluated.basis, reader('es', 'EUR', IMPERIAL), rates))).toBe(
      'Coche más antiguo: 14 años. Mantenimiento cada 7456 mi de media (cada 365 días), con regularidad. Cuesta 0,75 € por mi (caro de mantener).',
    );
  });

  it('keeps the money in its own currency, labelled, when no rate to the reader’s is known', () => {
    const evaluated = expensive();
    const text = readReason(evaluated.reason, evaluated.basis, reader('en', 'USD', METRIC), new Map());
    expect(spaced(text)).toContain('Costs lei 2.35 per km (expensive to run).');
    expect(text).not.toContain('$');
  });

  it('reads a reason without a usable basis as stored', () => {
    const stored = 'Bine întreținută.';
    const en = reader('en', 'EUR', METRIC);
    const { basis } = evaluate(facts({}, 'RON', METRIC), 'ro');
    expect(readReason(stored, null, en)).toBe(stored);
    expect(readReason(null, null, en)).toBeNull();
    expect(readReason(stored, { ...basis, v: 2 }, en)).toBe(stored);
    expect(readReason(stored, { ...basis, factors: [{ key: 'weather', delta: 1 }] }, en)).toBe(stored);
    expect(readReason(stored, { ...basis, currency: 'XXX' }, en)).toBe(stored);
    expect(readReason(stored, 'text', en)).toBe(stored);
  });
});
