/** The fuel: diesel, petrol, LPG or electric, from the product's name on the receipt. */
import { anyOf } from '../lexicon/index.js';

const ELECTRIC = new RegExp(anyOf((l) => l.fuel.electric, '\\bKWH\\b'));
// Spaces optional: PaddleOCR prints "GPLAUTO", "SINPLOMO98".
const LPG = new RegExp(`\\b(${anyOf((l) => l.fuel.lpg)})(?=\\b|AUTO)|AUTOGAS`);
const DIESEL = new RegExp(anyOf((l) => l.fuel.diesel));
/** Petrol by its name, or by its octane as every country prints it ("SUPER 95", "RON 98"). */
const PETROL = new RegExp(anyOf((l) => l.fuel.petrol, 'SUPER ?9[58]', '\\bRON ?9[58]\\b'));

export function fuelType(text: string): { value: string; conf: number } | null {
  const norm = text.replace(/(?<=[A-Z]{2})0(?![\d.,])/g, 'O'); // "GASOLE0", "PL0MO": a zero for an O
  if (ELECTRIC.test(norm)) return { value: 'ELECTRIC', conf: 0.95 };
  if (LPG.test(norm)) return { value: 'GPL', conf: 0.95 };
  if (DIESEL.test(norm)) return { value: 'DIESEL', conf: 0.95 };
  if (PETROL.test(norm)) return { value: 'PETROL', conf: 0.9 };
  if (/\b9[58]\b/.test(norm)) return { value: 'PETROL', conf: 0.6 };
  return null;
}
