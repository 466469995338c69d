/**
 * The extraction rules added for photographed receipts (issue 20), each on a short excerpt written
 * the way the OCR reads such receipts: with tesseract's spacing and with PaddleOCR's, which drops
 * spaces. Pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { allowedClasses, ctcDecode } from '../src/ocr/engines/ctc.js';
import { chooseDateReading, mayHoldDate } from '../src/ocr/engines/date-reread.js';
import { boxesFromProbMap } from '../src/ocr/engines/paddle-boxes.js';
import { coverageType, coverOf, fuzzyCoverage } from '../src/ocr/fields/cover.js';
import { compactDate, inCode } from '../src/ocr/fields/date.js';
import { spacedAsElsewhere } from '../src/ocr/fields/description.js';
import { fuelType } from '../src/ocr/fields/fuel-type.js';
import {
  instalmentAmount,
  instalmentsSum,
  isInstalmentLine,
  premiumWithOneMisread,
} from '../src/ocr/fields/instalments.js';
import { fuzzyInsurer } from '../src/ocr/fields/insurer.js';
import {
  fixPolicySlashes,
  gluedLabelPolicy,
  policyNumber,
  policyNumberAbove,
  policyNumberBelow,
} from '../src/ocr/fields/policy-number.js';
import { datedRoles, termFromInstalments } from '../src/ocr/fields/policy-period.js';
import { fuzzyPremium } from '../src/ocr/fields/premium.js';
import { remindersOff } from '../src/ocr/fields/reminders.js';
import { isWholeMonths, termMonths } from '../src/ocr/fields/term.js';
import { chainTotal, netAndVat, totalVouchedByRate } from '../src/ocr/fields/vat.js';
import { groupLines, textSlope } from '../src/ocr/geometry/lines.js';
import { headingsOf, tableValues } from '../src/ocr/geometry/table.js';
import { inkBox } from '../src/ocr/image/paper.js';
import { extractExpense } from '../src/ocr/kinds/expense.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { findDates, fixMonthNames } from '../src/ocr/text/dates.js';
import { editsToFind } from '../src/ocr/text/fuzzy.js';
import { toLines } from '../src/ocr/text/lines.js';
import { amountTokens, parseNumber } from '../src/ocr/text/numbers.js';
import { respace } from '../src/ocr/text/respace.js';

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
      rate: 20,
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
  it('knows the end of a yearly policy, leap years included', () => {
    expect(termMonths('2025-03-15', '2026-03-14')).toBe(12);
    expect(termMonths('2024-02-29', '2025-02-28')).toBe(12);
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

  it("takes a photo's tilt out before grouping: each value stays on its label's line", () => {
    // Lines 40 px apart, falling 6 % to the right: a value 600 px right sits 36 px lower.
    const labels = ['Litres', 'Price/L', 'SUBTOTAL', 'VAT 20%', 'TOTAL', 'CARD'];
    const values = ['41.27', '1.739', '71.77', '11.96', '71.77', '71.77'];
    const items = labels.flatMap((text, i) => [
      { text, confidence: 0.9, box: { x: 0, y: 40 * i, w: 120, h: 20 } },
      { text: values[i] ?? '', confidence: 0.9, box: { x: 600, y: 40 * i + 36, w: 80, h: 20 } },
    ]);
    expect(textSlope(items)).toBeCloseTo(0.06, 2);
    expect(groupLines(items).map((l) => l.text)).toEqual(labels.map((l, i) => `${l}   ${values[i]}`));
    // Level text stays level.
    const level = items.map((it) => ({ ...it, box: { ...it.box, y: it.box.x ? it.box.y - 36 : it.box.y } }));
    expect(textSlope(level)).toBe(0);
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

describe('insurance: the period from its labels, columns and a whole term', () => {
  it('skips the issue date on the policy-number line and reads "Elfective"/"Explry"', () => {
    const r = extractInsurance(
      lines(`
Policy number: MTR-7062884   Date of tssue: 31/01/2024
Elfective date: 10/02/2024   Explry date: 09/08/2024`),
    );
    expect(r.fields).toMatchObject({ startDate: '2024-02-10', endDate: '2024-08-09' });
    expect(r.warnings).toEqual([]);
  });

  it.each([
    [
      'en',
      'Policy number   Start date   End date\nDL-3931937   09.03.2024   08.03.2025\nDate of issue: 02.03.2024',
    ],
    [
      'ro',
      'Nr.polita   Datainceput   Data sfarsit\nRO/06/J25/KF332215395   2025-08-28   2026-02-27\nData emiteri: 2025-08-22',
    ],
    [
      'es',
      'Poliza   Fecha efecto   Vencimiento\nAU73967842   19-JUN-2024   18-JUN-2025\nFecha deemision:17-JUN-2024',
    ],
  ])('takes the dates under "start" and "end" column headings (%s)', (_, text) => {
    const r = extractInsurance(lines(text));
    const [s, e] = [r.fields.startDate, r.fields.endDate] as string[];
    expect(s).not.toMatch(/-(02|22|17)$/);
    expect(termMonths(s ?? '', e ?? '')).toBeGreaterThan(0);
  });

  it('reads "Perioada: X - Y" as start and end, and a day-month-year glued together', () => {
    expect(extractInsurance(lines('Perioada de asigurare: 05.07.2025 - 04.07.2026')).fields).toMatchObject({
      startDate: '2025-07-05',
      endDate: '2026-07-04',
    });
    const glued = extractInsurance(
      lines(
        'Seria:RO/95/J25/XTNr.:310331564   Dataemiterii:1iulie2025\nValabiladela:5iulie2025   Pana la: 4 iulie 2026',
      ),
    );
    expect(glued.fields).toMatchObject({ startDate: '2025-07-05', endDate: '2026-07-04' });
  });

  it('without labels, takes the two dates that make an exact term over the issue date', () => {
    const r = extractInsurance(
      lines('Emisa la 07.08.2024\n13.08.2024\n12.08.2025\nRata 2   11.02.2025   440,90 LEI'),
    );
    expect(r.fields).toMatchObject({ startDate: '2024-08-13', endDate: '2025-08-12' });
    expect(termMonths('2024-08-13', '2025-08-12')).toBe(12);
    expect(termMonths('2024-11-19', '2025-05-18')).toBe(6);
    expect(termMonths('2024-08-07', '2025-08-12')).toBe(0);
  });

  it('reads cover, insurer and a Romanian series that the OCR glued together', () => {
    const r = extractInsurance(
      lines(`DIRECTLINE
POLITADEASIGURARERCA
Cover: Third party,fire and theft
Nr. polita   Data inceput   Data sfarsit
RO/07/A24/AB243797654   13 august 2024   12 august 2025`),
    );
    expect(r.fields).toMatchObject({
      provider: 'Direct Line',
      coverageType: 'Third party, fire and theft',
      policyNumber: 'RO/07/A24/AB 243797654',
    });
  });
});

describe('garage invoices: labels PaddleOCR glues together', () => {
  it.each([
    ['TOTALFACTURA   2289,94', 2289.94],
    ['IMPORTETOTAL   2020,28', 2020.28],
    ['AMOUNTDUE   707.64', 707.64],
    ['AMOUNT DUE   f2160.68', 2160.68], // £ read as a small f, glued to the amount
  ])('reads the total after "%s"', (total, want) => {
    const r = extractRevision(lines(`INVOICE nr. 354\nDate: 14/05/23\nVAT 20%   117.94\n${total}`));
    expect(r.fields.price).toBe(want);
  });

  it('reads the mileage after "Kmbord:", "KM:" inside a line, "Mleage:" and miles glued to the number', () => {
    expect(extractRevision(lines('Nr.inmatriculare:B649xYZ   Kmbord:193.179km')).fields.km).toBe(193179);
    expect(extractRevision(lines('Nr. inmatriculare: B 729 XYZ  KM: 51.196')).fields.km).toBe(51196);
    expect(extractRevision(lines('Registration:AB12 CDE   Mleage:161.069 miles')).fields.km).toBe(259215);
    expect(extractRevision(lines('Mileage   48320miles')).fields.km).toBe(77764);
  });

  it('takes the work after "Lucrari efectuate:"/"Trabajo realizado:", not the garage name', () => {
    expect(
      extractRevision(lines('AUTO SERVICE DACIA SRL\nLucrari efectuate: Revizie completa')).fields
        .description,
    ).toBe('Revizie completa');
    expect(
      extractRevision(lines('SERVICIOOFICIALSEAT\nTrabajo realizado: Mantenimiento anual')).fields
        .description,
    ).toBe('Mantenimiento anual');
    expect(extractRevision(lines('SERVICEAUTOMOTORVIPSRL\nRevizie anuala   649,38')).fields.description).toBe(
      'Revizie anuala',
    );
  });

  it('writes a description the OCR printed without spaces as the labour line spells it', () => {
    const r = extractRevision(
      lines(`Lucrariefectuate:inlocuireplacutefrana
Manopera- inlocuire placute frana   1,5 ore   208.85   313.27`),
    );
    expect(r.fields.description).toBe('înlocuire plăcuțe frână');
    expect(spacedAsElsewhere('Fullservice', lines('Labour-Full service   2.5 hrs'))).toBe('Full service');
    expect(spacedAsElsewhere('Fullservice', lines('Total   12.00'))).toBe('Fullservice');
  });
});

describe('fuel: tables and fiscal lines as photographed', () => {
  it.each([
    ['Litres   /L   Amount\n61.99   1.734   107.49', 61.99, 1.734],
    ['Product   Ltrs   PPL   Total\nV-Power Diesel   30.42   1.474   44.84', 30.42, 1.474],
    ['Price/L   Value   Litres\n1.502   29.50   19.64', 19.64, 1.502],
    ['Producto   Euros   Cantidad   Precio/L\nSIN PLOMO 98   51,36   28,74   1,787', 28.74, 1.787],
  ])('reads litres and price per litre under the headings of %j', (table, liters, ppl) => {
    const r = extractFuel(lines(`${table}\nTOTAL   ${(Math.round(liters * ppl * 100) / 100).toFixed(2)}`));
    expect(r.fields).toMatchObject({ liters, pricePerLiter: ppl });
  });

  it('places numbers by the heading above them when one is glued to the product name', () => {
    const w = (text: string, x: number, y: number) => ({ text, box: { x, y, w: 100, h: 20 } });
    const head = {
      text: 'Produs   Suma Pret unitar   Cant.',
      words: [
        w('Produs', 0, 0),
        { text: 'Suma Pret unitar', box: { x: 300, y: 0, w: 320, h: 20 } },
        w('Cant.', 800, 0),
      ],
    };
    const row = {
      text: 'incarcare rapida DB69,86   6,62   55,87',
      words: [w('incarcare rapida DB69,86', 0, 30), w('6,62', 520, 30), w('55,87', 800, 30)],
    };
    const ls = toLines('', [
      { ...head, confidence: 0.95 },
      { ...row, confidence: 0.95 },
      { text: 'TOTAL LEI   369,86', confidence: 0.95 },
    ]);
    expect(tableValues(ls).map((t) => [t.column, t.value])).toEqual([
      ['ppl', 6.62],
      ['qty', 55.87],
    ]);
    expect(extractFuel(ls).fields).toMatchObject({ liters: 55.87, pricePerLiter: 6.62, fuelPrice: 369.86 });
  });

  it.each([
    ['48,08 I x 1,465 EUR/L\nTOTALEUROS   70,44 EUR', 48.08, 1.465, 70.44],
    ['22,070 1 x 6,668\nTOTAL   147,16 LEI', 22.07, 6.668, 147.16],
    ['21.0701x 7,482   157,65 A\nTOTAL   170.00 RON', 21.07, 7.482, 157.65],
    ['57,63 L x 6,49 RON/L\nSUBTOTAL   374,02 A\nTOTAL DE PLATA   59,72', 57.63, 6.49, 374.02],
  ])('reads the l read as I or 1 and the amount litres × price/L agrees with (%j)', (text, l, p, t) => {
    expect(extractFuel(lines(text)).fields).toMatchObject({ liters: l, pricePerLiter: p, fuelPrice: t });
  });

  it('reads a date whose time is glued to its year', () => {
    expect(extractFuel(lines('Fecha 13/12/202319:36')).fields.date).toBe('2023-12-13');
  });
});

describe('more of what PaddleOCR glues together', () => {
  it('reads "Aug19, 2025" and "onAug 19,2025" as dates, and a time glued to any date', () => {
    const r = extractInsurance(
      lines('Periodof insurance:from00:01 onAug 19, 2025to23:59onAug18, 2026\nIssued Aug 1,2025,London'),
    );
    expect(r.fields).toMatchObject({ startDate: '2025-08-19', endDate: '2026-08-18' });
    expect(extractFuel(lines('2023-12-1115:00')).fields.date).toBe('2023-12-11');
    expect(extractFuel(lines('24.09.2311:10')).fields.date).toBe('2023-09-24');
    expect(extractFuel(lines('3April202411:22')).fields.date).toBe('2024-04-03');
  });

  it('keeps an amount with its currency glued after it ("411.74LEI"), not one glued to a word', () => {
    expect(amountTokens('Prima anuala   2.943,10LEI')[0]).toMatchObject({ value: 2943.1, glued: false });
    expect(amountTokens('Rata 1   411.74LE!').at(-1)).toMatchObject({ value: 411.74, glued: false });
    expect(amountTokens('12.50abc')[0]?.glued).toBe(true);
  });

  it.each([
    ['CertificateNo: CHU-7070450   Dateofissue:26.08.2024', 'CHU-7070450'],
    ['NºPOL18899977   Fechade emisión: 21-JUL-2025', 'POL18899977'],
    ['PólizanºPOL88816787   Fecha deemisión:2025-08-01', 'POL88816787'],
    ['Número depóliza66397652   Fechade emisión:26/01/2025', '66397652'],
  ])('reads the policy number of %j', (text, want) => {
    expect(extractInsurance(lines(text)).fields.policyNumber).toBe(want);
  });

  it('reads "GPLAUTO", "SINPLOMO98", "Mileagein:141,642miles" and pence per litre', () => {
    expect(fuelType('POMPA6  GPLAUTO')?.value).toBe('GPL');
    expect(fuelType('SINPLOMO98')?.value).toBe('PETROL');
    expect(extractRevision(lines('Registration:AB33CDE   Mileagein:141,642miles')).fields.km).toBe(227951);
    const pence = extractFuel(lines('41.27 Litres @ 165.9p/L\nTOTAL   £68.47'));
    expect(pence.fields).toMatchObject({ liters: 41.27, pricePerLiter: 1.659, fuelPrice: 68.47 });
  });
});

describe('descriptions and expense totals as PaddleOCR prints them', () => {
  it('puts back the spaces between known words, numbers and a capitalised word', () => {
    expect(respace('Brakepadsreplaced')).toBe('Brake pads replaced');
    expect(respace('Oiland filter change')).toBe('Oil and filter change');
    expect(respace('Schimb uleiși filtre')).toBe('Schimb ulei și filtre');
    expect(respace('Car park3hours')).toBe('Car park 3 hours');
    expect(respace('Taxa de podFetești')).toBe('Taxa de pod Fetești');
    // Not words it knows, or already a word: left alone.
    expect(respace('Ventilator Diesel Parkade')).toBe('Ventilator Diesel Parkade');
    expect(extractRevision(lines('Work carried out:Brakepadsreplaced')).fields.description).toBe(
      'Brake pads replaced',
    );
  });

  it('keeps a count in the item name, drops the price after it', () => {
    const r = extractExpense(lines('Anvelope iarnă 4 buc\n2 x 55,18   110,36\nTOTAL   110,36 LEI'));
    expect(r.fields).toMatchObject({
      description: 'Anvelope iarnă 4 buc',
      expenseType: 'Tyres',
      amount: 110.36,
    });
  });

  it('takes "Amount paid" as the total and never a card number after its mask', () => {
    const r = extractExpense(
      lines('Tyres 2 x 205/55 R16\n2 x 34.14   68.28\nAmount paid   68.28\nMASTERCARD   ************3916'),
    );
    expect(r.fields.amount).toBe(68.28);
    expect(amountTokens('VISA   **** **** **** 4537')).toEqual([]);
    expect(extractExpense(lines('Vehicletax   759.87\nTOTAL   759.87')).fields.expenseType).toBe('Tax');
  });
});

describe('found on a second generated set (seed 2), read as OCR prints it', () => {
  it('reads "E/L" (the £ of "£/L") as price per litre, and a row of numbers only in the headings\' order', () => {
    const r = extractFuel(lines('Value   Qty   E/L\n32.54   22.88   1.422\nAMOUNT   32.54'));
    expect(r.fields).toMatchObject({ liters: 22.88, pricePerLiter: 1.422, fuelPrice: 32.54 });
  });

  it('reads "Precio litro", and "Cantidad 25,96 1" (the l of litres read as 1)', () => {
    const r = extractFuel(lines('Cantidad   25,96 1\nPrecio litro   1,753 EUR\nTOTAL   45,51 EUR'));
    expect(r.fields).toMatchObject({ liters: 25.96, pricePerLiter: 1.753, fuelPrice: 45.51 });
  });

  it('reads a month whose O the OCR took for a zero', () => {
    expect(extractFuel(lines('DATA: 8 0ct0mbrie 2024 ORA: 10:44')).fields.date).toBe('2024-10-08');
    expect(extractExpense(lines('Fecha 20 de febrer0 de 2023 22:59')).fields.date).toBe('2023-02-20');
  });

  it('sums instalments glued to their number, and no sum when one is missing', () => {
    expect(
      instalmentsSum(lines('Instalment1   2 June 2024   680.67\nInstalment 2   1 September 2024   680.67')),
    ).toBe(1361.34);
    expect(instalmentsSum(lines('Platain12ratede279,21LEI\nRata 1   25.09.2024   279,21 LEI'))).toBe(3350.52);
    expect(
      instalmentsSum(
        lines('Rata 1   10.05.2024   656,16\nRata 2   09.08.2024   656,16\nRata 4   08.02.2025   656,16'),
      ),
    ).toBeNull();
    expect(
      instalmentsSum(lines('Recibo 1   24/02/25   554,22\nRecibo 2   26/05/25   554,22\nRecibo 3')),
    ).toBeNull();
  });
});

describe('more misreads from the second generated set', () => {
  it('reads "f/L" (£/L) and "Pretlitru" headings, and leaves out only a whole grade before the values', () => {
    const en = extractFuel(
      lines('Product   Litres   f/L   Amount\nV-Power Diesel   61.92   1.676   103.78\nTOTAL   f103.78'),
    );
    expect(en.fields).toMatchObject({ liters: 61.92, pricePerLiter: 1.676, fuelPrice: 103.78 });
    const ro = extractFuel(
      lines('Produs   Total   Litri   Pretlitru\nBENZINA EFIX 95 136,22   17,42   7,82\nTOTAL   136,22 RON'),
    );
    expect(ro.fields).toMatchObject({ liters: 17.42, pricePerLiter: 7.82, fuelPrice: 136.22 });
  });

  it('reads "Sustituci 6n" as "Sustitución" and "Work carred out:", not the garage on the first line', () => {
    expect(toLines('Sustituci 6n pastillas de freno')[0]?.text).toBe('Sustitución pastillas de freno');
    const r = extractRevision(lines('MAIN DEALER SERVICE\nWork carred out: Timing belt kit'));
    expect(r.fields.description).toBe('Timing belt kit');
    expect(extractRevision(lines('MAIN DEALER SERVICE\nInvoice 12')).fields.description).toBeNull();
  });
});

describe('preprocessing: where the text is', () => {
  /** A grey photo with lines of dark "text" strokes in the given box. */
  const page = (w: number, h: number, box: { left: number; top: number; right: number; bottom: number }) => {
    const data = new Uint8Array(w * h).fill(150);
    for (let y = box.top; y < box.bottom; y += 24)
      for (let x = box.left; x < box.right; x += 14)
        for (let dy = 0; dy < 12; dy++) for (let dx = 0; dx < 3; dx++) data[(y + dy) * w + x + dx] = 40;
    return data;
  };

  it('boxes the text of a page small in the frame, with a margin', () => {
    const text = { left: 500, top: 300, right: 1100, bottom: 1000 };
    const b = inkBox(page(1600, 2000, text), 1600, 2000);
    expect(b).not.toBeNull();
    expect(b?.left).toBeLessThanOrEqual(text.left);
    expect(b?.top).toBeLessThanOrEqual(text.top);
    expect(b?.right).toBeGreaterThanOrEqual(text.right);
    expect(b?.bottom).toBeGreaterThanOrEqual(text.bottom);
    expect(((b?.right ?? 0) - (b?.left ?? 0)) * ((b?.bottom ?? 0) - (b?.top ?? 0))).toBeLessThan(
      1600 * 2000 * 0.25,
    );
  });

  it('finds nothing on a blank photo', () => {
    expect(inkBox(new Uint8Array(800 * 600).fill(170), 800, 600)).toBeNull();
  });
});

