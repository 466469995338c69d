/** What one language's lexicon holds: the words receipts print for each thing the readers look for. */

/**
 * Each entry is a list of regular-expression sources matched on normalised text (upper case, no
 * accents: "PRIMĂ" is PRIMA), most of them plain words; a few carry the OCR's usual misreading of
 * that language's word ("EXP[IL1]RY"). Misreadings common to every language stay with their reader
 * in fields/. An entry a language does not need is an empty list.
 */
export type Lexicon = {
  /** Words the receipt's language is recognised by (text/language.ts). */
  detect: string[];
  /** Month names, January first, each with its short forms. */
  months: string[][];
  /** Shop and car-service words PaddleOCR glues together ("Brakepadsreplaced"), lower case. */
  gluedWords: string[];
  /** Accents the OCR drops, put back on the usual receipt words: [pattern, word]. */
  accents: [RegExp, string][];

  // ── dates ──
  /** A date's label ("Date", "Data", "Fecha"). */
  dateLabel: string[];
  /** A date that is not the purchase's or the work's: next service, due, registration, birth. */
  otherDate: string[];
  /** An invoice's due date's label as letters only, to find it with up to a letter in three misread ("Voncimento"). */
  dueLetters: string[];
  /** The word for days after a payment term's number ("30 days", "30 días", "30 de zile"). */
  days: string[];

  // ── totals and payment ──
  /** The total's labels. */
  total: string[];
  /** The labels of the final amount: grand total, payable, total due. */
  finalTotal: string[];
  /** The amount after rounding (the most final of all). */
  roundedTotal: string[];
  /** Lines that are no total: subtotal, tax, discount, payment, change. */
  notTotal: string[];
  /** Lines with TOTAL that are not the amount paid: counts, tendered, taxable sums (whole words). */
  notPaidTotal: string[];
  /** A sum before tax ("excl.", "sin IVA", "fără TVA"). */
  beforeTax: string[];
  /** Taxes named on a line. */
  tax: string[];
  /** "Tax included" ("incl.", "IVA incluido", "TVA inclusă"). */
  taxIncluded: string[];
  /** A rounding line. */
  rounding: string[];
  /** What was handed over: cash, card, payment. */
  paid: string[];
  /** The change given back. */
  change: string[];
  /** Change words that count only right before their number ("REST 0,00", not a "rest area"). */
  changeBeforeNumber: string[];
  /** The VAT's names, to pair a net amount with its VAT. */
  vat: string[];
  /** A net amount's label (before VAT). */
  net: string[];
  /** A line with the VAT's name that is not the VAT amount: tax numbers, "incl.", totals. */
  notVat: string[];

  // ── fuel ──
  /** The unit after a quantity of fuel (litres). */
  litreUnit: string[];
  /** The label of the quantity. */
  quantity: string[];
  /** The label of the price per litre. */
  pricePerLitre: string[];
  /** A pump receipt's table headings, per column. */
  tableHeadings: { ppl: string[]; qty: string[]; amount: string[] };
  /** The odometer's label. */
  odometer: string[];
  /** The odometer's label as letters only, to find it with up to a letter in three misread ("Chometros"). */
  odometerLetters: string[];
  /** A distance that is not the car's reading: the next service, an interval, a range. */
  notOdometer: string[];
  /**
   * The fuel's names: a charge (the charger, the station, "încărcare"), LPG (GPL, GLP, Autogas),
   * CNG (GNC, GNV, metan; sold by the kg), diesel, petrol.
   */
  fuel: { electric: string[]; lpg: string[]; cng: string[]; diesel: string[]; petrol: string[] };

  // ── expenses and service invoices ──
  /** Words that say what an expense was for, per type. */
  expenseTypes: Partial<Record<ExpenseType, string[]>>;
  /** The label before the work a service invoice describes ("Work carried out:"). */
  workLabel: string[];
  /** The work label's first word as letters only, to find it a letter off or glued ("Luerare:", "LncrareRevizie"). */
  workLetters: string[];
  /** Words of service work, to find the work line without a label. */
  serviceWork: string[];
  /** The priced table's parts row ("Parts", "Recambios", "Piese de schimb"): what was fitted, not the work. */
  partsRow: string[];
  /** A company's legal form after its name ("SRL", "S.L.", "Ltd"). */
  companyForm: string[];

  // ── insurance ──
  /** Insurers of the language's market, as printed → their usual name (more specific names first). */
  insurers: [string, string][];
  /** Words of a policy's heading that are no insurer's name. */
  insuranceHeading: string[];
  /** Cover types, as printed → their name. */
  covers: [string, string][];
  /** The cover's label ("Cover:", "Modalidad:"). */
  coverLabel: string[];
  /** The cover's label as letters only, to find it with a letter misread ("Comer", "Cooer"). */
  coverLetters: string[];
  /** A cover's limit, not the policy's cover. */
  coverLimit: string[];
  /** The policy number's label. */
  policyLabel: string[];
  /** The policy number's column heading (the value in the row below). */
  policyHeading: string[];
  /** The word for the premium ("Prima", "Premium"). */
  premiumWord: string[];
  /** Other labels of the amount paid for a policy. */
  premiumTotal: string[];
  /** The premium's most final labels: total, annual, payable. */
  finalPremium: string[];
  /** A part of the premium, not what is paid: net, reference, discount. */
  premiumPart: string[];
  /** Taxes on a premium line. */
  premiumTax: string[];
  /** The premium's labels as letters only, to find them with a letter in three misread. */
  premiumLetters: string[];
  /** The labels of a policy's dates, by what the date is. */
  dateRoles: Record<DateRole, string[]>;
  /** An instalment's word ("Rata", "Cuota", "Instalment", "Monthly"). */
  instalment: string[];
  /** The renewal reminders' label. */
  reminders: string[];
  /** The same, as letters only, to find it with a letter in four misread. */
  reminderLetters: string[];
  /** "No" ("No", "Nu", "Off"). */
  no: string[];
};

export type ExpenseType =
  | 'Parking'
  | 'Tolls'
  | 'Wash'
  | 'Tyres'
  | 'Tax'
  | 'Repair'
  | 'Maintenance'
  | 'Accessories';

export type DateRole = 'start' | 'end' | 'issue' | 'range' | 'other';
