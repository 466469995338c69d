/**
 * Issue 55 §3, fourth pass: the service invoice's odometer and date as a tilted, badly lit photo
 * reads them (a label a letter or three off, the reading on the row above its label, the unit
 * misread), and the work described without the table's columns. Pure functions: no image.
 */
import { describe, expect, it } from 'vitest';
import { mendWords, misreadWorkLabel } from '../src/ocr/fields/description.js';
import { daysBefore, dueLabelEnd, paymentTerm } from '../src/ocr/fields/due-date.js';
import { fuzzyOdometerLabel, inMiles, odometer, unlabelledReading } from '../src/ocr/fields/odometer.js';
import { mendFromNextService } from '../src/ocr/fields/odometer-mend.js';
import { policyNumber } from '../src/ocr/fields/policy-number.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { findDates } from '../src/ocr/text/dates.js';
import { toLines } from '../src/ocr/text/lines.js';

const lines = (text: string) => toLines(text.trim());
const km = (text: string) =>
  extractRevision(lines(`TALLERES MARTINEZ S.L.\n${text}\nTOTAL 1.234,00`)).fields.km;

describe('an odometer label up to a letter in three off', () => {
  it.each([
    ['Matricula:9655KuM   Chometros: 123.362', 123362],
    ['Vehiculo   Knometros: 208.307', 208307],
    ['Registration:AB58CDE   Miieage in:8,523 miles', 13716],
    ['Matricula: 1089 KLM   Ki1ometraje: 109.387', 109387],
  ])('%s', (text, want) => {
    expect(km(text)).toBe(want);
  });

  it('finds the label word, not any long word', () => {
    expect(fuzzyOdometerLabel('CHOMETROS: 123.362')).toBe(9);
    expect(fuzzyOdometerLabel('MATRICULA: 1089 KLM')).toBe(-1);
    expect(fuzzyOdometerLabel('MANTENIMIENTO ANUAL')).toBe(-1);
  });

  it('takes no reading under 1,000 after a misread label (its second group lost)', () => {
    expect(km('Matricula:7723 KLM   Knometros: 208 J07')).toBeNull();
  });
});

describe('the reading beside its label', () => {
  it('on the row above a label alone on its line, not the amount with cents below it', () => {
    expect(km('Matricula: 4260 KLM   220.414\nKilometraje\nConcepto: Mantenimiento anual   268,82')).toBe(
      220414,
    );
  });

  it('in miles when the unit is on the row below the label', () => {
    const r = extractRevision(lines('SMITH& SONS GARAGE\nMileage in\n31,484 miles\nTOTAL   933.96'));
    expect(r.fields.km).toBe(50669);
  });

  it('reads "miles" a letter off', () => {
    expect(inMiles('MILEAGE 139.056 MDLES')).toBe(true);
    expect(inMiles('MILEAGE 139.056 MLES')).toBe(true);
    expect(inMiles('KILOMETRAJE 139.056 KM')).toBe(false);
    expect(km('Registraton AB61 CODE   Mileage 139.056 mdles')).toBe(223789);
  });
});

describe("a service invoice's reading whose label the photo lost", () => {
  const invoice = (vehicle: string) => `TALLERES MARTINEZ S.L.
FACTURA
Factura 1758   Fecha: 27 de marzo de 2024
Vencimiento: 26 de abril de 2024
${vehicle}
Bastidor VF18362191827983P   2019
Descripcion   Cant.   Precio   Importe
Mano de obra   3h   136,72   410,16
Base imponible   691,00
TOTAL FACTURA   836,11
Proxima revision a los 216.884 km`;

  it('is the one number grouped in thousands above the priced table', () => {
    expect(extractRevision(lines(invoice('VaiCAa MUOLKLM   206.884'))).fields.km).toBe(206884);
  });

  it('is none when two such numbers are there, or none at all', () => {
    expect(unlabelledReading(lines(invoice('VaiCAa 12.500 MUOLKLM   206.884')))).toBeNull();
    expect(extractRevision(lines(invoice('VaiCAa MUOLKLM'))).fields.km).toBeNull();
  });

  it("is a service invoice's rule only: a fuel slip's litres are grouped like thousands", () => {
    const slip = lines('REPSOL\nGASOLEO A\nLitros 45.123\nTOTAL 62,18');
    expect(unlabelledReading(slip)?.value).toBe(45123);
    expect(extractFuel(slip).fields.odometer ?? null).toBeNull();
  });
});