describe('insurance: an instalment read larger than the premium', () => {
  it('is a misread, so the instalments are not summed and nothing warns', () => {
    const text =
      'Annual premium   3409.25\nInstalment 1   10/02/2024   [1.704.62\nInstalment 2   11/05/2024   61.704.63';
    expect(instalmentsSum(lines(text), 3409.25)).toBeNull();
    const r = extractInsurance(lines(text));
    expect(r.fields.price).toBe(3409.25);
    expect(r.warnings.filter((w) => w.code === 'INSTALMENTS_MISMATCH')).toEqual([]);
  });
});

describe('a faded ROUNDING line still counts', () => {
  it('takes the total after "Roundng Adusment", not the one before it', () => {
    const r = extractExpense(
      lines('Total Amt Incl GST @ 6% :   7.42\nRoundng Adusment :   (0.01)\nTotal Amt Peyabke :   7.40'),
    );
    expect(r.fields.amount).toBe(7.4);
  });
});

describe('a lost separator, "nº" read as n9, and headings side by side', () => {
  it('reads dd/mm/yyyy whose one separator the OCR lost', () => {
    const r = extractInsurance(lines('Efecto: 26/032024   Vencimient:2503/2025'));
    expect(r.fields).toMatchObject({ startDate: '2024-03-26', endDate: '2025-03-25' });
    expect(extractFuel(lines('Tel. 91 347 3475')).fields.date).toBeNull();
  });

  it('reads the policy number after "Polizan9" (º read as 9)', () => {
    expect(
      extractInsurance(lines('Polizan9POL18099838   Fechadeemisión:30.10.2024')).fields.policyNumber,
    ).toBe('POL18099838');
  });

  it('keeps "Precio" and "Litros" apart when they head two columns', () => {
    const r = extractFuel(lines('Euros   Precio   Litros\n16,08   1,474   10,91\nTOTAL A PAGAR   16,08 €'));
    expect(r.fields).toMatchObject({ liters: 10.91, pricePerLiter: 1.474, fuelPrice: 16.08 });
  });
});

