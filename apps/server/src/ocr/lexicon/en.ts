/** English: the words receipts, service invoices and policies from the UK (and SROIE's Malaysia) print. */
import type { Lexicon } from './types.js';

export const en: Lexicon = {
  detect: [
    'DATE',
    'TOTAL DUE',
    'VAT',
    'PRICE',
    'RECEIPT',
    'THANK',
    'VOLUME',
    'UNLEADED',
    'POLICY',
    'PREMIUM',
    'EXPIRY',
    'EFFECTIVE',
    'MILEAGE',
    'ODOMETER',
    'INVOICE',
    'LABOUR',
    'PARTS',
    'PAYMENT',
    'CAR PARK',
    'TOLL',
    'WASH',
    'INSURANCE',
    'COVER',
    'AMOUNT',
  ],
  months: [
    ['JANUARY', 'JAN'],
    ['FEBRUARY', 'FEB'],
    ['MARCH', 'MAR'],
    ['APRIL', 'APR'],
    ['MAY'],
    ['JUNE', 'JUN'],
    ['JULY', 'JUL'],
    ['AUGUST', 'AUG'],
    ['SEPTEMBER', 'SEP', 'SEPT'],
    ['OCTOBER', 'OCT'],
    ['NOVEMBER', 'NOV'],
    ['DECEMBER', 'DEC'],
  ],
  gluedWords: `
    and air alignment alternator annual axle balancing battery belt blade blades brake brakes cabin
    caliper calipers car change check chain clutch coolant deluxe diagnostic disc discs engine exhaust
    filter filters fluid front full gearbox hours interim inspection kit labour major minor mot new oil
    pad pads park parts plaza plugs pump rear repair replaced replacement service shock spark steering
    suspension tax timing toll tyre tyres tire tires valet vehicle wash water wheel wheels wiper with`
    .trim()
    .split(/\s+/),
  accents: [],

  dateLabel: ['DATE', 'ISSUED'],
  otherDate: ['NEXT', 'VALID', 'EXPIR', '\\bDUE\\b', 'FIRST REG', '\\bMOT\\b', 'WARRANTY', 'BIRTH'],
  dueLetters: ['DUEDATE'],
  days: ['DAYS'],

  // Spaces optional inside a label: PaddleOCR prints "AMOUNTDUE".
  total: ['TOTAL', 'AMOUNT'],
  finalTotal: [
    'GRAND TOTAL',
    'FINAL TOTAL',
    'PAYABLE',
    'TOTAL ?DUE',
    'AMOUNT ?DUE',
    'BALANCE ?DUE',
    'INVOICE ?TOTAL',
    'AMOUNT ?PAID',
  ],
  roundedTotal: [
    'NETT TOTAL',
    'ROUNDED TOTAL',
    'TOTAL (AMT |AMOUNT )?ROUNDED',
    'AFTER ROUNDING',
    'TOTAL AFTER ADJ',
  ],
  notTotal: ['SUB[\\s-]?TOTAL', '\\bVAT\\b', 'DISCOUNT', '\\bCARD\\b', 'CASH', 'CHANGE'],
  notPaidTotal: [
    'QTY',
    'QUANTITY',
    'ITEMS?',
    'PCS',
    'UNITS',
    'SAVINGS?',
    'TENDER(ED)?',
    'RECEIVED',
    'TAXABLE',
  ],
  beforeTax: ['EXCL', 'BEFORE TAX', 'INCLUDED IN TOTAL', 'TOTAL INCLUDES'],
  tax: ['VAT', 'GST', 'SST', 'TAX'],
  taxIncluded: ['INC', 'INCL', 'INCLUSIVE', 'INCLUDING'],
  // "Roundng Adusment": the OCR drops letters of a faded ROUNDING.
  rounding: ['\\bR[O0]UN[DU]I?N?G', 'ROUND ADJ'],
  paid: [
    'CASH',
    'CARD',
    'VISA',
    'MASTERCARD',
    'DEBIT',
    'CREDIT',
    'PAYMENT',
    'PAID',
    'PAY',
    'TENDERED',
    'RECEIVED',
  ],
  change: ['CHANGE'],
  changeBeforeNumber: [],
  vat: ['VAT', 'GST'],
  net: ['\\bSUB[\\s-]?TOTAL', 'EXCL(UDING|\\.)? ?(VAT|TAX)', '\\bNET (AMOUNT|TOTAL)\\b', '^NET\\b'],
  notVat: ['\\b(?:INCL|INCLUDED|REG|NO\\.?)\\b', 'EXCL'],

  litreUnit: ['LITRES', 'LITERS', 'LITRE', 'LITER'],
  quantity: ['LITRES', 'LITERS', 'VOLUME', 'QTY', 'QUANTITY', 'ENERGY'],
  pricePerLitre: ['PRICE\\s*\\/\\s*(L|KWH|KG|LITRE|LITER)', 'PRICE PER', '\\bPPL\\b', 'UNIT PRICE'],
  tableHeadings: {
    ppl: ['PRICE\\s*\\/\\s*L[A-Z]*', 'UNIT\\s*PRICE', '\\bPPL\\b', '\\bPRICE\\b'],
    qty: ['LITRES', 'LITERS', 'LITRE', '\\bQTY\\b'],
    amount: ['AMOUNT', '\\bVALUE\\b', '\\bTOTAL\\b'],
  },
  odometer: ['ODOMETER', 'ODO READING', 'MI?L[EI]?AGE(?:\\s*IN|\\s*OUT)?', 'ODO'],
  odometerLetters: ['MILEAGE', 'ODOMETER'],
  notOdometer: ['NEXT', '\\bAT\\s+\\d', 'EVERY', 'INTERVAL', 'WARRANTY', 'RANGE'],
  fuel: {
    // Not a bare CHARGE: a "service charge" or "card surcharge" is no charging session.
    electric: ['CHARGING', 'CHARGER', 'CHARGE ?POINT', 'RAPID ?CHARGE', 'SUPERCHARG', 'ELECTRIC'],
    lpg: ['LPG'],
    cng: ['\\bCNG\\b', 'COMPRESSED NATURAL GAS'],
    diesel: ['DIESEL', '\\bDSL\\b'],
    petrol: ['UNLEADED', 'PETROL'],
  },

  expenseTypes: {
    Parking: ['PARKING', 'CAR ?PARK', '\\bNCP\\b'],
    Tolls: ['\\bTOLL', 'VIGNETTE'],
    Wash: ['CAR ?WASH', '\\bWASH\\b'],
    Tyres: ['TYRE', 'TIRE'],
    Tax: ['VEHICLE ?TAX', 'ROAD ?TAX'],
    Repair: ['REPAIR', 'BODYWORK'],
    Maintenance: ['SERVICE', '\\bOIL\\b', 'FILTR'],
    Accessories: ['ACCESSOR'],
  },
  // "Wark:", "W0rk:": its o misread.
  workLabel: ['W[O0AQU]RK(?:\\s*CAR+I?E?D\\s*OUT|\\s*DONE|\\s*PERFORMED)?', 'DESCRIPTION', 'SERVICE', 'JOB'],
  workLetters: ['WORK'],
  serviceWork: ['SERVICE', 'CHANGE', 'REPLACED', 'TIMING', 'BRAKE', 'OIL'],
  partsRow: ['PARTS'],
  companyForm: ['LTD', 'PLC', 'LIMITED'],

  insurers: [
    ['AVIVA', 'Aviva'],
    ['DIRECT ?LINE', 'Direct Line'],
    ['ADMIRAL', 'Admiral'],
    ['CHURCHILL', 'Churchill'],
    ['\\bLV=|LIVERPOOL ?VICTORIA|^LV\\b|^L[VW]{2}=', 'LV='],
    ['HASTINGS', 'Hastings Direct'],
    // After every market's "Allianz …": the group's name alone.
    ['ALLIANZ', 'Allianz'],
  ],
  insuranceHeading: ['POLI', 'CERTIF', 'INSURANCE'],
  covers: [
    ['THIRD ?PARTY,? ?FIRE ?(AND|&) ?THEFT', 'Third party, fire and theft'],
    ['COMPREHENSIVE', 'Comprehensive'],
    ['THIRD ?PARTY', 'Third party'],
  ],
  // "Cover", "Coverage" as printed or a letter off ("C0ver", "Cuvet").
  coverLabel: ['C[O0][VU][EA][RT](?:AGE)?'],
  coverLetters: ['COVER', 'COVERAGE'],
  coverLimit: ['LIMIT', 'DAMAGE'],
  // "Policy" also as the OCR reads it: "Pollcy", "Polcy", "Polley", "Poltcy", "Poficy", "Polly";
  // "number" as "munber", "ref" as "ret".
  policyLabel: [
    '(?:P[O0](?:L+[I1L]?C|[LITFU1]{1,3}[CE]|L+)[YV]|CERTIFICATE)\\s*(?:[NM][UV][MN][BDE][EO]R|NO(?![A-Z])\\.?|NR(?![A-Z])\\.?|RE[FT](?:ERENCE)?(?![A-Z])\\.?|#)?',
  ],
  policyHeading: ['P[O0](?:L+[I1L]?C|[LITFU1]{1,3}[CE]|L+)[YV]\\s*(?:[NM][UV][MN][BDE][EO]R|NO\\.?)'],
  premiumWord: ['PREMIUM'],
  premiumTotal: ['TOTAL'],
  finalPremium: ['TOTAL PREMIUM', 'ANNUAL PREMIUM', '(TOTAL|AMOUNT) ?PAYABLE'],
  premiumPart: ['\\bNET\\b', '\\bBASE\\b', 'DISCOUNT'],
  // IPT: the UK's insurance premium tax.
  premiumTax: ['\\bVAT\\b', 'IPT', '\\bTAX\\b', 'PREM[A-Z]* ?TA[XR]\\b'],
  premiumLetters: ['TOTALPAYABLE', 'AMOUNTPAYABLE', 'TOTALPREMIUM', 'ANNUALPREMIUM', 'TOTALANNUALPREMIUM'],
  dateRoles: {
    other: ['BIRTH', 'LICEN[CS]E', 'FIRST REG[A-Z]*'],
    // "Date of isswt", "Dte o msue", "Ised": the issue date's label as the OCR garbles it.
    issue: [
      '\\b[ITLH1]S{1,2}U?ED?\\b',
      'DATE OF ISSUE',
      '\\bDA?TE\\s*O[FT]?\\s*[A-Z($]{0,2}[SU$][A-Z$]{1,3}\\b',
      'SIGNED',
    ],
    // "Elfective", "Explry": as the OCR reads them.
    start: ['\\bE[A-Z]?F+ECTIVE', 'START(?:\\s*DATE)?', 'VALID\\s*FROM', '\\bFROM\\b', 'COMMENCE[A-Z]*'],
    end: ['EXPIR[A-Z]*', 'EXP[IL1]RY', 'END\\s*DATE', '\\bEND\\b', 'VALID\\s*UNTIL', 'UNTIL', '\\bTO\\b'],
    range: ['PERIOD', 'VALIDITY'],
  },
  instalment: ['INSTAL+MENTS?', 'MONTHLY', 'QUARTERLY', 'DIRECT DEBIT'],
  reminders: ['REMINDER', 'RENEWAL NOTICE'],
  reminderLetters: ['RENEWALREMINDERS', 'RENEWALNOTICES', 'REMINDERS'],
  no: ['NO', 'OFF'],
};
