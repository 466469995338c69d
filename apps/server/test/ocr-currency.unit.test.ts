/**
 * The currency a receipt was paid in (issue 50): every form receipts print it in, the false friends
 * (LEI inside a word, an octane, a bare "$"), and the one beside the total winning. Text as the OCR
 * reads it; pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { receiptCurrency } from '../src/ocr/fields/currency.js';
import { extractExpense } from '../src/ocr/kinds/expense.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { currencyMarks } from '../src/ocr/text/currencies.js';
import { normalize, toLines } from '../src/ocr/text/lines.js';
import { amounts } from '../src/ocr/text/numbers.js';

const codes = (line: string) => currencyMarks(normalize(line)).map((m) => m.code);
const read = (text: string, paid?: number) => receiptCurrency(toLines(text.trim()), paid);

describe('each currency as receipts print it', () => {
  it.each([
    ['TOTAL 250,00 LEI', 'RON'],
    ['TOTAL 250,00 lei', 'RON'],
    ['Total de plată 250,00 Lei', 'RON'],
    ['TOTAL RON 250,00', 'RON'],
    ['411.74LEI', 'RON'],
    ['TOTAL 250,00 LE1', 'RON'],
    ['€ 45.10', 'EUR'],
    ['45,10 €', 'EUR'],
    ['TOTAL 45,10€', 'EUR'],
    ['TOTAL EUR12,50', 'EUR'],
    ['IMPORTE 45,10 EUR', 'EUR'],
    ['TOTAL EUROS 45,10', 'EUR'],
    ['£32.40', 'GBP'],
    ['TOTAL £1,234.50', 'GBP'],
    ['Amount due GBP 32.40', 'GBP'],
    ['TOTAL $45.10', 'USD'],
    ['Total 45.10 USD', 'USD'],
    ['TOTAL US$ 45.10', 'USD'],
    ['ÖSSZESEN 25.000 Ft', 'HUF'],
    ['Total 25.000 HUF', 'HUF'],
    ['SUMA 123,45 zł', 'PLN'],
    ['SUMA 123,45 PLN', 'PLN'],
    ['СУМА 45,10 лв.', 'BGN'],
    ['TOTAL 45,10 BGN', 'BGN'],
    ['TOTAL CHF 45.10', 'CHF'],
    ['Total 45.10 CHF', 'CHF'],
    ['TOTAL 250,00 MDL', 'MDL'],
  ])('%s → %s', (line, code) => {
    expect(codes(line)).toEqual([code]);
    expect(read(line)?.value).toBe(code);
  });

  it('reads a price per litre in its currency ("6,72 LEI/L", "£/L")', () => {
    expect(codes('Pret unitar 6,72 LEI/L')).toEqual(['RON']);
    expect(codes('Price £/L 1.552')).toEqual(['GBP']);
  });

  it('still reads the amount beside a code the amounts reader did not know ("25.000Ft", "CHF45.10")', () => {
    expect(amounts('TOTAL 25.000Ft')).toEqual([25000]);
    expect(amounts('TOTAL CHF45.10')).toEqual([45.1]);
    expect(amounts('SUMA 123,45zł')).toEqual([123.45]);
  });
});

describe('false friends', () => {
  it.each([
    ['ULEI MOTOR 5W30', 'LEI inside a word (oil)'],
    ['LEIDEN STR. 4', 'LEI beginning a word'],
    ['ELECTRONIC PAYMENT', 'RON inside a word'],
    ['FRONT BRAKE PADS', 'RON inside a word'],
    ['RON 95  40.00 L', 'an octane after RON'],
    ['Benzina 98 RON', 'an octane before RON'],
    ['EURO 5 DIESEL', 'an emission standard'],
    ['EUROSUPER 95', 'a petrol'],
    ['Euro 95 sin plomo', 'a petrol, by its octane'],
    ['EUROWASH SRL', 'a vendor'],
    ['SOFT DRINK 2 x', 'FT inside a word'],
    ['LEFT 3 ft', 'feet without an amount'],
    ['$ERVICE STATION', 'a dollar sign read for an S'],
    ['S$ 12.50', 'another dollar'],
    ['ZLOTA 5', 'ZL beginning a word'],
  ])('%s: no currency (%s)', (line) => {
    expect(codes(line)).toEqual([]);
  });

  it('takes a bare "$" beside an amount for little', () => {
    const r = read('TOTAL 45,20 €\nREF $ 123.00');
    expect(r?.value).toBe('EUR');
    const alone = read('TICKET $ 123.00');
    expect(alone?.value).toBe('USD');
    expect(alone?.conf).toBeLessThan(0.75);
  });
});

describe('the currency beside the total wins', () => {
  it('a lei receipt that prints its total in euros too, and the rate', () => {
    const r = read(
      `
ULEI MOTOR 5W30            120,00
FILTRU ULEI                 35,50
TOTAL LEI                  155,50
TOTAL EUR                   31,25
CURS 1 EUR = 4,9760 LEI`,
      155.5,
    );
    expect(r?.value).toBe('RON');
    expect(r?.conf).toBeGreaterThanOrEqual(0.75);
  });

  it('a euro total among lines priced in pounds elsewhere', () => {
    expect(read('Item £12.00\nItem £3.00\nTOTAL PAYABLE € 17.40\nCARD € 17.40', 17.4)?.value).toBe('EUR');
  });

  it('an exchange-rate line alone says little', () => {
    const r = read('Curs BNR: 1 EUR = 4,9760 RON');
    expect(r?.conf ?? 0).toBeLessThan(0.5);
  });

  it("a receipt that prints no currency: none (the preview proposes the user's own)", () => {
    expect(read('TOTAL 45.10\nCASH 50.00\nCHANGE 4.90', 45.1)).toBeUndefined();
  });
});

describe('each kind proposes the currency beside its amount', () => {
  it('fuel (lei), expense (forint), service (euro), policy (pounds)', () => {
    const fuel = extractFuel(
      toLines(`BON FISCAL
MOTORINA  49,43 L x 6,72 LEI/L
TOTAL                 332,17 LEI
CARD                  332,17`),
    );
    expect(fuel.fields).toMatchObject({ fuelPrice: 332.17, currency: 'RON' });
    expect(fuel.confidence.currency).toBeGreaterThanOrEqual(0.75);

    const parking = extractExpense(toLines('PARKOLÁS\nÖSSZESEN 2.500 Ft\nTOTAL 2.500 Ft'));
    expect(parking.fields).toMatchObject({ amount: 2500, currency: 'HUF' });

    const service = extractRevision(toLines('TALLER\nCambio de aceite\nTOTAL 145,20 €'));
    expect(service.fields).toMatchObject({ price: 145.2, currency: 'EUR' });

    const policy = extractInsurance(toLines('Aviva\nPolicy number: DL-2913091\nTotal premium £1,428.69'));
    expect(policy.fields).toMatchObject({ price: 1428.69, currency: 'GBP' });

    const none = extractExpense(toLines('PARKING\nTOTAL 4.50'));
    expect(none.fields.currency).toBeNull();
    expect(none.confidence.currency).toBe(0);
  });
});