describe('insurance: when the period line is lost', () => {
  it('starts on the first instalment, never on the issue date, and leaves the end empty', () => {
    const r = extractInsurance(
      lines(
        'Nr.ADM-3309218   Date of issue: 25 May 2024\nInstalment 1   2 June 2024   680.67\nInstalment 2   1 September2024   680.67\nIssued 25 May 2024, London',
      ),
    );
    expect(r.fields).toMatchObject({ startDate: '2024-06-02', endDate: null });
  });

  it('does not sum three printed instalments of a stated twelve, and reads "Emtida" as issued', () => {
    const text =
      'Prima total   487,93\nPag fracconadoen 12 recibosde 4066\nRecibo 1   17/11/2025   40.66\nRecibo 2   17/12/2025   40,66\nRecibo 3   17/01/2026   40,66\nEmtida l 31/10/2025, Madrid';
    expect(instalmentsSum(lines(text))).toBeNull();
    const r = extractInsurance(lines(text));
    expect(r.warnings).toEqual([]);
    expect(r.fields.startDate).toBe('2025-11-17');
  });
});

describe('insurance: forms, premium parts and other people’s dates', () => {
  it('reads the policy number under a label that stands alone on its line', () => {
    const below = (text: string) => {
      const [heading, row] = toLines(text);
      return policyNumberBelow(heading?.norm ?? '', row);
    };
    expect(below('Póliza número\nAU95285391')).toBe('AU95285391');
    expect(below('Nº de póliza:\n81/2022/601801')).toBe('81/2022/601801');
    expect(below('Policy ref\nP43265175')).toBe('P43265175');
    // A label with its own value, or a line that is no label, takes nothing from below.
    expect(below('Tomador: GARCIA LOPEZ\nAU95285391')).toBeNull();
    expect(below('Póliza número\n23/12/2025   22/12/2026')).toBeNull();
  });

  it.each([
    ['Policy ref: P43265175', 'P43265175'],
    ['Policy reference HD88121345', 'HD88121345'],
    ['Póliza/Suplemento: 12/2024/554433', '12/2024/554433'],
    ['Polita RCA nr. 40012345', '40012345'],
  ])('%s', (text, want) => {
    expect(policyNumber(toLines(text)[0]?.norm ?? '')).toBe(want);
  });

  it('takes the total payable, not the net premium before its tax', () => {
    const r = extractInsurance(
      lines('Net premium   £595.34\nInsurance Premium Tax   £38.00\nTotal payable   £633.34'),
    );
    expect(r.fields.price).toBe(633.34);
    const es = extractInsurance(
      lines('Prima neta 3.106,06 €\nImpuestos y recargos 270,09 €\nTotal a pagar 3.376,15 €'),
    );
    expect(es.fields.price).toBe(3376.15);
    const ro = extractInsurance(
      lines('Primă de referință 4.362,40 LEI\nReducere bonus-malus -467,40 LEI\nTotal de plată 3.895,00 LEI'),
    );
    expect(ro.fields.price).toBe(3895);
  });

  it('never takes the driver’s birth date for the start', () => {
    const r = extractInsurance(
      lines(
        'Nr. 12345678   Data emiterii: 02.07.2025\nData nașterii conducătorului auto: 08.01.1973\nRata 1   05.07.2025   500,00',
      ),
    );
    expect(r.fields.startDate).not.toBe('1973-01-08');
    const en = extractInsurance(
      lines('Start date   End date\n12/03/2025   11/03/2026\nMain driver date of birth: 08/01/1973'),
    );
    expect(en.fields).toMatchObject({ startDate: '2025-03-12', endDate: '2026-03-11' });
  });
});

