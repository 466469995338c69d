/**
 * The fuel the receipt sold, proposed as the fill's `fuelType`: a charge (kWh, a charger, a
 * charging station), CNG (GNC, GNV, sold by the kg), LPG (GPL, GLP, Autogas), diesel or petrol,
 * from the product's name, its unit or the station's words.
 */
import { anyOf } from '../lexicon/index.js';

/** A charge: a charging word, kWh, a price per kWh, a connector's name. */
const ELECTRIC = new RegExp(anyOf((l) => l.fuel.electric, '\\bKWH\\b', '\\bCHADEMO\\b', '\\bCCS ?2?\\b'));
/** CNG by its names, or a price per kilogram at the pump ("1,299 €/KG"). */
const CNG = new RegExp(anyOf((l) => l.fuel.cng, '(?<=[0-9] ?)KG\\s*[X*@×]', '\\/\\s*KG\\b'));
// Spaces optional: PaddleOCR prints "GPLAUTO", "SINPLOMO98".
const LPG = new RegExp(`\\b(${anyOf((l) => l.fuel.lpg)})(?=\\b|AUTO)|AUTO ?GAS`);
// "DlESEL", "Dtesel", "D1ESEL": its I misread.
const DIESEL = new RegExp(anyOf((l) => l.fuel.diesel, '\\bD[IL1T|!]ESEL\\b'));
/** Petrol by its name, or by its octane as every country prints it ("SUPER 95", "RON 98"). */
const PETROL = new RegExp(anyOf((l) => l.fuel.petrol, 'SUPER ?9[58]', '\\bRON ?9[58]\\b'));

export type ProposedFuel = 'ELECTRIC' | 'CNG' | 'GPL' | 'DIESEL' | 'PETROL';

export function fuelType(text: string): { value: ProposedFuel; conf: number } | null {
  const norm = text.replace(/(?<=[A-Z]{2})0(?![\d.,])/g, 'O'); // "GASOLE0", "PL0MO": a zero for an O
  if (ELECTRIC.test(norm)) return { value: 'ELECTRIC', conf: 0.95 };
  if (CNG.test(norm)) return { value: 'CNG', conf: 0.9 };
  if (LPG.test(norm)) return { value: 'GPL', conf: 0.95 };
  if (DIESEL.test(norm)) return { value: 'DIESEL', conf: 0.95 };
  if (PETROL.test(norm)) return { value: 'PETROL', conf: 0.9 };
  // An octane alone, not the first digits of an amount ("TOTAL 95.49").
  if (/(?<![\d.,])9[58](?![\d.,]?\d)/.test(norm)) return { value: 'PETROL', conf: 0.6 };
  return null;
}
