/**
 * The extraction rules added for photographed receipts (issue 20), each on a short excerpt written
 * the way the OCR reads such receipts: with tesseract's spacing and with PaddleOCR's, which drops
 * spaces. Pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { instalmentsSum, isWholeMonths, netAndVat, yearLater } from '../src/ocr/consistency.js';
import {
  extractExpense,
  extractFuel,
  extractInsurance,
  extractRevision,
  policyNumber,
  policyNumberBelow,
} from '../src/ocr/extract.js';
import { headingsOf, tableValues } from '../src/ocr/layout.js';
import { allowedClasses, boxesFromProbMap, ctcDecode, groupLines } from '../src/ocr/paddle-core.js';
import { parseNumber, toLines } from '../src/ocr/parse.js';

const lines = (text: string) => toLines(text.trim());
/** The same receipt as PaddleOCR may print it: spaces around labels, colons and units gone. */
const squeezed = (text: string) => text.replace(/(?<=[:@x])\s+|\s+(?=[@x/]|Litres|L\b)/g, '');

describe('fuel: litres and price per litre on one line', () => {
  const receipt = `
SHELL WOODFORD
Date: 14/03/2025 10:12
Pump 4 Unleaded
41.27 Litres @1.739 /L
TOTAL            71.77
CARD             71.77`;

  it.each([
    ['as tesseract spaces it', receipt],
    ['without spaces', squeezed(receipt)],
  ])('reads 41.27 litres at 1.739 %s, and says the three agree', (_, text) => {
    const r = extractFuel(lines(text));
    expect(r.fields).toMatchObject({
      liters: 41.27,
      pricePerLiter: 1.739,
      fuelPrice: 71.77,
      date: '2025-03-14',
    });
    expect(r.confidence.liters).toBeGreaterThanOrEqual(0.95);
    expect(r.warnings).toEqual([]);
  });

  it('reads "20,08 LITRI x 7,48 LEI/L" and "12.5 LTR X 1.60"', () => {
    expect(extractFuel(lines('20,08 LITRI x 7,48 LEI/L\nTOTAL LEI 150,20')).fields).toMatchObject({
      liters: 20.08,
      pricePerLiter: 7.48,
    });
    expect(extractFuel(lines('12.5 LTR X 1.60\nTOTAL 20.00')).fields).toMatchObject({
      liters: 12.5,
      pricePerLiter: 1.6,
    });
  });

  it('warns when litres × price per litre is not the total, and only then', () => {
    const bad = extractFuel(lines('41.27 Litres @1.739 /L\nTOTAL 81.77'));
    expect(bad.warnings.map((w) => w.code)).toEqual(['TOTAL_MISMATCH']);
    expect(bad.confidence.fuelPrice).toBeLessThan(0.75);
  });
});

describe('fuel: a table under its column headings', () => {
  it('finds the headings in order, with or without spaces', () => {
    expect(headingsOf('LITROS   PRECIO/L   IMPORTE')).toEqual(['qty', 'ppl', 'amount']);
    expect(headingsOf('PRET/L CANTITATE VALOARE')).toEqual(['ppl', 'qty', 'amount']);
    expect(headingsOf('TOTAL 12,00')).toBeNull();
  });

  it('takes litres, price per litre and amount from the row under "Litros / Precio/L / Importe"', () => {
    const r = extractFuel(
      lines(`
GASOLINERA REPSOL
Fecha: 03/02/2025
Producto: Gasoleo A
Litros   Precio/L   Importe
45,67   1,459   66,63
Pago con tarjeta`),
    );
    expect(r.fields).toMatchObject({
      liters: 45.67,
      pricePerLiter: 1.459,
      fuelPrice: 66.63,
      fuelType: 'DIESEL',
    });
    expect(r.warnings).toEqual([]);
  });

  it('puts each number under the heading above it when the words have boxes', () => {
    const w = (text: string, x: number, y: number) => ({ text, box: { x, y, w: 80, h: 20 } });
    const ls = lines('Cantitate   Pret/L   Valoare\n7,48   20,08   150,20');
    const [head, row] = ls;
    if (!head || !row) throw new Error('two lines');
    head.words = [w('Pret/L', 0, 0), w('Cantitate', 200, 0), w('Valoare', 400, 0)];
    row.words = [w('7,48', 0, 30), w('20,08', 200, 30), w('150,20', 400, 30)];
    expect(tableValues(ls)).toEqual([
      { column: 'ppl', value: 7.48, conf: 1 },
      { column: 'qty', value: 20.08, conf: 1 },
      { column: 'amount', value: 150.2, conf: 1 },
    ]);
  });
});