describe('insurance: a cover type with letters lost, and "Nº" lost before its number', () => {
  it('finds a long cover name one edit in seven letters away, never a short one', () => {
    expect(editsToFind('AMPLIADO', 'XXAMPLADOXX')).toBe(1);
    expect(fuzzyCoverage('TOMADOR:GACALOPMARA MODALDAD TERCERSAMPLADO')).toBe('Terceros ampliado');
    expect(fuzzyCoverage('COVER: COMPREHENSVE')).toBe('Comprehensive');
    expect(fuzzyCoverage('TIP ASIGURARE: CASC0')).toBeNull();
    expect(fuzzyCoverage('VEHICULO: SEAT LEON, MATRICULA 3124 KLM')).toBeNull();
    const r = extractInsurance(lines('Poliza n AU96848654\nTomador:GACALOPMARA Modaldad tercersamplado'));
    expect(r.fields.coverageType).toBe('Terceros ampliado');
    expect(r.confidence.coverageType).toBeLessThan(0.9);
  });

  it('reads "N39378394" at the start of a line as the number after a lost "º"', () => {
    expect(policyNumber(toLines('N39378394   Fechadeemisión:09/07/2024')[0]?.norm ?? '')).toBe('39378394');
    expect(policyNumber(toLines('NIF B12345678')[0]?.norm ?? '')).toBeNull();
  });
});

describe('insurance documents photographed badly (a third generated set, seed 7)', () => {
  const norm = (t: string) => toLines(t)[0]?.norm ?? '';

  it('reads "Policy" and "Póliza" as the OCR garbles them, and "Nr." read "NI."', () => {
    expect(policyNumber(norm('Numero de pohiza 073375440   Fecha de emision: 27-NOv-2024'))).toBe(
      '073375440',
    );
    expect(policyNumber(norm('NI.ADM-1034656   Date of Issue 24 September2025'))).toBe('ADM-1034656');
    expect(policyNumber(norm('NPOL50125523   Fecha de emision:22-NOv-2025'))).toBe('POL50125523');
    expect(policyNumber(norm('NCHU-1447541   Date of issue12 072024'))).toBe('CHU-1447541');
    const [heading, row] = toLines(
      'Pollcy number   Start date   End date\nAOM-5163823   13/08/2024   12/08/2025',
    );
    expect(policyNumberBelow(heading?.norm ?? '', row)).toBe('AOM-5163823');
  });

  it('takes a code with letters after a garbled label glued to its "No:", never a phone number', () => {
    expect(gluedLabelPolicy(norm('CortncatoNo: CHU-6670983   Dte o msue: Marh 2025'))).toBe('CHU-6670983');
    expect(gluedLabelPolicy(norm('TelefonoNo: 912345678'))).toBeNull();
  });

  it('reads a Romanian series whose "Seria" was read "Sena"', () => {
    const r = extractInsurance(lines('Sena RO/24/J25/KF Nr. 986084294   Data emiteni:06.05.2025'));
    expect(r.fields.policyNumber).toBe('RO/24/J25/KF 986084294');
  });

  it('checks every cover name in order, exact or with a letter or two changed', () => {
    expect(coverageType('COVER THIRD PARTY.TIRE AND THEFT')?.name).toBe('Third party, fire and theft');
    expect(coverageType('COVER COMPREHEMIVE')?.name).toBe('Comprehensive');
    expect(coverageType('COVER: THIRD PARTY')).toEqual({ name: 'Third party', exact: true });
  });

  it('reads an amount whose currency sign became a capital, and RON read R0N', () => {
    expect(amountTokens('Total annual premium   C966.98').map((t) => t.value)).toEqual([966.98]);
    expect(amountTokens('L3,665.02').map((t) => t.value)).toEqual([3665.02]);
    expect(amountTokens('Prima anuala   3611,31R0N')).toEqual([
      { value: 3611.31, token: '3611,31', glued: false },
    ]);
    expect(amountTokens('Class 2 lane 8').map((t) => t.value)).toEqual([2, 8]);
  });

  it('reads a month name with one letter lost or changed, only between a day and a year', () => {
    expect(
      findDates(norm('Perioada de asigurare: 26 februare 2024 - 25 februarie 2025')).map((d) => d.iso),
    ).toEqual(['2024-02-26', '2025-02-25']);
    expect(findDates(norm('Rata 3   27 apriie 2024')).map((d) => d.iso)).toEqual(['2024-04-27']);
    expect(fixMonthNames('PARTIE 12 MARTIN 2024')).toBe('PARTIE 12 MARTIE 2024');
    expect(fixMonthNames('MARTIN PARTIE')).toBe('MARTIN PARTIE');
  });

  it('reads dd mm yyyy with its separators lost right after a label, not after a number label', () => {
    expect(findDates(norm('Eftective date.27072024   Expiry date 26 072025')).map((d) => d.iso)).toEqual([
      '2024-07-27',
      '2025-07-26',
    ]);
    expect(findDates(norm('Nr. 12052024'))).toEqual([]);
    expect(findDates(norm('CUI12052024'))).toEqual([]);
  });

  it('knows garbled instalment lines and issue-date labels', () => {
    for (const t of [
      'Instalnont 1   12 March 2025   542.76',
      'tnstaimort 4   4 July 2026   6696 44',
      'Rala 1   09.05.2025',
    ])
      expect(isInstalmentLine(toLines(t)[0] as never)).toBe(true);
    expect(isInstalmentLine(toLines('Instituto 12')[0] as never)).toBe(false);
    for (const t of ['Date of isswt 10/12/25', 'Dte o msue: 9 March 2025', 'Ised 9 March 2025, London'])
      expect(datedRoles(toLines(t)).map((d) => d.role)).toEqual(['issue']);
  });

  it('ends a policy paid in instalments after their count times their spacing', () => {
    const quarterly = lines(
      'Recibo 1   05-DIC-2024   321.69\nRecibo 2   20-ENE-2025   321.69\nRecibo 3   06-MAR-2025   321.69\nRecibo 4   21-ABR-2025   321,70',
    );
    expect(
      termFromInstalments(quarterly, ['2024-12-05', '2025-01-20', '2025-03-06', '2025-04-21'], '2024-12-05'),
    ).toBe('2025-06-04');
    const monthly = lines('Plata in 12 rate de 286,20 RON\nRata 1   06.04.2024\nRata 2   06.05.2024');
    expect(termFromInstalments(monthly, ['2024-04-06', '2024-05-06'], '2024-04-06')).toBe('2025-04-05');
    // Spacing that makes no usual term: no end.
    expect(
      termFromInstalments(lines('Rata 1\nRata 2'), ['2024-04-06', '2024-06-20'], '2024-04-06'),
    ).toBeNull();
    const r = extractInsurance(
      lines(
        'Dte o msue: Marh 2025\nInstalnont 1   12 March 2025   542.76\nInstalmont 2   11 June 2025   542.76\nInstalmont 3   10 Soptomber 2025   542.76\nInstalment 4   11 December 2025   542.78\nIsed 9 March 2025, London',
      ),
    );
    expect(r.fields).toMatchObject({ startDate: '2025-03-12', endDate: '2026-03-11' });
  });
});

describe('month-first dates with the comma read as a point (a fourth generated set, seed 8)', () => {
  it('reads "May 1. 2025" and "Oct 30.2025", and no two-digit year out of "Instalment2 Oct 30.2025"', () => {
    const iso = (t: string) => findDates(toLines(t)[0]?.norm ?? '').map((d) => d.iso);
    expect(iso('Effectivedate   May 1. 2025 00:00')).toEqual(['2025-05-01']);
    expect(iso('Expiry date   Apr 30.202624:00')).toEqual(['2026-04-30']);
    expect(iso('Instalment2   Oct 30.2025   1,332.74')).toEqual(['2025-10-30']);
    expect(iso('30 Dec 17')).toEqual(['2017-12-30']);
  });
});

