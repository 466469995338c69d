/**
 * The exchange rate a receipt prints (issue 50, "Where money enters"): each way card slips and lei
 * receipts print it, the lines that only look like one, and the rate proposed to the user (one unit
 * of the receipt's currency in the user's, inverted when printed the other way). Text as the OCR
 * reads it; pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { parseRate, printedRates, rateOnLine, receiptRate } from '../src/ocr/fields/exchange-rate.js';
import { normalize, toLines } from '../src/ocr/text/lines.js';

const line = (text: string) => rateOnLine(normalize(text));

describe('the rate as receipts print it', () => {
  it.each([
    ['1 EUR = 4,9750 RON', { rate: 4.975, from: 'EUR', to: 'RON' }],
    ['Exchange rate 1 HUF = 0.0127 RON', { rate: 0.0127, from: 'HUF', to: 'RON' }],
    ['Tipo de cambio 1 EUR = 395,12 HUF', { rate: 395.12, from: 'EUR', to: 'HUF' }],
    ['CURS VALUTAR: 1 EUR = 4,9760 LEI', { rate: 4.976, from: 'EUR', to: 'RON' }],
    ['1 EUR=4.9750RON', { rate: 4.975, from: 'EUR', to: 'RON' }],
    ['1,00 EUR = RON 4,9750', { rate: 4.975, from: 'EUR', to: 'RON' }],
    ['1 GBP = 1.1650 €', { rate: 1.165, from: 'GBP', to: 'EUR' }],
    ['1 £ = 1,1650 EUR', { rate: 1.165, from: 'GBP', to: 'EUR' }],
    ['1 RON = 0,2010 EUR', { rate: 0.201, from: 'RON', to: 'EUR' }],
    ['1 EUR = 1.234,56 HUF', { rate: 1234.56, from: 'EUR', to: 'HUF' }],
    ['EUR/RON 4,9750', { rate: 4.975, from: 'EUR', to: 'RON' }],
    ['Rate: 4,9750 RON/EUR', { rate: 4.975, from: 'EUR', to: 'RON' }],
    ['Curs: 4,9768', { rate: 4.9768 }],
    ['CURS BNR 4,97', { rate: 4.97 }],
    ['Exchange rate: 0.0127', { rate: 0.0127 }],
    ['Curs EUR 4,9768', { rate: 4.9768, from: 'EUR' }],
    ['Curs 4,9768 LEI', { rate: 4.9768, to: 'RON' }],
    ['Tasa de cambio: 395,12', { rate: 395.12 }],
  ])('%s', (text, want) => {
    expect(line(text)).toEqual(want);
  });

  it.each([
    ['RON 95', 'an octane'],
    ['BENZINA 98 RON 45,00 L', 'an octane and litres'],
    ['TVA A = 19,00% 12,34', 'a VAT line with ='],
    ['VAT RATE 20% 5.00', 'a VAT rate'],
    ['IVA 21% = 7,81 €', 'a VAT line with a currency'],
    ['CAMBIO 5,00 €', 'the change given back (Spanish)'],
    ['TOTAL = 45,00 LEI', 'a total with ='],
    ['1 BUC x 45,00 = 45,00 LEI', 'a quantity times a price'],
    ['Pret unitar 6,72 LEI/L', 'a price per litre'],
    ['CURS 5', 'a label without a rate'],
    ['CURSA TAXI 25,00 LEI', 'a taxi ride'],
    ['1 EUR = 0,00 RON', 'no rate'],
    ['Ora 12:30 = 1 EUR', 'a time'],
  ])('%s: no rate (%s)', (text) => {
    expect(line(text)).toBeUndefined();
  });

  it('reads rate numbers the way rates are printed', () => {
    expect(parseRate('4,9750')).toBe(4.975);
    expect(parseRate('4.9750')).toBe(4.975);
    expect(parseRate('0,0127')).toBe(0.0127);
    expect(parseRate('1.234,56')).toBe(1234.56);
    expect(parseRate('1,234.56')).toBe(1234.56);
    expect(parseRate('395')).toBe(395);
    expect(parseRate('0')).toBeNull();
  });

  it('finds the rate among a card slip’s lines, and none on an ordinary receipt', () => {
    const slip = toLines(`MOL HUNGARY
OSSZESEN 25.000 Ft
DCC
Exchange rate 1 HUF = 0.0127 RON
Amount RON 317,50`);
    expect(printedRates(slip)).toEqual([{ rate: 0.0127, from: 'HUF', to: 'RON', conf: 0.9 }]);
    expect(
      printedRates(toLines('BON FISCAL\nMOTORINA RON 95\nTVA A=19,00% 12,34\nTOTAL 250,00 LEI')),
    ).toEqual([]);
  });
});

describe('the rate proposed: one unit of the receipt’s currency in the user’s', () => {
  const rates = (text: string) => printedRates(toLines(text));

  it('as printed when it is from the receipt’s currency to the user’s', () => {
    expect(receiptRate(rates('Exchange rate 1 HUF = 0.0127 RON'), 'HUF', 'RON')).toEqual({
      rate: 0.0127,
      conf: 0.9,
    });
    expect(receiptRate(rates('Tipo de cambio 1 EUR = 395,12 HUF'), 'EUR', 'HUF')?.rate).toBe(395.12);
  });

  it('inverted when printed the other way (a lei receipt, a euro user)', () => {
    expect(receiptRate(rates('1 EUR = 4,9750 RON'), 'RON', 'EUR')?.rate).toBe(0.2010050251);
    expect(receiptRate(rates('Tipo de cambio 1 EUR = 395,12 HUF'), 'HUF', 'EUR')?.rate).toBeCloseTo(
      1 / 395.12,
      10,
    );
  });

  it('none when the receipt is in the user’s currency, or the rate names a third currency', () => {
    expect(receiptRate(rates('1 EUR = 4,9750 RON'), 'RON', 'RON')).toBeUndefined();
    expect(receiptRate(rates('Exchange rate 1 HUF = 0.0127 RON'), 'HUF', 'EUR')).toBeUndefined();
    expect(receiptRate([], 'RON', 'EUR')).toBeUndefined();
  });

  it('a rate that names one side is taken as the pair’s', () => {
    expect(receiptRate(rates('Curs EUR 4,9768'), 'EUR', 'RON')?.rate).toBe(4.9768);
    expect(receiptRate(rates('Curs 4,9768 LEI'), 'RON', 'EUR')?.rate).toBe(0.200932326);
  });

  it('a rate that names neither side ("Curs: 4,9768") is oriented by the day’s reference rate', () => {
    const curs = rates('Curs: 4,9768');
    // A lei receipt scanned by a euro user: 1 RON ≈ 0.2011 EUR that day, so 4,9768 lei is one euro.
    expect(receiptRate(curs, 'RON', 'EUR', 0.2011)?.rate).toBe(0.200932326);
    // A euro receipt scanned by a lei user: as printed.
    expect(receiptRate(curs, 'EUR', 'RON', 4.97)?.rate).toBe(4.9768);
    // No reference rate known: no way to tell which way it goes, so none.
    expect(receiptRate(curs, 'RON', 'EUR')).toBeUndefined();
  });

  it('a rate far from the day’s reference rate (a misread) is not proposed; a card’s margin is', () => {
    // "4,9750" read without its comma.
    expect(receiptRate(rates('1 EUR = 49750 RON'), 'EUR', 'RON', 4.97)).toBeUndefined();
    // A conversion 8 % above the reference (dynamic currency conversion): the receipt's own rate.
    expect(receiptRate(rates('1 EUR = 5,3676 RON'), 'EUR', 'RON', 4.97)?.rate).toBe(5.3676);
  });
});
