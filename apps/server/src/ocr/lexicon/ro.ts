/** Romanian: the words bonuri fiscale, service invoices and RCA/CASCO policies print (without diacritics). */
import type { Lexicon } from './types.js';

export const ro: Lexicon = {
  detect: [
    'BON FISCAL',
    'TOTAL DE PLATA',
    'LEI',
    'DATA',
    'PRET',
    'CANTITATE',
    'LITRI',
    'MOTORINA',
    'BENZINA',
    'ASIGURARE',
    'POLITA',
    'SERIA',
    'VALABILA',
    'PANA LA',
    'KILOMETRAJ',
    'FACTURA',
    'LUCRARE',
    'MANOPERA',
    'PIESE',
    'TVA',
    'MULTUMIM',
    'PARCARE',
    'SPALATORIE',
    'ROVINIETA',
    'PRIMA DE',
  ],
  months: [
    ['IANUARIE', 'IAN'],
    ['FEBRUARIE'],
    ['MARTIE'],
    ['APRILIE'],
    ['MAI'],
    ['IUNIE', 'IUN'],
    ['IULIE', 'IUL'],
    ['AUGUST'],
    ['SEPTEMBRIE'],
    ['OCTOMBRIE'],
    ['NOIEMBRIE', 'NOI'],
    ['DECEMBRIE'],
  ],
  gluedWords: `
    ambreiaj ambreiajului amortizoare anuala anvelope auto baterie bujii centura completa curea de
    discuri distributie echilibrare filtre filtru frana franare geometrie iarna impozit inlocuire la
    lichid luni manopera motor parcare piese placute pod reparatie revizie rovinieta schimb si spalare
    spalatorie taxa ulei vara vulcanizare zona cu pentru`
    .trim()
    .split(/\s+/),
  // PaddleOCR reads no Romanian diacritics.
  accents: [
    [/\bspalatorie\b/gi, 'spălătorie'],
    [/\bspalare\b/gi, 'spălare'],
    [/\bplacute\b/gi, 'plăcuțe'],
    [/\bfrana\b/gi, 'frână'],
    [/\bdistributie\b/gi, 'distribuție'],
    [/\breparatie\b/gi, 'reparație'],
    [/\binlocuire\b/gi, 'înlocuire'],
    [/\bmanopera\b/gi, 'manoperă'],
    [/\btaxa\b/gi, 'taxă'],
  ],

  dateLabel: ['DATA', 'EMIS[AI]?'],
  otherDate: ['URMATOAR', 'VALAB', 'SCADEN', '\\bRCA\\b', 'INMATRICUL', 'GARANTI', 'NASTERE'],
  dueLetters: ['SCADENTA'],
  days: ['ZILE'],

  // Spaces optional inside a label: PaddleOCR prints "TOTALFACTURA".
  total: ['TOTAL', 'TOTAL ?LEI', 'DE PLATA', 'SUMA'],
  finalTotal: ['TOTAL ?DE ?PLATA', 'TOTAL ?FACTUR(?:A|II)'],
  roundedTotal: [],
  notTotal: ['SUB[\\s-]?TOTAL', 'TVA', 'NUMERAR', 'REST\\b'],
  notPaidTotal: ['CANTITATE', 'ARTICOLE'],
  beforeTax: ['FARA TVA'],
  tax: ['TVA', 'IMPOZIT'],
  taxIncluded: ['INCLUSA?'],
  rounding: ['ROTUNJIRE'],
  paid: ['NUMERAR'],
  change: [],
  changeBeforeNumber: ['REST'],
  vat: ['TVA'],
  net: ['FARA TVA', '\\bBAZA\\b'],
  // CUI, CIF, "Cod": the company's tax number.
  notVat: ['\\b(?:INCLUS|CUI|CIF|NR\\.?|COD)\\b', 'FARA'],

  litreUnit: ['LITRI', 'LITRU'],
  quantity: ['LITRI', 'CANTITATE', 'ENERGIE'],
  pricePerLitre: ['PRET\\s*\\/\\s*(L|KWH|KG|LITRU)', 'PRET UNITAR', 'PRET\\s*(PE\\s*)?LITRU'],
  tableHeadings: {
    // "PRET/L", "PRECIO/L" and "PRETIO/L" (a C read as T).
    ppl: ['PRE[CT]IO?\\s*\\/\\s*L[A-Z]*', 'PRET ?\\/? ?LITRU', 'PRET\\s*UNITAR', '\\bPRET\\b'],
    qty: ['LITRI', 'CANTITATE'],
    amount: ['VALOARE', '\\bTOTAL\\b', '\\bSUMA\\b'],
  },
  // "KILOMETRI" and "KILOMETRAJ" with a letter or two misread.
  odometer: ['KM ?BORD', 'KILOMETRAJ[A-Z]*', 'KIL[A-Z]?[MN][A-Z]?TR[A-Z]*'],
  odometerLetters: ['KILOMETRAJ', 'KILOMETRI'],
  notOdometer: ['URMATOAR', '\\bLA\\s+\\d', 'INTERVAL', 'GARANTI'],
  fuel: {
    electric: ['INCARCARE', 'INCARCATOR', 'ENERGIE ELECTRICA'],
    lpg: ['GPL'],
    cng: ['\\bGNC\\b', '\\bMETAN\\b', 'GAZ NATURAL'],
    diesel: ['MOTORINA'],
    petrol: ['BENZINA', 'EFIX'],
  },

  expenseTypes: {
    Parking: ['PARCARE'],
    Tolls: ['TAXA ?DE ?POD', 'ROVINIET', 'VINIETA'],
    Wash: ['SPALATORIE', 'SPALARE'],
    Tyres: ['VULCANIZARE', 'ANVELOPE', 'CAUCIUC'],
    Tax: ['IMPOZIT'],
    Repair: ['REPARATIE', 'TINICHIGERIE'],
    Maintenance: ['REVIZIE', 'ULEI', 'FILTR'],
    Accessories: ['ACCESORI'],
  },
  workLabel: [
    'LUCRAR[EI](?:\\s*EFECTUATE)?',
    'DESCRIERE(?:\\s*LUCRAR[EI])?',
    'SERVICIU',
    'OPERATIUN[EI](?:\\s*EFECTUATE)?',
  ],
  workLetters: ['LUCRARE', 'LUCRARI'],
  serviceWork: ['REVIZIE', 'SCHIMB', 'INLOCUIRE', 'DISTRIBUTIE', 'FRANA', 'ULEI'],
  partsRow: ['PIESE'],
  companyForm: ['S\\.?R\\.?L', 'S\\.?A'],

  insurers: [
    ['ALLIANZ[\\s-]*TIRIAC', 'Allianz-Țiriac Asigurări'],
    ['GROUPAMA', 'Groupama Asigurări'],
    ['OMNIASIG', 'Omniasig VIG'],
    ['GENERALI', 'Generali România'],
    ['ASIROM', 'Asirom VIG'],
    ['GRAWE', 'Grawe România'],
    ['UNIQA', 'UNIQA Asigurări'],
    ['EUROINS', 'Euroins România'],
    ['HDI', 'HDI Versicherung'],
    ['SIGNAL ?IDUNA', 'Signal Iduna'],
  ],
  insuranceHeading: ['POLI'],
  covers: [
    ['(?:\\b|ASIGURARE ?)CASCO\\b', 'CASCO'],
    ['(?:\\b|ASIGURARE ?)RCA\\b', 'RCA'],
  ],
  coverLabel: ['TIP\\s*ASIG[A-Z]*'],
  coverLetters: [],
  coverLimit: ['DAUNE'],
  policyLabel: [
    'NUMAR(?:UL)?\\s*POLITEI',
    // "Polița" also as the OCR reads it after its number's label: "P0ITA", "POLTA", "P0LITA".
    'NUMAR\\s*P[O0][LI1]{0,2}TA',
    'NR\\.?\\s*P[O0][LI1]{0,2}TA',
    // "Poliță RCA nr.": the cover's name between; its N lost too ("Polia RCAr.47082153").
    'P[O0][LI1]{0,2}T?A\\s*(?:(?:RCA|CASCO)\\s*)?(?:N?R(?![A-Z])\\.?|SERIA)',
    'POLITA\\s*(?:NR(?![A-Z])\\.?|SERIA)?',
  ],
  policyHeading: ['NR\\.?\\s*POLITA'],
  premiumWord: ['PRIMA'],
  premiumTotal: ['TOTAL DE PLATA', 'TOTAL'],
  finalPremium: ['PRIMA (TOTALA|ANUALA)', 'TOTAL DE PLATA', 'TOTAL ANUALA'],
  // The reference premium before a bonus-malus discount, and the discount.
  premiumPart: ['\\bNETA\\b', 'REFERINTA', 'REDUCERE'],
  premiumTax: ['TVA'],
  premiumLetters: ['TOTALDEPLATA', 'PRIMATOTALA', 'PRIMAANUALA', 'PRIMADEASIGURARE'],
  dateRoles: {
    other: ['NASTER[A-Z]*', 'PERMIS[A-Z]*', 'INMATRICULAR[A-Z]*'],
    issue: ['EMI[ST][A-Z0-9]*', 'SEMNAT'],
    start: ['VALABILA\\s*DE\\s*LA', '\\bDE\\s*LA\\b', 'INCEPAND\\s*CU', 'INCEPERII', 'INCEPUT'],
    end: ['P[AI]NA\\s*LA', 'SFARSIT', 'FINAL(?:IZARE)?'],
    range: ['PERIOAD[AE]', 'VALABILITATE'],
  },
  instalment: ['RATA', 'RATE', 'RATELE', 'LUNARA?', 'TRIMESTRIAL', 'SEMESTRIAL'],
  reminders: ['NOTIFICARI', 'REAMINTIRE'],
  reminderLetters: ['NOTIFICARIDEREINNOIRE', 'REAMINTIRIDEREINNOIRE', 'NOTIFICARI'],
  no: ['NU'],
};