describe('a date inside a product or invoice code is the last resort (SROIE transcripts outside the held-out sample)', () => {
  it('knows a date glued to a code', () => {
    const at = (t: string, d: string) => inCode(t, t.indexOf(d));
    expect(at('HD03-04-06 - 5/40/160', '03-04-06')).toBe(true);
    expect(at('INVOICE NO: SP-NULL-18/06/04-1016956', '18/06/04')).toBe(true);
    expect(at('DATE15/03/2018', '15/03/2018')).toBe(false);
    expect(at(': 20/06/2018 18:07:10', '20/06/2018')).toBe(false);
  });

  it('takes the receipt date over the one inside the invoice number', () => {
    const r = extractExpense(
      lines(
        'MOONLIGHT CAKE HOUSE SDN BHD\nINVOICE NO: SP-NULL-18/06/20-1022050\n: 20/06/2018 18:07:10\nTOTAL 12.50',
      ),
    );
    expect(r.fields.date).toBe('2018-06-20');
    const only = extractExpense(lines('HD03-04-06 - 5/40/160\nTOTAL 12.50'));
    expect(only.fields.date).toBe('2006-04-03');
    expect(only.confidence.date).toBeLessThan(0.7);
  });
});

describe('a date printed without separators on a line of its own, as the last resort', () => {
  it('reads day-first and year-first, with a time after a slash', () => {
    expect(compactDate('25032018')).toBe('2018-03-25');
    expect(compactDate('20180428')).toBe('2018-04-28');
    expect(compactDate('12345678')).toBeNull();
    expect(
      extractExpense(lines('GST NO: 002013487104\nDATE/TIME\n: 20180428/191204\nTOTAL 20.00')).fields.date,
    ).toBe('2018-04-28');
    expect(extractExpense(lines('3-1708032\nTOTAL 18.00\n25032018')).fields.date).toBe('2018-03-25');
  });
});

describe('insurance read as photographed policies print it (tuning sets, seeds 9-12)', () => {
  const norm = (t: string) => toLines(t)[0]?.norm ?? '';

  it('does not count "Payable in 2 instalments of £427.85" as a third instalment', () => {
    const text =
      'Annual premium   855.70\nPayable in 2 instalments of E427.85\nInstalment 1   01-OCT-2025   427.85\nInstalment 2   01-APR-2026   427.85';
    expect(instalmentsSum(lines(text))).toBe(855.7);
    const r = extractInsurance(lines(text));
    expect(r.fields.price).toBe(855.7);
    expect(r.warnings).toEqual([]);
  });

  it('reads an instalment whose decimal point was lost, and sums nothing when an amount is missing', () => {
    expect(instalmentAmount('Instalment 4   10 April 2026   61325')).toBe(613.25);
    expect(instalmentAmount('tnstaimort 4   4 July 2026   6696 44')).toBe(6696.44);
    expect(instalmentAmount('Recibo 4   21-ABR-2025')).toBeUndefined();
    const text =
      'Total premium 2025/26   2452.94\nInstalment 1   10 July 2025   613.23\nInstalment2   9 October 2025   613.23\nInstalment3   8 January 2026   613.23\nInstalment 4   10 April 2026   61325';
    const r = extractInsurance(lines(text));
    expect(r.fields.price).toBe(2452.94);
    expect(r.warnings).toEqual([]);
    // A row with its due date and no amount: the sum is unknown, so nothing warns.
    const lost = extractInsurance(
      lines(
        'Prima total   900,00\nRecibo 1   01/03/2025   300,00\nRecibo 2   01/07/2025\nRecibo 3   01/11/2025   300,00',
      ),
    );
    expect(lost.fields.price).toBe(900);
    expect(lost.warnings).toEqual([]);
  });

  it('puts back a leading digit the OCR lost when the instalments say so', () => {
    const r = extractInsurance(
      lines('Importe total 2024/25   798. 54 C\nPago fraccionado en 12 recibos de 149.87 E'),
    );
    expect(r.fields.price).toBe(1798.54);
    expect(r.confidence.price).toBeLessThan(0.9);
    expect(r.warnings).toEqual([]);
  });

  it('knows renewal reminders turned off with a letter or two misread', () => {
    for (const t of [
      'Renewal remunders: No',
      'Notifican de reinnoire: NU',
      'Notineari de roinnoiro:NU',
      'Avlso de renovaclon NO',
    ])
      expect(remindersOff(lines(t))).toBe(true);
    for (const t of [
      'Renewal reminders: Yes',
      'Certificate No',
      'Modified vehicle: No',
      'Asistencia en viaje: NO',
    ])
      expect(remindersOff(lines(t))).toBe(false);
  });

  it('reads a euro sign read as C glued after the cents, so the total to pay wins over the net premium', () => {
    expect(amountTokens('Total a pagar   4020,74C')).toEqual([
      { value: 4020.74, token: '4020,74', glued: false },
    ]);
    const r = extractInsurance(
      lines('Prima neta   3.538,25\nImpuestos y recargos   482,49\nTotal a pagar   4020,74C'),
    );
    expect(r.fields.price).toBe(4020.74);
  });

  it('never takes the next line’s value for a section heading, and reads "Primi", "Pnma" as Prima', () => {
    const r = extractInsurance(
      lines('3. Prima\nPnma neta   1013.35\nImpuestos y recargos   138.18\nTotal a psgar   1151,53 ('),
    );
    expect(r.fields.price).toBe(1151.53);
    expect(
      extractInsurance(lines('3. Prima de asigurare\nPrimi de asigurare   1252,31 LEI')).fields.price,
    ).toBe(1252.31);
    expect(extractInsurance(lines('3. Premium\nAnnual premium\n£ 633.34')).fields.price).toBe(633.34);
  });

  it('never takes a premium tax line for the premium', () => {
    const r = extractInsurance(lines('Tocal aneuai pres 282SX6\nInsurance Premum Tar(274) included'));
    expect(r.fields.price).toBeNull();
  });

  it('reads dd/mm/yy glued to "24.00", the end of the day', () => {
    expect(findDates(norm('Venomiento   01/09/2624.00')).map((d) => d.iso)).toEqual(['2026-09-01']);
    expect(findDates(norm('Vencimiento 01/09/26 24.00')).map((d) => d.iso)).toEqual(['2026-09-01']);
    expect(findDates(norm('Fecha 01/09/2024.00'))).toEqual([]);
  });

  it('reads the policy number under a heading read "Polley number"', () => {
    const [heading, row] = toLines(
      'Polleynumber   Start date   End date\nDL-9293260   Jul 19,2024   Jul 18,2025',
    );
    expect(policyNumberBelow(heading?.norm ?? '', row)).toBe('DL-9293260');
    expect(policyNumber(norm('Poficy munber: HD35669648'))).toBe('HD35669648');
    expect(policyNumber(norm('Policyholder: JOHN SMITH 1982'))).toBeNull();
  });

  it('reads the number under a lone "Nº", or just above its label when the OCR put the lines out of order', () => {
    const [n, row] = toLines('Nº\n14/2021/704954');
    expect(policyNumberBelow(n?.norm ?? '', row)).toBe('14/2021/704954');
    const [n2, row2] = toLines('Nº\nFecha de emisión 18-12-2023');
    expect(policyNumberBelow(n2?.norm ?? '', row2)).toBeNull();
    expect(policyNumberAbove(lines('POL76693172\nPóliza/Suplemento\nFecha de emisión   18-DIC-2023'))).toBe(
      'POL76693172',
    );
    expect(policyNumberAbove(lines('Tel. 0345 302 0000\nPolicy number\nP123'))).toBeNull();
    expect(
      extractInsurance(lines('POL76693172\nPóliza/Suplemento\nFecha de emisión   18-DIC-2023')).fields
        .policyNumber,
    ).toBe('POL76693172');
  });

  it('takes the amount after a premium label with a letter in three misread, when no label was read', () => {
    expect(fuzzyPremium(lines('TUAL A PAPAR   1607,70 C')[0] as never)).toBe(1607.7);
    expect(fuzzyPremium(lines('Recibo 1   25/07/2025   803,85')[0] as never)).toBeNull();
    expect(fuzzyPremium(lines('Daños materiales hasta 15.000.000')[0] as never)).toBeNull();
    const r = extractInsurance(lines('3. Prima\nPNMA NEA   151124C\nTUAL A PAPAR   1607,70 C'));
    expect(r.fields.price).toBe(1607.7);
    expect(r.confidence.price).toBeLessThan(0.9);
  });

  it('knows an insurer in the letterhead with a letter in four misread', () => {
    expect(fuzzyInsurer(lines('MUTUA MADRILEINA\nAtencion al cliente 91 294 92 62'))).toBe('Mutua Madrileña');
    expect(fuzzyInsurer(lines('GROUPANAIGRARISA'))).toBe('Groupama Asigurări');
    expect(fuzzyInsurer(lines('ALLAN TRIACAIGURARI'))).toBe('Allianz-Țiriac Asigurări');
    expect(fuzzyInsurer(lines('CERTIFICATE OF MOTOR INSURANCE\nCustomer services 0345'))).toBeNull();
    expect(fuzzyInsurer(lines('CONDICIONES PARTICULARES\nAtención al cliente'))).toBeNull();
    expect(extractInsurance(lines('MUTUA MADRILEINA\nPóliza: AU123456')).fields.provider).toBe(
      'Mutua Madrileña',
    );
  });
});