describe('the odometer', () => {
  it('reads km after a label in the middle of a line, not the next service', () => {
    const r = extractRevision(
      lines(`
Vehicle: Ford Focus   Mileage: 45,210
Next service at 60,000 km
Date: 12/05/2025`),
    );
    expect(r.fields.km).toBe(45210);
  });

  it('reads "Kilometraje:123.456km" and a reading written only with its unit', () => {
    expect(extractRevision(lines('Kilometraje:123.456km')).fields.km).toBe(123456);
    expect(
      extractRevision(lines('Matricula B-123-ABC\n98 500 km\nProximo cambio 113 500 km')).fields.km,
    ).toBe(98500);
  });

  it('does not take the date after the label for the reading', () => {
    expect(extractRevision(lines('KM: 87.412   Data: 14.03.2025')).fields.km).toBe(87412);
  });
});

describe('the service date', () => {
  it('takes the invoice date, not the next service or the registration date', () => {
    const r = extractRevision(
      lines(`
Prima inmatriculare: 11.02.2019
Data urmatoarei revizii: 14.03.2026
Factura nr. 4411   Data: 14.03.2025
Schimb ulei si filtre`),
    );
    expect(r.fields.date).toBe('2025-03-14');
  });

  it('reads a year whose 0 the OCR took for an O', () => {
    expect(extractExpense(lines('Fecha: 14/03/2O25\nTOTAL 12,00')).fields.date).toBe('2025-03-14');
  });
});

describe('net + VAT = total', () => {
  it('finds one net and one VAT amount, not a VAT number', () => {
    expect(netAndVat(lines('VAT No: GB 220 4481 97\nSubtotal 100.00\nVAT 20% 20.00\nTOTAL 120.00'))).toEqual({
      net: 100,
      vat: 20,
    });
  });

  it('prefers the total that is net + VAT, and says it agrees', () => {
    const r = extractRevision(
      lines(`
Base imponible   200,00
IVA 21%   42,00
TOTAL   242,00
Entregado   250,00`),
    );
    expect(r.fields.price).toBe(242);
    expect(r.confidence.price).toBeGreaterThanOrEqual(0.95);
    expect(r.warnings).toEqual([]);
  });

  it('warns when no total is net + VAT', () => {
    const r = extractExpense(lines('Baza 100,00\nTVA 19% 19,00\nTOTAL DE PLATA 191,00'));
    expect(r.warnings.map((w) => w.code)).toEqual(['VAT_MISMATCH']);
    expect(r.confidence.amount).toBeLessThan(0.75);
  });
});

describe('insurance: the premium', () => {
  it('is not an instalment nor a year', () => {
    const r = extractInsurance(
      lines(`
ALLIANZ-TIRIAC ASIGURARI
Prima de asigurare 2025
1.234,56 lei
Rata 1: 308,64 lei
Rata 2: 308,64 lei
Rata 3: 308,64 lei
Rata 4: 308,64 lei`),
    );
    expect(r.fields.price).toBe(1234.56);
    expect(r.confidence.price).toBeGreaterThanOrEqual(0.95);
    expect(r.warnings).toEqual([]);
  });

  it('prefers the annual premium the instalments add up to', () => {
    const r = extractInsurance(
      lines('Premium: 52.10\nTotal premium 625.20\n12 monthly instalments of 52.10'),
    );
    expect(r.fields.price).toBe(625.2);
  });

  it('warns when the instalments do not add up to the premium', () => {
    const r = extractInsurance(lines('Prima total: 900,00 EUR\nRecibo 1: 300,00\nRecibo 2: 300,00'));
    expect(r.warnings.map((w) => w.code)).toEqual(['INSTALMENTS_MISMATCH']);
  });

  it('reads an amount whose decimal comma the OCR took for a point ("2.040.81")', () => {
    expect(parseNumber('2.040.81', 'money')).toBe(2040.81);
    expect(parseNumber('1.234.567', 'money')).toBe(1234567);
    const r = extractInsurance(lines('Prima totala 4.081,62 RON\nRata 1 2.040.81 RON\nRata 2 2040.81 RON'));
    expect(r.fields.price).toBe(4081.62);
    expect(r.warnings).toEqual([]);
  });

  it('sums instalment lines or multiplies "4 x"', () => {
    expect(instalmentsSum(lines('Rata 1: 10,00\nRata 2: 10,50'))).toBe(20.5);
    expect(instalmentsSum(lines('Plata in 4 rate x 308,64 lei'))).toBe(1234.56);
  });
});

