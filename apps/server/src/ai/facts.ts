import type { CurrencyCode, FuelType, Language } from '@evdra/domain';
import type { ReaderUnits } from '../lib/reader-format.js';

/** One month of a vehicle's costs (from the vehicle_month_costs rollup). */
export type MonthCost = { month: string; fuel: number; liters: number; total: number };

/**
 * Everything the AI may say about one vehicle, computed by SQL from the owner's records
 * (FactsRepo). Every number in an AI answer comes from here.
 */
export type VehicleFacts = {
  vehicle: {
    id: number;
    make: string;
    model: string;
    year: number;
    fuelType: FuelType;
    engineSize: number;
    odometer: number;
    registrationNumber: string;
    aiEvaluationConsent: boolean;
  };
  /**
   * The currency every amount here is in: the reader's (FactsRepo converts the owner's amounts, each
   * record at its stored rate, at the day's reference rate, as the analytics do); the owner's, labelled
   * as such and never relabelled, when no rate to the reader's is known. Absent (facts built by hand): EUR.
   */
  currency?: CurrencyCode;
  /** The reading user's units, for the texts written from these metric facts. Absent: km, L, L/100 km. */
  units?: ReaderUnits;
  /** Today (YYYY-MM-DD) the facts were computed for. */
  today: string;
  ageYears: number;
  kmPerYear: number;
  records: { fuel: number; expenses: number; insurances: number; revisions: number; total: number };
  costs: {
    fuel: number;
    expenses: number;
    insurance: number;
    revisions: number;
    total: number;
    /** Kilometres between the lowest and highest odometer reading on record. */
    km: number;
    costPerKm: number | null;
    biggestCategory: { category: 'fuel' | 'expenses' | 'insurance' | 'revisions'; amount: number } | null;
    biggestMonth: { month: string; amount: number } | null;
    /** Monthly average of the last 3 months (this one included) and of the 12 before them. */
    last3MonthlyAvg: number;
    prev12MonthlyAvg: number;
    /** Months with any cost in the 12 before the last 3 (the average is over those 12). */
    prev12Months: number;
    largestExpense: { type: string; amount: number; date: string } | null;
    months: MonthCost[];
  };
  fuel: {
    fills: number;
    /** Litres (kWh for ELECTRIC) and money of every fill. */
    quantity: number;
    spent: number;
    /** Full-tank-to-full-tank consumption, L/100 km (kWh/100 km for ELECTRIC). */
    measured: number;
    avgConsumption: number | null;
    latest: { value: number; date: string } | null;
    best: { value: number; date: string } | null;
    worst: { value: number; date: string } | null;
    /** Average price per litre (kWh) of the last 3 fills and of the fills before them. */
    recentPricePerUnit: number | null;
    earlierPricePerUnit: number | null;
    /** What is normal for this fuel type and engine size, per 100 km. */
    typicalConsumption: number;
    /**
     * A two-fuel vehicle's fuels (issue 51), its primary first; absent for a single-fuel vehicle.
     * The odometer does not say which fuel drove which km: costPerKm is each fuel's money over every
     * km driven (they add up to the fuel's cost per km), avgConsumption the mean of its own chain's fills.
     */
    byFuel?: {
      fuelType: FuelType;
      fills: number;
      quantity: number;
      spent: number;
      avgConsumption: number | null;
      costPerKm: number | null;
    }[];
  };
  service: {
    count: number;
    last: { date: string; km: number } | null;
    avgIntervalKm: number | null;
    avgIntervalDays: number | null;
    next: { date: string; km: number; daysLeft: number; kmLeft: number } | null;
  };
  insurance: {
    count: number;
    current: { provider: string; endDate: string; daysLeft: number } | null;
    latest: { provider: string; endDate: string; daysLeft: number } | null;
    gaps: number;
  };
};

export type UserFacts = { language: Language; today: string; vehicles: VehicleFacts[] };

/** Typical consumption per 100 km: L for combustion engines, kg for CNG, kWh for ELECTRIC. */
export function typicalConsumption(fuelType: FuelType, engineSize: number): number {
  const litres = engineSize > 0 ? engineSize : 1.6;
  switch (fuelType) {
    case 'ELECTRIC':
      return 17;
    case 'DIESEL':
      return round1(3.4 + 1.2 * litres);
    case 'GPL':
      return round1((4.6 + 1.6 * litres) * 1.2);
    case 'CNG':
      // kg of natural gas: about two thirds of the petrol engine's litres.
      return round1((4.6 + 1.6 * litres) * 0.68);
    default:
      return round1(4.6 + 1.6 * litres);
  }
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;
