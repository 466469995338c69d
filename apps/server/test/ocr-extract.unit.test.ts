/**
 * Receipt field extraction on text as the OCR reads real receipts: short excerpts of the public
 * SROIE receipts (Malaysia) the engine was measured on (npm run eval:ocr:public), and the Spanish
 * and Romanian forms of the same patterns. Pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { sroieDate, sroieTotal } from '../ocr-dev/public-labels.js';
import { extractExpense } from '../src/ocr/kinds/expense.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { findDates } from '../src/ocr/text/dates.js';
import { toLines } from '../src/ocr/text/lines.js';
import { amounts } from '../src/ocr/text/numbers.js';

const expense = (text: string) => extractExpense(toLines(text.trim()));

describe('amounts as receipts print them', () => {
  it('reads a currency code glued to the number', () => {
    expect(amounts('Total Amount: RM7.72')).toEqual([7.72]);
    expect(amounts('Rounding: -RM0.02')).toEqual([0.02]);
    expect(amounts('TOTAL EUR12,50')).toEqual([12.5]);
  });

  it('joins a price the OCR split at its decimal point', () => {
    expect(amounts('CASH :                           200. 00')).toEqual([200]);
  });
});

describe('dates with month names between dashes or slashes, and two-digit years', () => {
  it.each([
    ['05-Jan-2017 03:17:50 PM', '2017-01-05'],
    ['27/MAY/2018', '2018-05-27'],
    ['30 Dec 17 18:40:57', '2017-12-30'],
    ['DATA: 1 mai 2024', '2024-05-01'],
  ])('%s', (text, iso) => {
    expect(findDates(toLines(text)[0]?.norm ?? '')[0]?.iso).toBe(iso);
  });
});

describe('the total paid', () => {
  it('skips item counts, totals before tax and the tax, and takes the total including it', () => {
    const r = expense(`
Total QTY: 6
Total (Excluding GST):              6.62
GST payable (6%):                   0.38
Total (Inclusive of GST):           7.00
CASH :                            7.00`);
    expect(r.fields.amount).toBe(7);
  });

  it('takes the amount after rounding, not the one before it', () => {
    const r = expense(`
Total Amount: RM7.72
GST @0%: RM0.00
Rounding: -RM0.02
Nett Total: RM7.70
CASH                                      RM7.70
Change                                    RM0.00`);
    expect(r.fields.amount).toBe(7.7);
  });

  it('ignores a per-tax-rate breakdown and takes the total payable', () => {
    const r = expense(`
Total 6% supplies: 27.45
Total 6% supplies (excl. GST): 21.84
Total 0% supplies: 23.15
Total Payable: 50.60`);
    expect(r.fields.amount).toBe(50.6);
  });

  it('reads a total printed without its decimal point when cash minus change vouches for it', () => {
    const r = expense(`
SUB TOTAL                           10.00
GRAND TOTAL                         1000
CASH 20.00 MYR                      20.00
CHANGE DUE                          10.00`);
    expect(r.fields.amount).toBe(10);
  });

  it('reads a decimal point the OCR took for a space, on the total and on the change', () => {
    const r = expense(`
Total Amt Payabie :         7950 /
Paid Amount           100.00
Change :            20 50`);
    expect(r.fields.amount).toBe(79.5);
  });

  it('takes a faded INCL read as INCI for a total including the tax', () => {
    const r = expense(`
Sub-total                        42.46
Total After Adj Inci GST         42.50
Total                            40.07    2.43`);
    expect(r.fields.amount).toBe(42.5);
  });

  it('does not take a "rest area" for the change, nor noise after the amount for the amount', () => {
    const r = expense(`
PAGOH REST AND SERVICE AREA
8.00
Total Amount: $6.80
Nett Total: $6.90                    7
CASH          _                     $6.90`);
    expect(r.fields.amount).toBe(6.9);
  });

  it('takes a Spanish total that includes the VAT', () => {
    const r = expense(`
Base imponible        37,36
IVA 21%                7,84
TOTAL (IVA INCLUIDO)  45,20 €
EFECTIVO              50,00
CAMBIO                 4,80`);
    expect(r.fields.amount).toBe(45.2);
  });

  it('takes a Spanish cash sale by what was handed over less the change, and an English TOTAL PAID', () => {
    const es = expense(`
Lavado exterior        12,00
TOTAL 12,00 EUR 45 T
ENTREGADO              20,00
A DEVOLVER              8,00`);
    expect(es.fields.amount).toBe(12);
    const en = expense(`
Car wash deluxe       £9.00
TOTAL PAID            £9.00
CARD                  £9.00`);
    expect(en.fields.amount).toBe(9);
  });

  it('keeps a Romanian receipt right: TOTAL DE PLATĂ, not the VAT total', () => {
    const r = expense(`
TOTAL TVA              19,00
TOTAL DE PLATĂ        119,00 LEI
NUMERAR               120,00
REST                    1,00`);
    expect(r.fields.amount).toBe(119);
  });

  it('falls back to cash minus change, marked unsure, when no total is labelled', () => {
    const r = expense(`
Mee Goreng                  9.50
CASH                      100.00
CHANGE                     90.50`);
    expect(r.fields.amount).toBe(9.5);
    expect(r.confidence.amount).toBeLessThanOrEqual(0.5);
  });

  it('reads a fuel receipt whose total carries a currency prefix', () => {
    const r = extractFuel(
      toLines(`
SHELL ISNI PETRO TRADING
V-Power 97   20.00 L x RM2.30
TOTAL RM46.00`),
    );
    expect(r.fields).toMatchObject({ liters: 20, pricePerLiter: 2.3, fuelPrice: 46 });
  });
});

describe('reading the public set labels (eval:ocr:public)', () => {
  it.each([
    ['25/12/2018', '2018-12-25'],
    ['12-01-19', '2019-01-12'],
    ['20180304', '2018-03-04'],
    ['25032018', '2018-03-25'],
    ['(06/12/2016)', '2016-12-06'],
    ['05-JAN-2017', '2017-01-05'],
    ['OCT 9, 2017', '2017-10-09'],
    ['not a date', null],
  ])('date %s', (label, iso) => {
    expect(sroieDate(label)).toBe(iso);
  });

  it('totals with currency prefixes and thousands separators', () => {
    expect(sroieTotal('RM 12.50')).toBe(12.5);
    expect(sroieTotal('$8.20')).toBe(8.2);
    expect(sroieTotal('1,234.00')).toBe(1234);
    expect(sroieTotal('')).toBeNull();
  });
});
