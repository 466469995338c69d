import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TYPES,
  DOCUMENT_TYPES_BY_COUNTRY,
  documentCountry,
  documentTypeLabel,
  isPrivateByDefault,
  renewalTypeOfDocument,
} from './document-types.js';

describe('document types', () => {
  it("are shown under their country's names, in every language", () => {
    expect(documentTypeLabel('REGISTRATION', 'RO', 'ro')).toBe('Certificat de înmatriculare (talon)');
    expect(documentTypeLabel('MTPL_INSURANCE', 'RO', 'ro')).toBe('RCA');
    expect(documentTypeLabel('INSPECTION', 'RO', 'en')).toBe('ITP (technical inspection)');
    expect(documentTypeLabel('VIGNETTE', 'RO', 'es')).toBe('Rovinietă (viñeta)');
    expect(documentTypeLabel('TECHNICAL_CARD', 'RO', 'ro')).toBe('Cartea de identitate a vehiculului (CIV)');
    expect(documentTypeLabel('REGISTRATION', 'ES', 'es')).toBe('Permiso de circulación');
    expect(documentTypeLabel('TECHNICAL_CARD', 'ES', 'es')).toBe('Ficha técnica');
    expect(documentTypeLabel('INSPECTION', 'ES', 'es')).toBe('ITV');
    expect(documentTypeLabel('ENV_LABEL', 'ES', 'es')).toBe('Etiqueta ambiental');
    expect(documentTypeLabel('MTPL_INSURANCE', 'GENERIC', 'en')).toBe('Liability insurance');
    for (const c of Object.keys(DOCUMENT_TYPES_BY_COUNTRY) as (keyof typeof DOCUMENT_TYPES_BY_COUNTRY)[])
      expect(DOCUMENT_TYPES_BY_COUNTRY[c].at(-1)).toBe('OTHER');
    expect(new Set(DOCUMENT_TYPES_BY_COUNTRY.GENERIC)).toEqual(new Set(DOCUMENT_TYPES));
  });

  it("make the country's renewal when they expire; the seller's ID-bearing papers are private by default", () => {
    expect(renewalTypeOfDocument('MTPL_INSURANCE', 'RO')).toBe('RCA');
    expect(renewalTypeOfDocument('MTPL_INSURANCE', 'ES')).toBe('SEGURO_OBLIGATORIO');
    expect(renewalTypeOfDocument('INSPECTION', 'ES')).toBe('ITV');
    expect(renewalTypeOfDocument('VIGNETTE', 'RO')).toBe('ROVINIETA');
    expect(renewalTypeOfDocument('WARRANTY', 'RO')).toBe('OTHER');
    expect(DOCUMENT_TYPES.filter(isPrivateByDefault)).toEqual([
      'REGISTRATION',
      'MTPL_INSURANCE',
      'CASCO',
      'PURCHASE_CONTRACT',
      'INVOICE',
    ]);
    expect(documentCountry(null, 'ro')).toBe('RO');
    expect(documentCountry('ES', 'en')).toBe('ES');
  });
});