describe('a warning only when the number it points at is the one that disagrees', () => {
  it('keeps a total that agrees with the net or the VAT at the printed rate, the other one misread', () => {
    expect(totalVouchedByRate({ net: 1082.77, vat: 205.73, rate: 19 }, 1288.5)).toBe(true);
    // The net misread ("1.O82,77" read 1.832,77): the VAT at 19 % of the total still agrees.
    const r = extractRevision(
      lines('Total fără TVA   1.832,77\nTVA 19%   205,73\nTOTAL DE PLATĂ   1.288,50'),
    );
    expect(r.fields.price).toBe(1288.5);
    expect(r.warnings).toEqual([]);
    // The VAT misread: the net at 21 % is the total.
    const es = extractRevision(lines('Base imponible   200,00\nIVA 21%   47,00\nTOTAL   242,00'));
    expect(es.fields.price).toBe(242);
    expect(es.warnings).toEqual([]);
    // The total misread: neither agrees with it, so it warns.
    const bad = extractExpense(lines('Baza 100,00\nTVA 19% 19,00\nTOTAL DE PLATA 191,00'));
    expect(bad.warnings.map((w) => w.code)).toEqual(['VAT_MISMATCH']);
  });

  it('keeps a premium the instalments make once one instalment read unlike the others is set right', () => {
    const text =
      'Prima totala   1.234,56 lei\nRata 1   308,64\nRata 2   308,64\nRata 3   803,64\nRata 4   308,64';
    expect(premiumWithOneMisread(lines(text), 1234.56)).toBe(true);
    const r = extractInsurance(lines(text));
    expect(r.fields.price).toBe(1234.56);
    expect(r.warnings).toEqual([]);
    // The premium misread: the instalments agree with each other, not with it.
    const bad = extractInsurance(lines('Prima total: 900,00 EUR\nRecibo 1: 300,00\nRecibo 2: 300,00'));
    expect(bad.warnings.map((w) => w.code)).toEqual(['INSTALMENTS_MISMATCH']);
    expect(premiumWithOneMisread(lines('Recibo 1: 300,00\nRecibo 2: 300,00'), 650)).toBe(false);
  });
});

describe('dates with mixed separators in a row under their headings (tuning sets, seeds 11-13)', () => {
  const iso = (t: string) => findDates(toLines(t)[0]?.norm ?? '').map((d) => d.iso);
  it('reads "27.02 2026" and "28 08 2025" at the start of a row, never a phone number', () => {
    expect(iso('28 08 2025   27.02 2026')).toEqual(['2025-08-28', '2026-02-27']);
    expect(iso('Rata 1   12.09 2025   300,78')).toEqual(['2025-09-12']);
    expect(iso('Tel. 021 638 5148')).toEqual([]);
    expect(iso('CUI 12 05 2024')).toEqual([]);
    const r = extractInsurance(lines('Effective date   Expiry date\n28 08 2025   27.02 2026'));
    expect(r.fields).toMatchObject({ startDate: '2025-08-28', endDate: '2026-02-27' });
  });

  it('never takes a date whose month the OCR garbled ("28-UL-2025") for the policy number', () => {
    expect(policyNumber(toLines('Pohicy Nr.   28-UL-2025')[0]?.norm ?? '')).toBeNull();
    expect(policyNumber(toLines('Policy Nr.   DL-1088980')[0]?.norm ?? '')).toBe('DL-1088980');
  });
});

describe('garage invoices whose value column the OCR paired with the wrong labels (tuning set, seed 14)', () => {
  it('takes the amount that the parts and their VAT add up to as the total', () => {
    const shifted = lines(
      'MANO DE OBRA\nRECAMBIOS   676,14\nIVA 21%   513,41\nTOTAL FACTURA   249,81\n1.439,36',
    );
    expect(chainTotal(shifted)).toBe(1439.36);
    expect(extractRevision(shifted).fields.price).toBe(1439.36);
    // A plain invoice: the labelled total is the chain's.
    const plain = lines(
      'Manoperă   300,00\nPiese   200,00\nTotal fără TVA   500,00\nTVA 19%   95,00\nTOTAL   595,00',
    );
    expect(chainTotal(plain)).toBe(595);
    expect(extractRevision(plain).fields.price).toBe(595);
    // A labelled total that is no part of the chain wins: a per-rate subtotal with its GST is a part
    // of what is payable (SROIE transcripts outside the held-out sample).
    const perRate = lines(
      'Total 0% supplies:   9.57\nTotal 6% supplies (excl. GST):   14.40\nGST:   0.86\nTotal 6% supplies (Inc. GST):   15.26\nTotal Payable: 24.83',
    );
    expect(extractExpense(perRate).fields.amount).toBe(24.83);
    expect(chainTotal(lines('Subtotal 0.00\nGST 0.00\nTOTAL 0.00'))).toBeNull();
    // Amounts that do not add up: no chain.
    expect(chainTotal(lines('Labour   120.00\nParts   80.00\nTOTAL   215.00'))).toBeNull();
  });

  it('reads a work label with a stray mark between its words', () => {
    const r = extractRevision(lines('Trabajo ) realizado: Cambio de aceite y filtros\nTOTAL 120,00'));
    expect(r.fields.description).toBe('Cambio de aceite y filtros');
  });
});

describe('the cover type from its own label first', () => {
  it('reads "Cover: Thrd paty" a letter in four off, and never takes a limit line for the cover', () => {
    expect(coverOf(lines('Cover: Thrd paty\nThird party property damage limit: £20,000,000'))?.name).toBe(
      'Third party',
    );
    expect(coverOf(lines('Cover: Comprehonsiv\nThird party property damage limit: £20,000,000'))?.name).toBe(
      'Comprehensive',
    );
    expect(coverOf(lines('Cover: Third party. fire and theft'))?.name).toBe('Third party, fire and theft');
    // No cover label read: anywhere but on a limit's line.
    expect(coverOf(lines('Third party property damage limit: £20,000,000'))).toBeNull();
    expect(coverOf(lines('POLIȚĂ DE ASIGURARE RCA'))?.name).toBe('RCA');
    expect(coverOf(lines('Modalidad: Terceros ampliado'))?.name).toBe('Terceros ampliado');
  });
});

describe('a Spanish policy number whose first slash was read V', () => {
  it('puts the slash back only in the office / year / number shape', () => {
    expect(fixPolicySlashes('3V2025/205481')).toBe('3/2025/205481');
    expect(fixPolicySlashes('AV51485765')).toBe('AV51485765');
    expect(extractInsurance(lines('No Pollza\n3V2025/205481')).fields.policyNumber).toBe('3/2025/205481');
  });
});

describe('two long dates glued in a row (tuning set, seed 15)', () => {
  it('splits a year glued to the next date’s day and month', () => {
    const iso = (t: string) => findDates(toLines(t)[0]?.norm ?? '').map((d) => d.iso);
    expect(iso('POL70963115   5DESEPTIEMBREDE20254DEMARZ0DE2026')).toEqual(['2025-09-05', '2026-03-04']);
    expect(iso('5 September 20254 March 2026')).toEqual(['2025-09-05', '2026-03-04']);
    expect(iso('Total 20254 MAY')).toEqual([]);
    // A year glued to a time whose hour has one digit.
    expect(iso('DATE09-AUG-20231:02')).toEqual(['2023-08-09']);
    expect(iso('DATA: 12.05.20249:15')).toEqual(['2024-05-12']);
    expect(iso('13/12/202319:36')).toEqual(['2023-12-13']);
  });
});