describe('a short month a letter off between a day and a year', () => {
  it.each([
    // Its first letter faded, between dashes or slashes: the one month whose short names end so.
    ['DUTR:12-AN-2023', '2023-01-12'],
    ['12/EB/24', '2024-02-12'],
    // A digit read for one of its letters.
    ['DUE SUTE 11 FE8-2023', '2023-02-11'],
    ['12 AU6 2024', '2024-08-12'],
  ])('%s', (text, iso) => {
    expect(findDates(text).map((d) => d.iso)).toEqual([iso]);
  });

  it('takes no two letters that end no month, nor digits alone', () => {
    expect(findDates('TOTAL 12-AB-2023')).toEqual([]);
    expect(findDates('REF 12 345 2023')).toEqual([]);
  });
});

describe("the invoice's date from its due date less the payment term it prints", () => {
  const invoice = (head: string, due: string, foot: string) =>
    lines(`SERVICIO OFICIAL SEAT
FACTURA
${head}
${due}
Matricula: 7723 KLM   Kilometros: 208.307
Mano de obra - Mantenimiento anual   2h   241,00   482,00
TOTAL   1324,10
${foot}`);

  it('finds the due label a letter in three off, and the term a letter off', () => {
    expect(dueLabelEnd('CHENTE GARCIA LOPEZ   VONCIMENTO 07/10/24')).toBe(32);
    expect(dueLabelEnd('CUSAOMER.:J SMTH   DUE SUTE 11 FEB-2023')).toBe(27);
    expect(dueLabelEnd('MANO DE OBRA - MANTENIMIENTO ANUAL')).toBe(-1);
    expect(paymentTerm(lines('Paugp a 30 das Gacas por su canrfara.'))).toBe(30);
    expect(paymentTerm(lines('Plata In 30 de rile V3 multumim!'))).toBe(30);
    expect(paymentTerm(lines('Payment within 30 days.'))).toBe(30);
    expect(paymentTerm(lines('Gracias por su visita'))).toBeNull();
    expect(daysBefore('2024-03-01', 30)).toBe('2024-01-31');
  });

  it('is the due date less the term when the invoice date was lost', () => {
    const r = extractRevision(
      invoice('Facturn n 4140   Fecho: 07/0', 'Chente GARCIA LOPEZ   Voncimento 07/10/24', 'Pago a 30 dias.'),
    );
    expect(r.fields.date).toBe('2024-09-07');
  });

  it('is not the due date when the invoice date was read', () => {
    const r = extractRevision(
      invoice(
        'Factura n 4140   Fecha: 07/09/24',
        'Cliente GARCIA LOPEZ   Voncimento 07/10/24',
        'Pago a 30 dias.',
      ),
    );
    expect(r.fields.date).toBe('2024-09-07');
  });

  it('stays the date read when no term is printed', () => {
    const r = extractRevision(
      invoice('Factura n 4140', 'Cliente GARCIA LOPEZ   Vencimiento 07/10/24', 'Gracias.'),
    );
    expect(r.fields.date).toBe('2024-10-07');
  });
});

describe("an odometer label glued to its reading, at a column's start, and the invoice's foot", () => {
  it('reads a label glued to its number', () => {
    expect(km('Regs/Bon ABS5CDE   Odometer96139 mies')).toBe(154721);
    expect(km('No. inmatriculare B 058 XYZ   KM31780')).toBe(31780);
  });

  it('reads a bare "Km" that starts a column (three spaces before it), not one inside an address', () => {
    // odometer() alone: no service invoice's unlabelled reading behind it.
    expect(odometer(lines('MariCufa 60/BKL M   Km 169 238'))?.value).toBe(169238);
    expect(km('Ctra. N-340 km 12 Malaga')).toBeNull();
  });

  it("takes no unlabelled distance from the invoice's foot: the next service's", () => {
    const foot = (reading: string) =>
      extractRevision(
        lines(`TALLERES MARTINEZ S.L.
Fecha: 28-12-2023
Vehiculo
${reading}
Mano de obra   1.5h   206,47   309,70
TOTAL FACTURA   1590,68
Pyoxirua reviudn s los 1 79738 km`),
      ).fields.km;
    expect(foot('MariCufa 60/BKL M')).toBeNull();
    expect(foot('MariCufa 60/BKL M   Kilometros: 169.238')).toBe(169238);
  });

  it('reads no plate as a reading grouped by a space ("8 058 xV2": B 058)', () => {
    expect(unlabelledReading(lines('No. inma0nciare 8 058 xV2\nTOTAL 2.316,02'))).toBeNull();
    expect(unlabelledReading(lines('No. inma0nciare B 058 XYZ   76 320\nTOTAL 2.316,02'))?.value).toBe(76320);
  });

  it('reads no unlabelled reading below the total when no amount with cents was read', () => {
    expect(unlabelledReading(lines('FACTURA FISCALA\nVehiod\nTOTAL DE PLATA\nev2ela124.600km'))).toBeNull();
  });
});

