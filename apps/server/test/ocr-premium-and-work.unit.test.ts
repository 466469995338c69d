/**
 * Issue 55 §3, fifth pass: a policy's premium and a service invoice's work as tilted, badly lit
 * photos read them. Pure functions: no image.
 */
import { describe, expect, it } from 'vitest';
import { cutEnd } from '../src/ocr/fields/cut-end.js';
import { mendWords } from '../src/ocr/fields/description.js';
import { premiumAboveItsInstalments } from '../src/ocr/fields/premium-below.js';
import { totalOfPrintedVat } from '../src/ocr/fields/vat.js';
import { extractExpense } from '../src/ocr/kinds/expense.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { findDates } from '../src/ocr/text/dates.js';
import { toLines } from '../src/ocr/text/lines.js';

const lines = (text: string) => toLines(text.trim());

describe('a premium a tilt pushed below its label, among the instalments', () => {
  const policy = [
    'ALLIANZ-TIRIAC ASIGURARI S.A.',
    '3. Prima de asigurare   Total de plata',
    'Rata 1',
    'Rata 2',
    '2025-04-06   1093.96 RON',
    '4. Semnaturi   2025-07-06   546.98 RON',
    '546,98 RON',
  ].join('\n');

  it('is the amount the amounts after it add up to', () => {
    expect(extractInsurance(lines(policy)).fields.price).toBe(1093.96);
  });

  it('is nothing when no amount is the sum of those after it', () => {
    const l = lines('Total de plata\nRata 1\nRata 2\n1093.96 RON\n546.98 RON\n500,00 RON');
    expect(premiumAboveItsInstalments(l, 0)).toBeNull();
  });
});

describe('a short work word a letter off', () => {
  it('is mended when the other words are read right and one work word of their language is near', () => {
    expect(mendWords('Timing bolt kit')).toBe('Timing belt kit');
  });

  it('is mended once the word beside it was: a long word two letters off, then a short one', () => {
    expect(mendWords('Manteminiento amual')).toBe('Mantenimiento anual');
  });

  it('gets back a narrow letter a three-letter word lost', () => {
    expect(mendWords('Ful service')).toBe('Full service');
  });

  it('is left alone without other words to tell the language', () => {
    expect(mendWords('bolt')).toBe('bolt');
  });
});

describe('the parts row is not the work', () => {
  it('does not take "Recambios" (it holds "cambio") for the work done', () => {
    const invoice =
      'SERVICIO OFICIAL SEAT\nFecha: 09/07/25\nMano de obra   902,72\nRecambios   965,95\nIMPORTE TOTAL   2261,09';
    expect(extractRevision(lines(invoice)).fields.description).toBeNull();
  });

  it('still takes a work line naming a change', () => {
    const invoice =
      'TALLERES MARTINEZ S.L.\nCambio de aceite y filtros   120,00\nRecambios   65,95\nTOTAL 185,95';
    expect(extractRevision(lines(invoice)).fields.description).toBe('Cambio de aceite y filtros');
  });
});

describe('a total whose amounts a tilt moved a row', () => {
  it('is the amount whose VAT at the printed rate is on the receipt, printed twice', () => {
    const ticket =
      'ELEFANTE AZUL\nFecha 04.06.2025\nLavado completo\nIVA 21%   616,18\nTOTAL A PAGAR   106,94\nTARJETA   616,18 EUR\nVISA   616,18';
    expect(extractExpense(lines(ticket)).fields.amount).toBe(616.18);
  });

  it('reads the rate glued to its label ("IVA21%")', () => {
    const ticket =
      'TALLERES\nFecha: 02/04/2025   68.50\nReparacion embrague   11.89\nIVA21%   68,50 EUR\nTOTAL   120,00';
    expect(totalOfPrintedVat(lines(ticket), 120)).toBe(68.5);
  });

  it('leaves a total whose own VAT is printed, or another amount printed once', () => {
    expect(totalOfPrintedVat(lines('Lavado   50,00\nIVA 21%   8,68\nTOTAL   50,00'), 50)).toBeNull();
    expect(totalOfPrintedVat(lines('Lavado   50,00\nIVA 21%   8,68\nTOTAL   60,00'), 60)).toBeNull();
  });
});

describe('an end date cut short after its label', () => {
  it('is the end of a whole term from the start when its digits begin with that day and month', () => {
    const policy =
      'ALLIANZ SEGUROS\nEfecto: 26/03/2024   Vencimiento:250302\nRecibo 1   26/03/2024   1967.05';
    const read = extractInsurance(lines(policy)).fields;
    expect(read.startDate).toBe('2024-03-26');
    expect(read.endDate).toBe('2025-03-25');
    expect(cutEnd(lines('Vencimiento: 2509'), '2025-03-26')).toBe('2025-09-25');
  });

  it('is read after the start on its line when the end label is garbled too', () => {
    expect(cutEnd(lines('Efecto 12032025   Vem0mm1103V20s'), '2025-03-12')).toBe('2026-03-11');
  });

  it('is nothing when the digits name another day', () => {
    expect(cutEnd(lines('Vencimiento: 140302'), '2024-03-26')).toBeNull();
  });
});

describe('a long month name up to a letter in three off', () => {
  it('is read between a day and a year ("25 tebruane 2024")', () => {
    expect(findDates('SCADENTA 25 TEBRUANE 2024').map((d) => d.iso)).toEqual(['2024-02-25']);
  });

  it('gives the invoice date lost to noise from the due date less the term', () => {
    const invoice =
      'GARAJUL LUI ION SRL\nFactura nr.3265   Data 2o tamwanie 2024\nScadenta 25 tebruane 2024\nLucrare: Revizie anuala\nTotal factura   2426,20 LEI\nPlata in 30 de zile.';
    expect(extractRevision(lines(invoice)).fields.date).toBe('2024-01-26');
  });

  it('is no month when it is as near two months, or too far from any', () => {
    expect(findDates('25 TAMWANIE 2024')).toEqual([]);
  });
});
