import type { CurrencyCode, FuelType } from '@evdra/domain';

/**
 * One rubric line as numbers: how many points it moved and what its sentence says, measures metric
 * (km, L/100 km) and money in the basis's currency. Kept with the score (vehicles.ai_score_basis), so
 * the sentence is written again for each reader, in their language, currency and units.
 */
export type BasisFactor =
  | { key: 'age'; delta: number; years: number }
  | { key: 'km'; delta: number; perYear: number }
  | { key: 'service'; delta: number; km: number; days: number }
  | { key: 'oneService'; delta: number; date: string }
  | { key: 'noService'; delta: number }
  | { key: 'consumption'; delta: number; avg: number; typical: number }
  | { key: 'insurance'; delta: number; gaps: number; covered: boolean }
  | { key: 'costPerKm'; delta: number; perKm: number };

/**
 * What a built-in evaluation's reason is made of (issue 50): the factors it shows, in order, and the
 * "few records" note. `currency`: the one the money is in (the evaluating reader's, as the facts were);
 * `fuelType`: the car's when evaluated (how its consumption is written: L, kWh, kg).
 */
export type EvaluationBasis = {
  v: 1;
  currency: CurrencyCode;
  fuelType: FuelType;
  factors: BasisFactor[];
  few: number | null;
};