describe('the work described without the next column', () => {
  it.each([
    ['Concepto: Mantenimiento anual   268,82', 'Mantenimiento anual'],
    ['Mano de obra : Mantenimiento anual   2h   241.00', 'Mantenimiento anual'],
  ])('%s', (text, want) => {
    expect(extractRevision(lines(`TALLERES MARTINEZ S.L.\n${text}\nTOTAL 1.234,00`)).fields.description).toBe(
      want,
    );
  });
});

describe('the work after a work label a letter off, and the price at its end', () => {
  const work = (text: string) =>
    extractRevision(lines(`GARAJUL LUI ION SRL\n${text}\nTOTAL 1.234,00`)).fields.description;

  it('drops a price with cents at the end of the work line', () => {
    expect(work('Work: Brake pads replaced 58.06')).toBe('Brake pads replaced');
  });

  it.each([
    ['Luerare: Revizle anuala', 'Revizie anuala'],
    ['LncrareRevizie completa', 'Revizie completa'],
    ['Trabajo realrado:Mantenimuento anual', 'Mantenimiento anual'],
  ])('%s', (text, want) => {
    expect(work(text)).toBe(want);
  });

  it('finds the label only at the start of a line, a whole word or glued to a capital', () => {
    expect(misreadWorkLabel(lines('Luerare: Revizie anuala'))?.text).toBe('Revizie anuala');
    expect(misreadWorkLabel(lines('Ulei motor 5w 30'))).toBeNull();
    expect(misreadWorkLabel(lines('Luminare auto'))).toBeNull();
  });

  it('takes the labour row over a misread label whose work reads in fewer known words', () => {
    expect(
      work('Concepte: Mantenimiente anust\nMano de obra : Mantenimiento anual   2h   241.00   483.76'),
    ).toBe('Mantenimiento anual');
  });
});

describe("a word a letter off two languages' words: the description's language", () => {
  it('reads "complets" as Romanian after "Distribuție"', () => {
    expect(mendWords('Distribuție complets')).toBe('Distribuție completa');
    expect(mendWords('Revision completp')).toBe('Revision completo');
  });
});

describe("a date with its year's zero misread after a month name, or glued after its label", () => {
  it.each([
    ['Fecha:17 de febrero de 2923', '2023-02-17'],
    ['DATE 12 MAR 2823', '2023-03-12'],
    ['Fecha:2704/25', '2025-04-27'],
    ['Fecha: 2704/2025', '2025-04-27'],
  ])('%s', (text, iso) => {
    expect(findDates(toLines(text)[0]?.norm ?? '').map((d) => d.iso)).toEqual([iso]);
  });

  it('reads no glued day and month without a date label, nor a year 29xx as 20xx', () => {
    expect(findDates('ORDER 1234/25')).toEqual([]);
    expect(findDates('TOTAL 12 MAR 2899')).toEqual([]);
  });

  it('takes the date after "Fecha" on a due date\'s line, not less the term', () => {
    const r = extractRevision(
      lines('FACTURA\nFaetm m6350   Vencsento2705/25 Fecha:2704/25\nTOTAL 1.234,00\nPago a 30 dias.'),
    );
    expect(r.fields.date).toBe('2025-04-27');
  });
});

