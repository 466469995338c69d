/**
 * Issue 55 §3, fourth pass: the service invoice's odometer and date as a tilted, badly lit photo
 * reads them (a label a letter or three off, the reading on the row above its label, the unit
 * misread), and the work described without the table's columns. Pure functions: no image.
 */
import { describe, expect, it } from 'vitest';
import { fuzzyOdometerLabel, inMiles, unlabelledReading } from '../src/ocr/fields/odometer.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
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
