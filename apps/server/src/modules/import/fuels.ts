/**
 * Which of the vehicle's fuels an imported fill lands in (issue 51): the fuel the file names when
 * the vehicle has it, else by tank (a second tank is the vehicle's second fuel), else the primary.
 * Fuelio names a tank's fuel by a code whose hundreds are the fuel (1xx petrol grades, 2xx diesel,
 * 300 LPG, 400 CNG, 500 electricity; 0 no second tank); Drivvo by its name in the phone's language.
 */
import type { FuelType } from '@evdra/domain';
import { normalize } from './locale.js';

/** The vehicle's fuels, as the import reads them. */
export type ImportFuels = { primary: FuelType; secondary: FuelType | null };

const FUELIO_CODES: Record<string, FuelType> = {
  '1': 'PETROL',
  '2': 'DIESEL',
  '3': 'GPL',
  '4': 'CNG',
  '5': 'ELECTRIC',
};

/** A Fuelio fuel code (`Tank1Type`, `Tank2Type`, a fill's `FuelType`): 110 → PETROL, 300 → GPL; 0 or junk → undefined. */
export function fuelioFuel(code: string): FuelType | undefined {
  const n = Number(code.trim());
  if (!Number.isInteger(n) || n < 100 || n >= 600) return undefined;
  return FUELIO_CODES[String(Math.floor(n / 100))];
}

/** A fuel's name as Drivvo (or a person) writes it, in any of the usual languages; undefined if not known. */
export function fuelOfName(name: string): FuelType | undefined {
  const n = normalize(name);
  if (!n) return undefined;
  if (/\b(lpg|gpl|glp|autogas|auto gas|propan[eo]?|gas licuado)\b/.test(n)) return 'GPL';
  if (/\b(cng|gnc|gnv|metan[oe]?|natural gas|gas natural|gaz natural)\b/.test(n)) return 'CNG';
  if (/(electric|eletric|electr|kwh|энерг|электр)/.test(n)) return 'ELECTRIC';
  if (/(diesel|gasoil|gasoleo|motorin|дизел|solarka)/.test(n)) return 'DIESEL';
  if (/(gasolin|petrol|benzin|ethanol|etanol|alcool|alcohol|unleaded|super|бенз|e10|e85|flex)/.test(n))
    return 'PETROL';
  return undefined;
}

/**
 * The fuel a fill lands in: `named` (from the file) when the vehicle has it; else tank 2 → the
 * second fuel; else the primary (a single-fuel vehicle takes every fill as before).
 */
export function landingFuel(v: ImportFuels, named: FuelType | undefined, tank?: number): FuelType {
  if (named && (named === v.primary || named === v.secondary)) return named;
  if (tank === 2 && v.secondary) return v.secondary;
  return v.primary;
}
