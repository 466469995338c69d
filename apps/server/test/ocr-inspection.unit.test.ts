import { describe, expect, it } from 'vitest';
import { readInspectionExpiry } from '../src/ocr/kinds/inspection.js';
import { toLines } from '../src/ocr/text/lines.js';

// Issue 52: an ITP / ITV certificate proposes its expiry (the document form fills it; nothing saved).
const read = (text: string) => readInspectionExpiry(toLines(text.trim()));

describe('the inspection reader', () => {
  it('reads a Romanian ITP certificate: the date after "Valabil până la", not the inspection date', () => {
    expect(
      read(`
REGISTRUL AUTO ROMAN
CERTIFICAT DE INSPECTIE TEHNICA PERIODICA
Nr. inmatriculare: B 123 ABC
Data inspectiei: 14.05.2025
Valabil până la: 13.05.2027
`),
    ).toEqual({ expiresOn: '2027-05-13', confidence: 0.9 });
  });

  it('reads "Data expirării" with the date on the line below, and "valabilă până" without accents', () => {
    expect(
      read(`
Data efectuarii 02/03/2026
Data expirării
02/03/2027
`),
    ).toEqual({ expiresOn: '2027-03-02', confidence: 0.7 });
    expect(read('ITP efectuat 10.01.2026 - VALABILA PANA LA 09.01.2028').expiresOn).toBe('2028-01-09');
  });

  it('reads a Spanish ITV: "Próxima inspección" and "Válido hasta"; the latest stamp of a ficha técnica wins', () => {
    expect(
      read(`
ESTACION ITV 4601
Fecha inspección: 20/06/2025
Resultado: FAVORABLE
Próxima inspección: 20/06/2026
`),
    ).toEqual({ expiresOn: '2026-06-20', confidence: 0.9 });
    expect(read('Informe ITV\nVálido hasta 15 de marzo de 2027').expiresOn).toBe('2027-03-15');
    expect(
      read(`
Fecha de caducidad: 01/02/2024
Fecha de caducidad: 01/02/2026
`).expiresOn,
    ).toBe('2026-02-01');
  });

  it('proposes nothing when no date carries an expiry label (never a guess)', () => {
    expect(read('Fecha inspección: 20/06/2025\nMatrícula 1234 ABC')).toEqual({
      expiresOn: null,
      confidence: 0,
    });
  });
});