describe('insurance: the policy number', () => {
  it.each([
    ['Nr. 123456789', '123456789'],
    ['Nº 0012345678', '0012345678'],
    ['N° póliza: ES-884512', 'ES-884512'],
    ['Póliza 884512/03', '884512/03'],
    ['Póliza:884512', '884512'],
    ['Policy No.DL-4471-2231', 'DL-4471-2231'],
    ['Numar polita: 3301442', '3301442'],
    // The OCR's "nº" as "n?" and "ó" as "6", run together.
    ['Polizan?POL18099838   Fecha de emision:30.10.2024', 'POL18099838'],
    ['N° de p6liza: AU31257782   Fecha de emisi6n: 09.03.2024', 'AU31257782'],
  ])('%s', (text, want) => {
    expect(policyNumber(toLines(text)[0]?.norm ?? '')).toBe(want);
  });

  it('reads the cell under a "Policy number" column heading', () => {
    const below = (text: string) => {
      const [heading, row] = toLines(text);
      return policyNumberBelow(heading?.norm ?? '', row);
    };
    expect(below('Policy number   Start date   End date\nDL-3931937   09/03/2024   08/03/2025')).toBe(
      'DL-3931937',
    );
    expect(
      below('Nr. polita   Data inceput   Data sfarsit\nRO/06/J25/KF 332215395   2025-08-28   2026-08-27'),
    ).toBe('RO/06/J25/KF 332215395');
    expect(below('Poliza   Fecha efecto   Vencimiento\nAU73967842   19/06/2024   18/06/2025')).toBe(
      'AU73967842',
    );
    // Not a heading row: "Policyholder" names a person, and a row of dates holds no policy number.
    expect(below('Policyholder: JOHN SMITH\nDL-3931937')).toBeNull();
    expect(below('Policy number   Start date\n09/03/2024   08/03/2025')).toBeNull();
  });

  it('skips a label not followed by a number', () => {
    expect(policyNumber('POLIZA DE SEGURO DE AUTOMOVIL')).toBeNull();
    expect(policyNumber('NR. CRT. 1')).toBeNull();
  });
});

describe('insurance: start + 1 year − 1 day = end', () => {
  it('computes the end of a yearly policy, leap years included', () => {
    expect(yearLater('2025-03-15')).toBe('2026-03-14');
    expect(yearLater('2024-02-29')).toBe('2025-02-28');
  });

  it('knows a whole number of months from a misread date', () => {
    expect(isWholeMonths('2025-03-15', '2026-03-14')).toBe(true);
    expect(isWholeMonths('2025-01-31', '2025-04-30')).toBe(true); // 3 months, from a month's end
    expect(isWholeMonths('2024-11-19', '2025-05-18')).toBe(true); // 6 months
    expect(isWholeMonths('2024-03-02', '2025-03-08')).toBe(false); // the start read a week off
  });

  it('warns when the period is no whole number of months, and only then', () => {
    const odd = extractInsurance(lines('Valabila de la 02.03.2024 pana la 08.03.2025'));
    expect(odd.warnings).toEqual([
      { field: 'startDate', code: 'TERM_MISMATCH', params: { start: '2024-03-02', end: '2025-03-08' } },
    ]);
    const yearly = extractInsurance(lines('Valabila de la 09.03.2024 pana la 08.03.2025'));
    expect(yearly.warnings).toEqual([]);
  });

  it('takes the end date that makes a year, not a payment date after it', () => {
    const r = extractInsurance(
      lines(`
Valabila de la 15.03.2025
pana la 14.03.2026
Data platii: 20.03.2026`),
    );
    expect(r.fields).toMatchObject({ startDate: '2025-03-15', endDate: '2026-03-14' });
    expect(r.confidence.endDate).toBeGreaterThanOrEqual(0.9);
  });
});

describe('PaddleOCR post-processing', () => {
  it('finds one box per blob of the probability map, grown by the unclip distance', () => {
    const w = 40;
    const h = 20;
    const prob = new Float32Array(w * h);
    for (let y = 5; y < 10; y++) for (let x = 4; x < 24; x++) prob[y * w + x] = 0.9;
    prob[15 * w + 30] = 0.9; // a speck: too small
    const boxes = boxesFromProbMap(prob, w, h);
    expect(boxes).toHaveLength(1);
    const [b] = boxes;
    expect(b?.x).toBeLessThan(4);
    expect((b?.x ?? 0) + (b?.w ?? 0)).toBeGreaterThan(24);
  });

  it('decodes CTC output, dropping repeats, blanks and non-Latin classes', () => {
    const { chars, allowed } = allowedClasses(['A', 'Ο', '1']); // Ο: Greek omicron
    const C = chars.length; // blank, A, Ο, 1, space
    const steps = [1, 1, 0, 2, 0, 3, 4, 3]; // the omicron falls back to the best Latin class
    const probs = new Float32Array(steps.length * C);
    steps.forEach((c, t) => {
      probs[t * C + c] = 0.9;
      probs[t * C + 3] = Math.max(probs[t * C + 3] ?? 0, 0.05);
    });
    expect(ctcDecode(probs, 0, steps.length, C, chars, allowed).text).toBe('A11 1');
  });

  it('groups boxes into lines, with wide gaps kept as columns', () => {
    const b = (text: string, x: number, y: number, w = 60) => ({
      text,
      confidence: 0.9,
      box: { x, y, w, h: 20 },
    });
    const out = groupLines([b('66,63', 400, 52), b('Litros', 0, 0), b('45,67', 0, 50), b('Importe', 400, 2)]);
    expect(out.map((l) => l.text)).toEqual(['Litros   Importe', '45,67   66,63']);
  });
});
