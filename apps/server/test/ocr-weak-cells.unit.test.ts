/**
 * The weakest kind × language cells of issue 55 §3, on the exact strings the issue names and as the
 * OCR reads them off tilted, badly lit photos: English policy numbers in slashes or groups, Romanian
 * premium labels, a fuel slip's "47,85 L x 7,61" line, a service invoice's "KM: 76.320".
 * Pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { allowedClasses, ctcDecode } from '../src/ocr/engines/ctc.js';
import { isWeak, surer } from '../src/ocr/engines/weak-reread.js';
import { coverOf, nearestCover } from '../src/ocr/fields/cover.js';
import { mendWords } from '../src/ocr/fields/description.js';
import { fuelType } from '../src/ocr/fields/fuel-type.js';
import { provider } from '../src/ocr/fields/insurer.js';
import { joinThousands } from '../src/ocr/fields/odometer.js';
import { policyNumber } from '../src/ocr/fields/policy-number.js';
import { extractExpense } from '../src/ocr/kinds/expense.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { findDates } from '../src/ocr/text/dates.js';
import { toLines } from '../src/ocr/text/lines.js';
import { amountTokens, parseNumber } from '../src/ocr/text/numbers.js';

const lines = (text: string) => toLines(text.trim());
const norm = (text: string) => toLines(text)[0]?.norm ?? '';

describe('English policy numbers in slashes or in groups, not a stray digit group', () => {
  it.each([
    ['Policy number: AXA/MT/25/0048217', 'AXA/MT/25/0048217'],
    ['Policy No. MPC 3117 9042', 'MPC 3117 9042'],
    // The OCR spaces the slashes out, or joins the groups.
    ['Policy No. AXA / MT / 25 / 0048217', 'AXA/MT/25/0048217'],
    ['Policy No. AXA/MT/25/ 0048217', 'AXA/MT/25/0048217'],
    ['Policy ref: MPC 31179042', 'MPC 31179042'],
    // The next column (three spaces or more) is not part of it.
    ['Policy ref: MPC 3117 9042   Date of issue: 03/02/2025', 'MPC 3117 9042'],
    // The gap after the letters widened, or one between the groups; the slashes read as bars or lost.
    ['Policy No.   MPC   3117 9042', 'MPC 3117 9042'],
    ['Policy No. MPC 3117  9042', 'MPC 3117 9042'],
    ['Policy number: AXA|MT|25|0048217', 'AXA/MT/25/0048217'],
    ['Policy number: AXA MT 25 0048217', 'AXA MT 25 0048217'],
  ])('%s', (text, want) => {
    expect(policyNumber(norm(text))).toBe(want);
  });

  it('takes the grouped number on a schedule, not the customer-service phone number', () => {
    const r = extractInsurance(
      lines(`
ADMIRAL
Customer services 0345 512 0000
MOTOR INSURANCE POLICY SCHEDULE
Policy No. MPC 3117 9042
Annual premium £634.20`),
    );
    expect(r.fields.policyNumber).toBe('MPC 3117 9042');
    expect(r.fields.price).toBe(634.2);
  });

  it.each([
    // A single space before the start date's year: the year is the next column, not a fourth group.
    ['MPC 3117 9042 2024-03-11 2025-03-10', 'MPC 3117 9042'],
    ['MPC   3117 9042   11/03/2024   10/03/2025', 'MPC 3117 9042'],
    ['AXA|MT|25|0048217   11/03/2025   10/03/2026', 'AXA/MT/25/0048217'],
  ])('reads the number under its heading in "%s"', (row, want) => {
    const r = extractInsurance(lines(`ADMIRAL\nPolicy number   Start date   End date\n${row}`));
    expect(r.fields.policyNumber).toBe(want);
  });

  it('reads the number below a "Policy ret" (ref) label that stands alone', () => {
    const r = extractInsurance(lines('LV=\nPolicy ret\nAXA/MT/25/0048217\nTotal premium   £3054.11'));
    expect(r.fields.policyNumber).toBe('AXA/MT/25/0048217');
  });

  it("names the insurer of the letterhead, not another insurer's prefix in the policy number", () => {
    const doc = lines(`
AVIVA
Customer services 0345 550 0000
CERTIFICATE OF MOTOR INSURANCE
Policy number   Start date   End date
AXA/MT/25/0048217   09.03.2025   08.03.2026`);
    expect(provider(doc).value).toBe('Aviva');
    expect(extractInsurance(doc).fields.policyNumber).toBe('AXA/MT/25/0048217');
  });
});

describe('a Romanian policy number after a misread "Nr. poliță"', () => {
  it.each(['NR.P0ITA: 71159407   DATA EMITERII 29.03.2024', 'Nr. POLTA 71159407', 'Nr. poliță: 71159407'])(
    '%s',
    (text) => {
      expect(extractInsurance(lines(`ALLIANZ-TIRIAC ASIGURARI S.A.\n${text}`)).fields.policyNumber).toBe(
        '71159407',
      );
    },
  );
});

describe('the annual premium, not an instalment', () => {
  it.each([
    'Annual premium   £634.20\nMonthly premium   £52.85\nPayable in 12 instalments of £52.85',
    'Monthy premium   £52.85\nAnnual premium   £634.20',
    'Monthly instalment 1   19.09.2024   52.85\nMonthly instalment 2   19.10.2024   52.85\nTotal annual premium   £634.20',
    'Annual premium\n£634.20\nMonthly premium\n£52.85',
    'Annual premium 2024/25   £634.20\nInstalment amount   £52.85',
  ])('%s', (text) => {
    const r = extractInsurance(lines(`ADMIRAL\nPolicy No. MPC 3117 9042\n${text}`));
    expect(r.fields.price).toBe(634.2);
  });

  it.each([
    ['Prima de asigurare   1.234,56 lei\nRata 1   617,28 lei\nRata 2   617,28 lei', 1234.56],
    ['Prima de asigurare\n1.234,56 lei\nPlata în 2 rate de 617,28 lei', 1234.56],
    ['Total de plată   1.234,56 lei\nPrima de referinta   1.500,00 lei', 1234.56],
    ['Total de plata   1.234,56 lei\nPlata in 12 rate lunare de 102,88 lei', 1234.56],
  ])('Romanian: %s', (text, price) => {
    expect(extractInsurance(lines(`ALLIANZ TIRIAC\n${text}`)).fields.price).toBe(price);
  });
});

describe('the odometer on a service invoice: "KM: 76.320" is 76,320 km, not 76', () => {
  it.each([
    ['KM: 76.320', 76320],
    // The thousands point read as a space, or as a point and a space.
    ['KM: 76 320', 76320],
    ['KM 76. 320', 76320],
    ['Nr. înmatriculare: B 729 XYZ   KM: 76 320', 76320],
    ['Data: 12.03.2025   KM: 76.320', 76320],
    ['KM: 76.32O', 76320],
    // "Kilometraj" with its m read as an n.
    ['Kilonetraj   76.320', 76320],
  ])('%s', (text, km) => {
    expect(extractRevision(lines(`AUTO SERVICE DACIA SRL\n${text}\nTOTAL 1.234,00 LEI`)).fields.km).toBe(km);
  });

  it('joins only groups of three digits', () => {
    expect(joinThousands('KM: 76 320')).toBe('KM: 76320');
    expect(joinThousands('Km 12 345 678')).toBe('Km 12345678');
    expect(joinThousands('Pompa 4 12,50')).toBe('Pompa 4 12,50');
  });
});

describe('a fuel slip\'s "47,85 L x 7,61" line', () => {
  it('is 47.85 litres at 7.61, whose product is the total', () => {
    const r = extractFuel(
      lines('OMV PETROM MARKETING SRL\n47,85 L x 7,61\nMOTORINA 364,14 A\nTOTAL 364,14 LEI'),
    );
    expect(r.fields).toMatchObject({ liters: 47.85, pricePerLiter: 7.61, fuelPrice: 364.14 });
  });

  it.each([
    // Its decimal point lost, moved or read as a space on a tilted photo: the total decides.
    '47 85 L x 7,61\nTOTAL 364,14 LEI',
    '4 7,85 L x 7,61\nTOTAL 364,14 LEI',
    '4,785 L x 7,61\nTOTAL 364,14 LEI',
    // Split over two lines.
    '47,85 L x\n7,61 364,14\nTOTAL 364,14 LEI',
    // A row whose headings were not read (or read garbled), its amount misread: the total decides.
    '47,85   7,61   364,14\nTOTAL 364,14 LEI',
    'Ltri   Prt/L   Tota1\n47,85   7,61   364,74\nTOTAL   364,14 LEI',
  ])('%s', (text) => {
    const r = extractFuel(lines(`OMV PETROM MARKETING SRL\n${text}`));
    expect(r.fields).toMatchObject({ liters: 47.85, pricePerLiter: 7.61, fuelPrice: 364.14 });
  });

  it('takes the price with three decimals when it comes first in the row ("6.326   61.20   387,15")', () => {
    const r = extractFuel(
      lines('ROMPETROL\nLitri   Total\nPret/litru\n6.326   61.20   387,15\nTOTAL LEI   387,15 LEI'),
    );
    expect(r.fields).toMatchObject({ liters: 61.2, pricePerLiter: 6.326, fuelPrice: 387.15 });
  });

  it('finds litres and a three-decimal price apart on a slanted slip when they make an amount printed to the cent', () => {
    const r = extractFuel(
      lines(
        'TESCO\nDiesel   Value\nLitres   Unit price   97.14\n1.455\n66.76   97.14\nTOTAL DUE   150.00\nCASH   52.86',
      ),
    );
    expect(r.fields).toMatchObject({ liters: 66.76, pricePerLiter: 1.455, fuelPrice: 97.14 });
  });

  it('reads a quantity whose decimal point became a space, and "Unit price" as the price per litre', () => {
    const r = extractFuel(lines('BP\nQuantity   54 88 litres\nUnit price   1.740\nTOTAL   95.49'));
    expect(r.fields).toMatchObject({ liters: 54.88, pricePerLiter: 1.74, fuelPrice: 95.49 });
  });

  it('does not take an amount beside the odometer label as the reading ("Kilometraj   55,98 RON")', () => {
    const r = extractFuel(
      lines('ROMPETROL\n57,63 L x 6,49 RON/L\nKilometraj   55,98 RON\n201.245\nTOTAL 374,02 RON'),
    );
    expect(r.fields.odometer).toBe(201245);
  });
});

describe('the fuel named on a slip', () => {
  it.each([
    ['Surtidor 2 DlESEL e+', 'DIESEL'],
    ['Dtesel\nTOTAL   95.49', 'DIESEL'],
    ['Gasolina 95', 'PETROL'],
  ])('%s', (text, want) => {
    expect(
      fuelType(
        toLines(text)
          .map((l) => l.norm)
          .join('\n'),
      )?.value,
    ).toBe(want);
  });

  it('is no petrol because an amount starts with 95', () => {
    expect(fuelType('TOTAL   95.49')).toBeNull();
  });
});

describe('descriptions with a word the OCR split or misread by a letter', () => {
  it('joins the halves of a split work word, a 0 read for its o', () => {
    expect(mendWords('Reparación embr ague')).toBe('Reparación embrague');
    expect(mendWords('Neumatic 0s 205/55 R16')).toBe('Neumaticos 205/55 R16');
    expect(extractExpense(lines('Reparacion embr ague   245,10\nTOTAL   245,10')).fields.description).toBe(
      'Reparación embrague',
    );
  });

  it('puts back a letter a long work word lost', () => {
    expect(mendWords('Reparație aternator')).toBe('Reparație alternator');
    expect(mendWords('Inlocuire pllcute')).toBe('Inlocuire placute');
    expect(mendWords('Oil and fiter change')).toBe('Oil and filter change');
    // Two letters off ("ceitey": the a lost, the next word's y glued on) is not one word misread.
    expect(mendWords('Cambio de ceitey')).toBe('Cambio de ceitey');
  });

  it('takes the work after its label when the colon was read as a point', () => {
    const r = extractRevision(
      lines('AUTOMOCION RUIZ\nConcepto.kit de distribucion\nTOTAL A PAGAR   1850.81'),
    );
    expect(r.fields.description).toBe('kit de distribución');
  });

  it('drops a work label the OCR broke up before its colon', () => {
    const r = extractRevision(
      lines('SERVICIO OFICIAL SEAT\nCc Icepto: Sustitucion pastillas de freno\nIMPORTE TOTAL   1.101,57'),
    );
    expect(r.fields.description).toBe('Sustitución pastillas de freno');
  });

  it('leaves words alone that are already words, short, or near no single known word', () => {
    expect(mendWords('Oil and filter change')).toBe('Oil and filter change');
    // Both halves words of their own: two words, not one.
    expect(mendWords('Car park')).toBe('Car park');
    // A short word with no other work word beside it to tell its language (see ocr-premium-and-work).
    expect(mendWords('Bolt M10')).toBe('Bolt M10');
    expect(mendWords('Ventilator Diesel Parkade')).toBe('Ventilator Diesel Parkade');
  });
});

describe('a box the recogniser was unsure of, read again from the unflattened page', () => {
  it('reads again only the unsure boxes', () => {
    expect(isWeak({ text: 'Policy euaber', confidence: 0.62 })).toBe(true);
    expect(isWeak({ text: 'CERTIFICATE OF MOTOR INSURANCE', confidence: 0.98 })).toBe(false);
  });

  it('keeps the surer reading, the first on a tie or an empty re-reading', () => {
    const first = { text: 'ADM YT.409   20-01', confidence: 0.71 };
    expect(surer(first, { text: 'ADM-3854093   2025-09-22 ', confidence: 0.87 })).toEqual({
      text: 'ADM-3854093   2025-09-22',
      confidence: 0.87,
    });
    expect(surer(first, { text: 'ADM 3854093', confidence: 0.6 })).toBe(first);
    expect(surer(first, { text: '  ', confidence: 0.9 })).toBe(first);
    expect(surer(first, undefined)).toBe(first);
  });
});

describe('amounts and litres on a service slip and a fuel slip read at an angle', () => {
  it('reads a euro sign read as a small c after the cents as no letter', () => {
    expect(amountTokens('TOTALA PAGAR   1850.81c')).toEqual([
      { value: 1850.81, token: '1850.81', glued: false },
    ]);
    const r = extractRevision(lines('AUTOMOCION RUIZ\nRecambios   790.71\nTOTALA PAGAR   1850.81c'));
    expect(r.fields.price).toBe(1850.81);
  });

  it('takes the number after the price-per-litre label as the price when litres and price could swap', () => {
    const r = extractFuel(
      lines('Manguera 7 Gasoleo A\nrerr! 19,601\nLitros\nPrecio/L   1,697 EUR\nTOTAL A PAGAR   33,26 EUR'),
    );
    expect(r.fields).toMatchObject({ liters: 19.601, pricePerLiter: 1.697, fuelPrice: 33.26 });
  });
});

describe('third pass: a cover label misread, a policy premium with its euro read as a digit', () => {
  it('takes the cover nearest to the value of a "Cover" label read a letter off', () => {
    const r = extractInsurance(lines('DIRECTLINE\nCOmer Thiurd pwty, fer nd trh\nTotal payable   2,392.67'));
    expect(r.fields.coverageType).toBe('Third party, fire and theft');
    expect(coverOf(lines('Cooer Thnd paer fir at tet'))?.name).toBe('Third party, fire and theft');
  });

  it('takes no cover when the value is near none, or as near one as another', () => {
    expect(coverOf(lines('Cover: Xqzv wkk'))).toBeNull();
    // "Comercial" is no cover label one letter off, and its value no cover.
    expect(coverOf(lines('Comercial: Mapfre Vida S.A.'))).toBeNull();
    expect(nearestCover('THIRD PARTY   DATE OF ISSUE: 01/02/2024')).toBe('Third party');
  });

  it('reads "2853,356" as 2853.35: four digits before it, so no thousands group', () => {
    expect(parseNumber('2853,356', 'money')).toBe(2853.35);
    // A real thousands group stays one.
    expect(parseNumber('853,356', 'money')).toBe(853356);
    const r = extractInsurance(lines('MUTUA MADRILENA\nPrima total anual 2024/25   2853,356'));
    expect(r.fields.price).toBe(2853.35);
  });
});

describe('third pass: a Spanish long date and work words as faded print reads them', () => {
  it('reads the "de" of a long date a letter off', () => {
    expect(findDates('FECHA: 26 DRE AGOSTO DE 2023').map((d) => d.iso)).toEqual(['2023-08-26']);
    expect(findDates('1 DE MAYO DLE 2024').map((d) => d.iso)).toEqual(['2024-05-01']);
    const r = extractRevision(
      lines('FACTURA\nFactun r 4245   Fecha: 26 dre agosto de 2023\nVencimiento. 25 de septiembre de 2023'),
    );
    expect(r.fields.date).toBe('2023-08-26');
  });

  it('reads a short work word whose i was read as l', () => {
    expect(mendWords('Oll and filter change')).toBe('Oil and filter change');
  });

  it('puts back two narrow letters a long work word lost', () => {
    expect(mendWords('Cambio de aceite y itros')).toBe('Cambio de aceite y filtros');
    // Two letters lost, one of them no narrow letter (the o): left as read.
    expect(mendWords('Cambio de aceite y fitrs')).toBe('Cambio de aceite y fitrs');
  });

  it('takes the work after a "Work:" label whose o was misread', () => {
    const r = extractRevision(lines('QUICKFIT AUTOCENTRE\nWark: Full wervice\nTOTAL DUE   2,368.13'));
    expect(r.fields.description).toBe('Full service');
  });
});

describe('third pass: digit groups the recogniser glued together', () => {
  // Classes: blank, the digits, a comma, a space; each step's winner at 0.9, the space's share given.
  const { chars, allowed } = allowedClasses(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ',']);
  const C = chars.length;
  const SPACE = C - 1;
  const decode = (steps: [string, number][]) => {
    const probs = new Float32Array(steps.length * C);
    steps.forEach(([c, space], t) => {
      probs[t * C + (c === '_' ? 0 : chars.indexOf(c))] = 0.9;
      probs[t * C + SPACE] = space;
    });
    return ctcDecode(probs, 0, steps.length, C, chars, allowed).text;
  };
  const digits = (s: string, gapAt: number, space: number): [string, number][] =>
    [...s].flatMap((c, i): [string, number][] => [
      [c, 0],
      ['_', i === gapAt ? space : 0.01],
    ]);

  it('keeps a space the recogniser half saw after a group of digits ("4414 3342")', () => {
    expect(decode(digits('44143342', 3, 0.38))).toBe('4414 3342');
  });

  it('adds none where it barely hesitated, nor inside an amount ("25,981")', () => {
    expect(decode(digits('44143342', 3, 0.14))).toBe('44143342');
    expect(decode(digits('25,981', 4, 0.4))).toBe('25,981');
  });
});