describe('dates as faded receipts misread them (SROIE tuning sample, outside the held-out one)', () => {
  const iso = (t: string) => findDates(toLines(t)[0]?.norm ?? '').map((d) => d.iso);

  it('reads a three-letter month with one look-alike letter, only between a day and a year', () => {
    expect(iso('DATE   : 10 0CI 2017 TUE')).toEqual(['2017-10-10']);
    expect(iso('25 JUH 2018')).toEqual(['2018-06-25']);
    expect(iso('Table 12 ABC 2019')).toEqual([]);
    expect(iso('OCI 2017')).toEqual([]);
  });

  it('reads the separator between a day and a month name read as a letter', () => {
    expect(iso('CB# : 59581331715 14AMay/2017 02:56:39')).toEqual(['2017-05-14']);
    expect(iso('12MAR/2017')).toEqual(['2017-03-12']);
    expect(iso('1SEPT/2017')).toEqual(['2017-09-01']);
  });

  it('reads a digit of a dd/mm/yyyy printed as a look-alike letter', () => {
    expect(iso('28/C6/2018 3:11:35 PM')).toEqual(['2018-06-28']);
    expect(iso('Date : 17/06/2C18 7:36:12 PM')).toEqual(['2018-06-17']);
    expect(iso('12/AB/2018')).toEqual([]);
  });

  it('reads a year whose zero was read as an 8 or a 9, or with a letter for a digit after a month', () => {
    expect(iso('RECEIPT #: CSP0408083 DATE: 28/09/2817')).toEqual(['2017-09-28']);
    expect(iso('Date:   27/03/2918 16:34')).toEqual(['2018-03-27']);
    expect(iso('DATE: 28/09/2018')).toEqual(['2018-09-28']);
    expect(iso('18 Mar 20i8 18:25')).toEqual(['2018-03-18']);
    expect(iso('MAR 20LB')).toEqual([]);
  });

  it('keeps a date range, but not a product code whose spaces were taken out', () => {
    expect(iso('MI11/3-21 - 12/480')).toEqual([]);
    expect(iso('01/03/24 - 28/02/25')).toEqual(['2024-03-01', '2025-02-28']);
    expect(iso('01/03/2024 - 28/02/2025')).toEqual(['2024-03-01', '2025-02-28']);
    const r = extractExpense(
      lines('MI11/3-21 - 12/480\n9082115   1 X 2.50   2.50\nTotal   RM 2.50\n16-03-18 13:49 SH01'),
    );
    expect(r.fields.date).toBe('2018-03-16');
  });

  it('reads a date glued to the number before it, only when the receipt has no other', () => {
    const at = (t: string, d: string) => inCode(t, t.indexOf(d));
    expect(at('ORDER NO.   100007017/04/2018', '17/04/2018')).toBe(true);
    expect(at('ORD #07 -REG #19- 10/03/2018 17:24:07', '10/03/2018')).toBe(false);
    expect(at('CLOSED BY - C001-07/04/2018-18:11:05', '07/04/2018')).toBe(false);
    expect(
      extractExpense(lines('INV HD03-04-06\nORD #07 -REG #19- 10/03/2018 17:24:07\nTOTAL 12.50')).fields.date,
    ).toBe('2018-03-10');
    const only = extractExpense(lines('Order No.   100007017/04/2018 07:13 PM\nTOTAL 12.50'));
    expect(only.fields.date).toBe('2018-04-17');
    expect(only.confidence.date).toBeLessThan(0.7);
    const other = extractExpense(lines('Order No.   100007017/04/2018\nDate: 18/04/2018\nTOTAL 12.50'));
    expect(other.fields.date).toBe('2018-04-18');
  });

  it('reads a date without separators before its time or after a date label, as the last resort', () => {
    expect(extractExpense(lines('00440010036 25032018 13:11:54 0003\nTOTAL 18.00')).fields.date).toBe(
      '2018-03-25',
    );
    expect(extractExpense(lines('Date/Time   20180428/191 20100020/   1200\nTOTAL 19.99')).fields.date).toBe(
      '2018-04-28',
    );
    expect(extractExpense(lines('Order 10203040 total\nTOTAL 19.99')).fields.date).toBeNull();
  });

  it('reads a date with a separator printed twice', () => {
    expect(iso('Datr:  : 05--03-2018 19:02:50')).toEqual(['2018-03-05']);
    expect(iso('A--B 12--3')).toEqual([]);
  });

  it('reads a date with one separator read as a semicolon', () => {
    expect(iso('KPB02201605190112   19/05;16 12:01:43 pm')).toEqual(['2016-05-19']);
    expect(iso('19;05/2016')).toEqual(['2016-05-19']);
    expect(iso('QTY 1;2')).toEqual([]);
  });

  it('reads dd/mm/yyyy whose two separators were read differently, one maybe a colon', () => {
    expect(iso('DATE:24/07:2017 : 12:44')).toEqual(['2017-07-24']);
    expect(iso('24.07/2017')).toEqual(['2017-07-24']);
    expect(iso('TIME 12:44:2017')).toEqual([]);
    expect(iso('10:25:49 PM')).toEqual([]);
  });

  it('takes the later reading when the same date is printed twice with one look-alike digit apart', () => {
    const r = extractExpense(
      lines(
        'Invoice No : 095_01/03124\nDate   : 13/04/2013 #1  2:26 PM\nPRN ON   : 13/04/2018 2:53 PM\nTOTAL 25.00',
      ),
    );
    expect(r.fields.date).toBe('2018-04-13');
    // Two different days: the labelled one, as before.
    const two = extractExpense(lines('Date : 13/04/2018\nPRN ON : 14/04/2018\nTOTAL 25.00'));
    expect(two.fields.date).toBe('2018-04-13');
    // A day read 3 for 8 on the labelled line, right on the printing line.
    const day = extractExpense(
      lines('V1.0514   Date: 03/09/2017\n1:1): 08/09/2017 11:06\nTotal Payable: 15.57'),
    );
    expect(day.fields.date).toBe('2017-09-08');
    // A year more than one digit away is no misread.
    const far = extractExpense(lines('Date : 13/04/2012\nPRN ON : 13/04/2018\nTOTAL 25.00'));
    expect(far.fields.date).toBe('2012-04-13');
  });
});