describe("fourth set: a term glued to the next word, the labour row's work, dd mm yy after a label", () => {
  it('reads the payment term with the next word glued to it, and not a longer word', () => {
    expect(paymentTerm(lines('Ph 30dayTankofo y'))).toBe(30);
    expect(paymentTerm(lines('IVA 21% 30 DIAMETRO'))).toBeNull();
    const r = extractRevision(
      lines(`INVOICE
Invoice No.4466   Date 2025-00-22
Customen 1.SMII4 ElmRoad   Due date:2025-10-22
AMOUNTDUE   2075.88
Ph 30dayTankofo y`),
    );
    expect(r.fields.date).toBe('2025-09-22');
  });

  it.each([
    ['Latonr-Full service   3hrs   204.70   614.40', 'Full service'],
    ['Manopera-Distributie completa   2ore   437.83   875.66', 'Distribuție completa'],
    // A dash after words that name the work stays.
    ['Cambio de aceite - filtros   1   30,00', 'Cambio de aceite - filtros'],
  ])("takes the work after the labour row's dash: %s", (row, want) => {
    const r = extractRevision(lines(`AUTO SERVICE\nFACTURA\n${row}\nTOTAL 1.234,00`));
    expect(r.fields.description).toBe(want);
  });

  it('reads dd mm yy with spaces only after a date label', () => {
    expect(findDates('FACTURA MW.7744   DATA 09 12 25').map((d) => d.iso)).toEqual(['2025-12-09']);
    expect(findDates('TEL 09 12 25')).toEqual([]);
  });
});

describe("a reading whose last group the photo damaged, mended from the next service's distance", () => {
  const invoice = (reading: string, next: string) =>
    extractRevision(
      lines(`AUTOMOCION RUIZ
FACTURA
Fecha:20-DIC-2023
Matricula 1940KLM   ${reading}
Mano de obra -Revision oficial   3h   357,19   1071,58
TOTAL   2360,83
${next}`),
    ).fields.km;

  it('takes the last three digits of the next service, a whole number of thousands later', () => {
    expect(invoice('Km: 145.%4 km', 'Pnicimarevisiona los155.964km')).toBe(145964);
  });

  it('is none when the legible digits disagree, or no next service is printed', () => {
    expect(invoice('Km: 145.%7 km', 'Pnicimarevisiona los155.964km')).toBeNull();
    expect(invoice('Km: 145.%4 km', 'Gracias')).toBeNull();
  });

  it('leaves an undamaged reading alone', () => {
    const read = lines('Km: 145.964 km\nProxima revision a los 155.964 km');
    expect(read[0] && mendFromNextService(': 145.964 km', read, read[0])).toBeNull();
    expect(invoice('Km: 145.964 km', 'Proxima revision a los 155.964 km')).toBe(145964);
  });
});

describe('policy-number labels as printed and misread', () => {
  it('reads "Poliță RCA nr." with the number on the line below', () => {
    const r = extractInsurance(
      lines(
        'GROUPAMA ASIGURARI S.A.\nPOLITA DE ASIGURARE CASCO\n1. Date polita\nPolita RCA nr.\n42002254\nValabila de la',
      ),
    );
    expect(r.fields.policyNumber).toBe('42002254');
  });

  it.each([
    ['Polia RCAr.47082153', '47082153'],
    ['Polita CASCO nr. 42002254', '42002254'],
    // "Nº" read as "na".
    ['Poiiza na 31860977   Fechademision:14/1/2025', '31860977'],
    // "Nº" read as "N'", glued to the number.
    ["N'POL79329647   Fechdems:24di de2025", 'POL79329647'],
  ])('%s', (text, want) => {
    expect(policyNumber(toLines(text)[0]?.norm ?? '')).toBe(want);
  });
});

describe("a policy's end year read a look-alike digit off, before its start", () => {
  it('is the year that makes a whole term from the start (2020 for 2026)', () => {
    const r = extractInsurance(
      lines(`LINEA DIRECTA
CONDICIONES PARTICULARES
Numero de poliza 36240971
Efecto   Vencimiento
0510 2025   0410 2020
Prima total anual   2.829,58`),
    );
    expect(r.fields.startDate).toBe('2025-10-05');
    expect(r.fields.endDate).toBe('2026-10-04');
  });

  it('leaves an end no look-alike year mends', () => {
    const r = extractInsurance(
      lines(`LINEA DIRECTA
Numero de poliza 36240971
Efecto   Vencimiento
0510 2025   0410 2021
Prima total anual   2.829,58`),
    );
    expect(r.fields.endDate).not.toBe('2026-10-04');
  });
});
