/** The fuel: diesel, petrol, LPG or electric, from the product's name on the receipt. */
export function fuelType(text: string): { value: string; conf: number } | null {
  const norm = text.replace(/(?<=[A-Z]{2})0(?![\d.,])/g, 'O'); // "GASOLE0", "PL0MO": a zero for an O
  if (/\bKWH\b|INCARCARE|RECARGA|CHARG|ELECTRIC/.test(norm)) return { value: 'ELECTRIC', conf: 0.95 };
  // Spaces optional: PaddleOCR prints "GPLAUTO", "SINPLOMO98".
  if (/\b(GPL|LPG|GLP)(?=\b|AUTO)|AUTOGAS/.test(norm)) return { value: 'GPL', conf: 0.95 };
  if (/MOTORINA|DIESEL|GASOLEO|GASOIL|\bDSL\b/.test(norm)) return { value: 'DIESEL', conf: 0.95 };
  if (/BENZINA|GASOLINA|UNLEADED|PETROL|SIN ?PLOMO|\bSP ?9[58]\b|SUPER ?9[58]|EFIX|\bRON ?9[58]\b/.test(norm))
    return { value: 'PETROL', conf: 0.9 };
  if (/\b9[58]\b/.test(norm)) return { value: 'PETROL', conf: 0.6 };
  return null;
}