describe('totals as faded receipts misread them (SROIE tuning sample, outside the held-out one)', () => {
  it('reads TOTAL with look-alike letters, and leaves other words alone', () => {
    const norm = (t: string) => toLines(t)[0]?.norm ?? '';
    expect(norm('nL: TOIAL   343.95')).toBe('NL: TOTAL   343.95');
    expect(norm('1UIAL (bSI INLL)   4.50')).toBe('TOTAL (BSI INLL)   4.50');
    expect(norm('SUB10IAL   2.28')).toBe('SUBTOTAL   2.28');
    expect(norm('Accaptad tota]   5.00 RM')).toBe('ACCAPTAD TOTAL   5.00 RM');
    expect(norm('LOCAL 10141 DOTAL')).toBe('LOCAL 10141 DOTAL');
    expect(
      extractExpense(lines('SUB TOTAL   295.00\nGST 6%   19.47\nnL: TOIAL   343.95')).fields.amount,
    ).toBe(343.95);
  });

  it('reads a dollar sign read as S and RM with its R misread before an amount', () => {
    expect(amountTokens('Nett Total: S8.20').map((t) => t.value)).toEqual([8.2]);
    expect(amountTokens('lota!   1M3.00').map((t) => t.value)).toEqual([3]);
    expect(amountTokens('Parking Fee   FM2.83').map((t) => t.value)).toEqual([2.83]);
    expect(amountTokens('SKU S1234').map((t) => t.value)).toEqual([]);
  });

  it('takes a total line naming a tax or a count when it states what was paid less the change', () => {
    const r = extractExpense(
      lines(
        "Total Qry'   1   80.91\nTotal Salus iluclusito of GST) :   80.90\nCASH   100.00\nChange   19.10\nTotal :   80.91   0.00",
      ),
    );
    expect(r.fields.amount).toBe(80.9);
    const qty = extractExpense(
      lines(
        'Qty : 1   Total RM   11.60\nCASH   12.00\nChange   0.40\nGST Summary   Amount   Tax\nTotal   10.94 0.66',
      ),
    );
    expect(qty.fields.amount).toBe(11.6);
  });

  it('takes what was paid less the change over a total without cents the payment contradicts', () => {
    const r = extractExpense(
      lines('SUB-TOTAL (GST)   24.00\nROUNDING   0.00\nTOTA!   10\nCASH   50\nCHANGE   26.00'),
    );
    expect(r.fields.amount).toBe(24);
    // "Pay" is a payment too.
    expect(
      extractExpense(lines('Qty   8   19.20\nRounding Adj   0.00\nPay   20.00\nChange   0.80')).fields.amount,
    ).toBe(19.2);
  });

  it('takes what was paid less the change when it equals the subtotal and the total (with cents) does not', () => {
    const r = extractExpense(
      lines('SUB-TOTAL (GST)   24.00\nTOTAL   29.00\nCASH   50.00\nCHANGE   26.00\nGST 6% INCLUDED IN TOTAL'),
    );
    expect(r.fields.amount).toBe(24);
    // Without the subtotal to back it, the labelled total stays.
    expect(extractExpense(lines('TOTAL   29.00\nCASH   50.00\nCHANGE   26.00')).fields.amount).toBe(29);
  });

  it("does not borrow the payment's amount for a total printed without one", () => {
    const r = extractExpense(lines('TOTAL QUANTITY   1\nTOTAL\nCASH   20.00\nCHANGE   16.00'));
    expect(r.fields.amount).toBe(4);
  });

  it('reads a cash amount with a zero too many after its cents ("RM CASH   100.000") less the change when the subtotal agrees', () => {
    const r = extractExpense(lines('SUBTOTAL   28.70\nRM CASH   100.000\nCHANGE   71.30\nINC 6% GST   1.62'));
    expect(r.fields.amount).toBe(28.7);
  });

  it('takes a total that includes the tax when the OCR read INCL as INOL', () => {
    const r = extractExpense(
      lines(
        'SUBTOTAL   2.56\nTOTAL (GST INOL)   2.56\nCAGH   50.55\nROUNDING ADJUSTMENTS   0.01-\nCHANGE DUE   48.00',
      ),
    );
    expect(r.fields.amount).toBe(2.56);
  });

  it('reads no amount paid in a date or a time stamped on a payment line', () => {
    const r = extractExpense(
      lines('Paid fine   30/04/2017 (Sn) 23: 14\nGST(Incl)   6.00 %   RM0.17\nPaid   RM3.00'),
    );
    expect(r.fields.amount).toBe(3);
  });

  it('takes what was paid less the change over a total the till rounded to 5 cents', () => {
    const r = extractExpense(
      lines('#TOTAL QTY   2\nTOTAL AMT.   60.31\nCASH.   RM   70.30\nCHANGE   RM   10.00'),
    );
    expect(r.fields.amount).toBe(60.3);
    // No change line: the amount handed over is no total.
    expect(extractExpense(lines('TOTAL   9.99\nCASH   10.00')).fields.amount).toBe(9.99);
  });

  it('does not take the amount handed over for the total when change was given back', () => {
    const r = extractExpense(
      lines('Total (Incl GST)   RM21.85\nRounding   RM0.00\nTotal Paid   RM50.00\nChange   RM28.15'),
    );
    expect(r.fields.amount).toBe(21.85);
  });

  it('takes the total after rounding, and the amount paid when the change printed is zero', () => {
    const r = extractExpense(
      lines('lotal Sales Incl. GST   48.93\nlotal After Rounding   48.95\nCASH   50.00'),
    );
    expect(r.fields.amount).toBe(48.95);
    const zero = extractExpense(lines('7OTAL   19.99\nCASH   20.00\nCHANGE   0.00'));
    expect(zero.fields.amount).toBe(20);
  });

  it('does not take the taxable amount for the total', () => {
    const r = extractExpense(
      lines(
        'SUBTOTAL   RM53.60\nCASH   RM100.00\nCHANGE   RM46.40\nTAXABLE AMOUNT   RM50.57\n6% GST   RM3.03',
      ),
    );
    expect(r.fields.amount).toBe(53.6);
  });

  it('counts a ROUNDING line whose D was misread', () => {
    const r = extractExpense(
      lines('Total   RM 30.91\nROUNUING ADJUSTMENI   -RM 0.01\n1OIAL ROUNGED   RM 30.90\nCASH   RM 51.00'),
    );
    expect(r.fields.amount).toBe(30.9);
  });

  it('without any total or payment, takes the largest amount with cents, not a postcode or a year', () => {
    const r = extractExpense(
      lines('50250 Kuala Lumpur\n30/05/18 11:01\n010100 Pay parking ticket   5.00 RM\nGST 6%   0.28 RM'),
    );
    expect(r.fields.amount).toBe(5);
    // With no amount with cents at all, the largest number is still the guess the user corrects.
    const noMoney = extractExpense(lines('BILL 2018\nITEMS 3'));
    expect(noMoney.fields.amount).toBe(2018);
  });
});

describe('a date box read again from the unflattened page (SROIE tuning samples, outside the held-out one)', () => {
  it('re-reads boxes that may hold a date, however misread, and no others', () => {
    for (const t of [
      'Date : 11/5/2013 13:14:32',
      ': 05-05-/:13 11:25:29',
      'DATE: 25B412017',
      '02/1a0/2017 10:49:25',
      '0ct 3, 2615 12:16:25 PM',
      'Date: 2212017',
      '03/0:/2018',
      '2023-04-12 14:05',
    ])
      expect(mayHoldDate(t)).toBe(true);
    for (const t of ['TOTAL   27.55', 'GST No:001507647438', 'Tel:016-7780546', 'SR @ 6%   8.21   0.49'])
      expect(mayHoldDate(t)).toBe(false);
  });

  it('takes the date most readings agree on', () => {
    // The first reading garbled, the re-readings agree.
    expect(
      chooseDateReading(': 05-05-/:13 11:25:29', [
        ':05-05-2018 11:25:29',
        ':05-05-2018 11:25:29',
        ': 05-05-/:13 11-25:29',
      ]),
    ).toBe(':05-05-2018 11:25:29');
    expect(
      chooseDateReading('0ct 3, 2615 12:16:25 PM', [
        '0ct 3,2016 12:16:25 PM',
        '0ct 3, 2016 12:16:25 PM',
        '0ct 3,2016 12:16:25 PM',
      ]),
    ).toBe('0ct 3,2016 12:16:25 PM');
    // A year's 8 read as 3 the first time, as 8 by two re-readings.
    expect(
      chooseDateReading('17/01/2013 4 2153', ['17/01/201842153', '17/01/2018 4 2153', '17/01/2018 4 2153']),
    ).toBe('17/01/2018 4 2153');
    // The first reading kept when it has the most votes, or when nothing else reads as a date.
    expect(
      chooseDateReading('Date: 20/10/2017', ['Date:20/10/2017', 'Date: 26/10/2017', 'Date:20/10/2017']),
    ).toBeNull();
    expect(chooseDateReading('Date: 2212017', ['Date: 2212017', 'Dete 212017', 'Date: 212017'])).toBeNull();
  });

  it('breaks a tie between two dates a look-alike digit apart by the inkier digit, any other tie by the first reading', () => {
    // 3 vs 8: fading takes strokes away, so the 8 is the one printed.
    expect(
      chooseDateReading('Date : 11/5/2013 13:14:32', [
        'Date:11/5/2018 13:14:32',
        'Date:11/5/2013 13:14:32',
        'Date:11/5/201813:14:32',
      ]),
    ).toBe('Date:11/5/2018 13:14:32');
    expect(
      chooseDateReading('06/03/2018 20:01', ['06/03/2018 20:01', '06/03/2016 20:01', '06/03/2016 20:01']),
    ).toBeNull();
    // Two dates two digits apart: the first reading's.
    expect(chooseDateReading('12/03/2018', ['12/03/2018', '21/03/2017', '21/03/2017'])).toBeNull();
  });

  it('takes a date only one re-reading found only when no reading found another', () => {
    expect(
      chooseDateReading('02/3a0/2017 10:49:25', [
        '02/Ja0/2017 10:49:25',
        '02/Jan/2017 10:49:25',
        '02/Ja0/2017',
      ]),
    ).toBe('02/Jan/2017 10:49:25');
    expect(chooseDateReading('02/06/18', ['02/06/18', '02/08/18', '02/06/18'])).toBeNull();
    expect(
      chooseDateReading('Date: 02/0:/18', ['Date: 02/08/18', 'Date: 02/06/19', 'Date: 02/0:/18']),
    ).toBeNull();
  });
});

describe('a two-digit-year date with one separator read as a space, as the last resort (SROIE tuning sample)', () => {
  it('reads dd mm-yy or dd-mm yy when nothing else on the receipt is a date', () => {
    const r = extractExpense(
      lines('INVOICE NO : 18299/102/T0230\n01:34PM   568017   05 02-18\nCASH RM 150.00'),
    );
    expect(r.fields.date).toBe('2018-02-05');
    expect(extractExpense(lines('TERMINAL 7\n05-02 18   14:22\nTOTAL 9.90')).fields.date).toBe('2018-02-05');
    expect(extractExpense(lines('TERMINAL 7\n05 02-18 14:22\nTOTAL 9.90')).fields.date).toBe('2018-02-05');
  });

  it('never before a real date, nor inside a longer number, a time or an impossible date', () => {
    const r = extractExpense(lines('REF 12 03-18\nDate: 04/05/2018\nTOTAL 9.90'));
    expect(r.fields.date).toBe('2018-05-04');
    for (const t of ['TEL 603 12 03-18', '12 03-1800', '10:12 03-18', '45 13-18'])
      expect(extractExpense(lines(`${t}\nTOTAL 9.90`)).fields.date).toBeNull();
  });
});
