import {
  agreesWithVat,
  instalmentsSum,
  isInstalmentLine,
  isWholeMonths,
  netAndVat,
  premiumWithOneMisread,
  statedInstalmentCount,
  termMonths,
  totalChain,
  totalVouchedByRate,
} from './consistency.js';
import { tableValues } from './layout.js';
import { amounts, amountTokens, findDates, type Line, normalize, parseNumber } from './parse.js';
import { respace } from './words.js';

export type OcrKind = 'fuel' | 'expense' | 'revision' | 'insurance';
export type FieldValue = string | number | boolean | null;
export type WarningCode =
  | 'TOTAL_MISMATCH'
  | 'DATE_IN_FUTURE'
  | 'ODOMETER_BELOW_LAST'
  | 'END_BEFORE_START'
  | 'DERIVED'
  | 'NOTHING_FOUND'
  | 'VAT_MISMATCH'
  | 'INSTALMENTS_MISMATCH'
  | 'TERM_MISMATCH';
export type RawWarning = { field: string; code: WarningCode; params?: Record<string, string | number> };
export type Extraction = {
  fields: Record<string, FieldValue>;
  confidence: Record<string, number>;
  warnings: RawWarning[];
};

const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

class Result {
  fields: Record<string, FieldValue> = {};
  confidence: Record<string, number> = {};
  warnings: RawWarning[] = [];
  set(field: string, value: FieldValue | undefined, confidence: number) {
    this.fields[field] = value ?? null;
    this.confidence[field] =
      value === null || value === undefined ? 0 : round(Math.max(0, Math.min(1, confidence)), 2);
  }
  done(): Extraction {
    return { fields: this.fields, confidence: this.confidence, warnings: this.warnings };
  }
}

/** Lines whose normalised text matches `label`, best (earliest match) first. */
function labelled(lines: Line[], label: RegExp, not?: RegExp): Line[] {
  return lines.filter((l) => label.test(l.norm) && !not?.test(l.norm));
}

/** The value after a label: the rightmost number on the line, or the first on the next line. */
function labelValue(lines: Line[], line: Line, kind: 'money' | 'qty' | 'int', after?: RegExp): number | null {
  let text = line.text;
  if (after) {
    const m = after.exec(line.norm);
    if (m) text = line.text.slice((m.index ?? 0) + m[0].length);
  }
  const own = amounts(text, kind);
  if (own.length) return own[own.length - 1] ?? null;
  const next = lines[line.index + 1];
  if (next) {
    const n = amounts(next.text, kind);
    if (n.length === 1) return n[0] ?? null;
  }
  return null;
}

// ── dates ───────────────────────────────────────────────────────────────────
const DATE_LABEL = /\b(DATA|DATE|FECHA|EMIS[AI]?|ISSUED)\b/;
/** Dates that are not the day of the purchase or the work: the next service, a due date, a registration. */
const OTHER_DATE =
  /NEXT|PROXIM|URMATOAR|VALAB|VALID|EXPIR|VENCIM|SCADEN|\bDUE\b|\bITV\b|\bRCA\b|INMATRICUL|MATRICULACION|FIRST REG|\bMOT\b|GARANTI|WARRANTY|NASTERE|BIRTH/;

/**
 * A date that is part of a product or invoice code ("HD03-04-06", "SP-NULL-18/06/04-1016956",
 * "MI11/3-21", "100007017/04/2018"): glued to letters or digits before it, or to "-digits" after
 * it, and no date label before it.
 */
export function inCode(norm: string, at: number): boolean {
  const before = norm.slice(0, at);
  if (/(?:DATE|DATA|FECHA|TARIKH|ON|:)\s*$/.test(before)) return false;
  // Glued to a digit only right before it: "REG #19- 10/03/2018" is no code.
  return /[A-Z]-?$|\d$/.test(before) || /^[\d./-]{6,10}-\d(?!\d?:\d{2})/.test(norm.slice(at));
}

function pickDate(lines: Line[]): { iso: string; conf: number } | null {
  const usable = lines.filter((l) => !OTHER_DATE.test(l.norm));
  const withLabel = usable.filter((l) => DATE_LABEL.test(l.norm));
  // Dates inside codes only when there is no other.
  for (const codes of [false, true])
    for (const l of [...withLabel, ...usable, ...lines]) {
      const d = findDates(l.norm).find((x) => codes || !inCode(x.line, x.at));
      if (!d) continue;
      const conf = l.confidence * (withLabel.includes(l) ? 1 : 0.85) * (codes ? 0.6 : 1);
      const reread = sameDayReread(d.iso, usable);
      return reread ? { iso: reread, conf: conf * 0.8 } : { iso: d.iso, conf };
    }
  // Last: a date without separators on a line of its own ("25032018", ": 20180428/191204"), else
  // one before its time ("25032018 13:11:54", "20180428/191 …") or after a date label.
  for (const l of lines) {
    const m = /^[:\s]*(\d{8})(?:\/\d{4,6})?$/.exec(l.norm.trim());
    const iso = m ? compactDate(m[1] ?? '') : null;
    if (iso) return { iso, conf: l.confidence * 0.6 };
  }
  for (const l of lines) {
    const m =
      /(?<![\d.,:/-])(\d{8})(?=\s*\/\s*\d|\s+\d{1,2}:\d{2})/.exec(l.norm) ??
      /\b(?:DATE|DATA|FECHA)\b[^\d]{0,8}(\d{8})(?![\d.,])/.exec(l.norm);
    const iso = m ? compactDate(m[1] ?? '') : null;
    if (iso) return { iso, conf: l.confidence * 0.5 };
  }
  // "05 02-18", "05-02 18": dd-mm-yy with one separator read as a space, on a receipt where nothing
  // else reads as a date.
  for (const l of lines) {
    const m =
      /(?<![\d.,:/-]\s?)(\d{2})(?: (\d{2})[./-]|[./-](\d{2}) )(\d{2})(?![\d.,:/-]|\s?\d(?!\d?:\d{2}))/.exec(
        l.norm,
      );
    const iso = m ? compactDate(`${m[1]}${m[2] ?? m[3]}20${m[4]}`) : null;
    if (iso) return { iso, conf: l.confidence * 0.4 };
  }
  return null;
}

/** Digits a faded print turns into one another (each pair in order): 3 and 8, 0 and 8, 1 and 7… */
const LOOKALIKE_DIGITS = ['38', '08', '68', '89', '56', '17', '06', '09'];
/**
 * The same date printed twice (the sale and the receipt's printing, "Date: 13/04/2013" and "PRN ON:
 * 13/04/2018"; "Date: 03/09/2017" and "DD: 08/09/2017") with one digit apart, a pair a faded print
 * confuses: one of them misread, most often an 8 read as 3 or 0. The later one (the 8). Null when
 * there is no other reading.
 */
export function sameDayReread(iso: string, lines: Line[]): string | null {
  const lookAlike = (o: string) => {
    const diff = [...o].flatMap((c, i) => (c !== iso[i] ? [[c, iso[i]].sort().join('')] : []));
    return diff.length === 1 && LOOKALIKE_DIGITS.includes(diff[0] ?? '');
  };
  const later = lines
    .flatMap((l) => findDates(l.norm).map((d) => d.iso))
    .filter((o) => o > iso && lookAlike(o))
    .sort();
  return later.at(-1) ?? null;
}

/** "25032018" (day first) or "20180428" (year first) as ISO, or null. */
export function compactDate(t: string): string | null {
  const ok = (y: number, m: number, d: number) => {
    const dt = new Date(Date.UTC(y, m - 1, d));
    return y >= 1990 && y <= 2100 && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d
      ? dt.toISOString().slice(0, 10)
      : null;
  };
  const n = (a: number, b: number) => Number(t.slice(a, b));
  return ok(n(0, 4), n(4, 6), n(6, 8)) ?? ok(n(4, 8), n(2, 4), n(0, 2));
}

// ── totals ──────────────────────────────────────────────────────────────────
// Spaces optional inside a label: PaddleOCR prints "TOTALFACTURA", "AMOUNTDUE", "IMPORTETOTAL".
const TOTAL =
  /\b(TOTAL ?DE ?PLATA|TOTAL ?A ?PAGAR|IMPORTE ?TOTAL|TOTAL ?DUE|AMOUNT ?DUE|TOTAL ?LEI|TOTAL ?EUR(?:OS)?|TOTAL ?FACTUR(?:A|II)|INVOICE ?TOTAL|AMOUNT ?PAID|TOTAL|IMPORTE|AMOUNT|DE PLATA|SUMA|BALANCE ?DUE|PAYABLE)\b/;
const NOT_TOTAL =
  /(SUB[\s-]?TOTAL|TVA|IVA|\bVAT\b|BASE IMPONIBLE|DESCUENTO|DISCOUNT|\bCARD\b|TARJETA|NUMERAR|CASH|REST\b|CAMBIO|CHANGE)/;
/**
 * How final a total's label is: the amount after rounding beats "grand total / payable / de plată",
 * which beats a total that includes the tax, then a plain TOTAL, then a bare AMOUNT or IMPORTE.
 */
const TOTAL_TIERS: [RegExp, number][] = [
  [/\b(NETT TOTAL|ROUNDED TOTAL|TOTAL (AMT |AMOUNT )?ROUNDED|AFTER ROUNDING|TOTAL AFTER ADJ)/, 5],
  [
    /\b(GRAND TOTAL|FINAL TOTAL|PAYABLE|TOTAL ?DE ?PLATA|TOTAL ?A ?PAGAR|IMPORTE ?TOTAL|TOTAL ?DUE|AMOUNT ?DUE|BALANCE ?DUE|TOTAL ?FACTUR(?:A|II)|INVOICE ?TOTAL|AMOUNT ?PAID)\b/,
    4,
  ],
  [/\bTOTAL\b.*\b(INC|INCL|INCLUSIVE|INCLUDING|INCLUIDO|INCLUSA?)\b/, 3],
  [/\bTOTAL/, 2],
  [/./, 1],
];
/** A tax named on a total's line is fine only when the total includes it ("TOTAL (IVA INCLUIDO)"). */
const TAX_WORD = /\b(TVA|IVA|VAT|GST|SST|TAX|IMPUESTOS?|IMPOZIT)\b/;
// INCI / INC! / INC1: the OCR's usual reading of a faded INCL.
// LNCLUSIVE: an I read as l.
const TAX_INCLUDED = /\b(INC[LI1]?|[IL]NCLUSIVE|INCLUDING|INCLUIDO|INCLUSA?)\b|\bINC!/;
/** Lines that carry the word TOTAL but not the amount paid: counts, pre-tax sums, per-rate breakdowns. */
const NOT_PAID_TOTAL =
  /\b(QTY|QUANTITY|ITEMS?|PCS|UNITS|CANTIDAD|CANTITATE|ARTICOLE|ARTICULOS|SAVINGS?|TENDER(ED)?|RECEIVED|ENTREGADO|TAXABLE)\b|(?<!TOTAL |AMOUNT ?)\bPAID\b|EXCL|SIN IVA|FARA TVA|BEFORE TAX|INCLUDED IN TOTAL|TOTAL INCLUDES|TOTAL\s*\d+(\.\d+)?\s*%|(?<!AFTER )ROUNDING(?! *TOTAL)/;
/** What the customer handed over (cash, card) and got back: paid − change is the total. */
const PAID =
  /\b(CASH|CARD|VISA|MASTERCARD|DEBIT|CREDIT|PAYMENT|PAID|PAY|TENDERED|RECEIVED|EFECTIVO|ENTREGADO|TARJETA|NUMERAR|PAGO)\b/;
/** Change given back ("REST" only before its number: "REST 0,00", not a "rest area"). */
const CHANGE = /\b(CHANGE|CAMBIO|VUELTA|A DEVOLVER)\b|\bREST\s*:?\s*-?\d/;

/**
 * A total or payment line that ends in "64 13" with no amount in cents anywhere: the OCR read the
 * decimal point as a space (faded thermal print), so it is 64.13.
 */
function joinSplitCents(text: string): string {
  if (/\d[.,]\s?\d{2}(?!\d)/.test(text)) return text;
  return text.replace(/(\d) (\d{2})(?=[^\w]*$)/, '$1.$2');
}

/** The rightmost amount after `label` on the line itself (payment lines never borrow the next line's). */
function ownAmount(l: Line, label: RegExp): number | null {
  const m = label.exec(l.norm);
  const found = amounts(joinSplitCents(m ? l.text.slice((m.index ?? 0) + m[0].length) : l.text));
  return found.length ? (found[found.length - 1] ?? null) : null;
}

function isPaidTotal(l: Line): boolean {
  if (!TOTAL.test(l.norm) || NOT_TOTAL.test(l.norm) || NOT_PAID_TOTAL.test(l.norm)) return false;
  return !TAX_WORD.test(l.norm) || TAX_INCLUDED.test(l.norm);
}

/** The amounts the payment lines vouch for: each amount handed over, less the change when there is one. */
function paidAmounts(lines: Line[]): number[] {
  const change = changeGiven(lines);
  const out: number[] = [];
  for (const l of lines) {
    if (!PAID.test(l.norm) || CHANGE.test(l.norm)) continue;
    const v = ownAmount(l, PAID);
    if (v === null || v <= 0) continue;
    // With change given back, the total is what was handed over less the change, not the amount
    // handed over ("Total Paid RM50.00", "Change RM28.15").
    if (change > 0 && v - change > 0) out.push(round(v - change, 2));
    else if (change <= 0) out.push(v);
  }
  return out;
}

function changeGiven(lines: Line[]): number {
  for (const l of lines) {
    if (!CHANGE.test(l.norm)) continue;
    const v = ownAmount(l, /\b(CHANGE|CAMBIO|VUELTA|A DEVOLVER|REST)\b/);
    if (v !== null) return v;
  }
  return 0;
}

/**
 * The total paid, most likely first. A candidate's score: its label's tier; more when it agrees
 * with what was paid (cash − change); more when it follows a rounding line (the adjusted amount is
 * what was paid); less without the two decimals money is printed with (an OCR misread). A total
 * printed without its decimal point ("1200" for 12.00, a faded thermal print) is read as cents
 * when that makes it agree with the payment.
 */
function totals(lines: Line[]): { value: number; conf: number }[] {
  const paid = paidAmounts(lines);
  const agrees = (v: number) => paid.some((p) => Math.abs(p - v) < 0.005);
  // A change line ("CHANGE 0.00" too): the payment is what was handed over less the change.
  const changeLine = lines.some(
    (l) => CHANGE.test(l.norm) && ownAmount(l, /\b(CHANGE|CAMBIO|VUELTA|A DEVOLVER|REST)\b/) !== null,
  );
  const tillRounded = (v: number) =>
    changeLine
      ? paid.find((p) => Math.abs(p - v) > 0.005 && Math.abs(p - v) < 0.025 && Math.round(p * 100) % 5 === 0)
      : undefined;
  const subtotals = lines.filter((l) => /SUB[\s-]?TOTAL/.test(l.norm)).flatMap((l) => amounts(l.text));
  // "Roundng Adusment": the OCR drops letters of a faded ROUNDING.
  const rounding =
    lines.findLast((l) => /\bR[O0]UN[DU]I?N?G|ROUND ADJ|REDONDEO|ROTUNJIRE/.test(l.norm))?.index ?? -1;
  const found: { value: number; conf: number; score: number; at: number }[] = [];
  for (const l of lines) {
    if (!TOTAL.test(l.norm) || NOT_TOTAL.test(l.norm)) continue;
    const paidTotalLine = isPaidTotal(l);
    const tier = paidTotalLine ? (TOTAL_TIERS.find(([re]) => re.test(l.norm))?.[1] ?? 1) : 0;
    const stated = statedAmount(lines, l, tier > 1);
    if (!stated || stated.value <= 0) continue;
    // A total line that names a tax or a count ("Total Sales (Inclusive of GST)" with INCLUSIVE
    // misread, "Qty: 1  Total RM 11.60") counts only when it states what was paid.
    if (!paidTotalLine) {
      if (agrees(stated.value))
        found.push({ value: stated.value, conf: l.confidence * 0.8, score: 40, at: l.index });
      continue;
    }
    let v = stated.value;
    const cents = v / 100;
    const vouched = agrees(cents) || subtotals.some((s) => Math.abs(s - cents) < 0.005);
    if (!agrees(v) && !stated.cents && Number.isInteger(v) && v >= 100 && vouched) v = cents;
    // "TOTAL 60.31" and "CASH 70.30 / CHANGE 10.00": the till rounded the total to 5 cents (its
    // rounding line lost); what was paid less the change is the total.
    if (!agrees(v) && stated.cents) v = tillRounded(v) ?? v;
    const score =
      tier * 10 +
      (agrees(v) ? 40 : stated.cents || v !== stated.value ? 0 : -30) +
      (rounding >= 0 && l.index > rounding ? 25 : 0);
    // A total without cents that the payment contradicts ("TOTA! 10" beside "CASH 50", "CHANGE
    // 26.00"): a misread; what was paid less the change says more.
    if (paid.length && !agrees(v) && !stated.cents && v === stated.value) continue;
    found.push({ value: v, conf: l.confidence, score, at: l.index });
  }
  // Two labelled totals that state the same amount ("incl. tax" and "payable") back each other.
  for (const c of found)
    if (found.some((o) => o !== c && o.value === c.value && o.at !== c.at)) c.score += 15;
  return found.sort((a, b) => b.score - a.score || a.at - b.at).map(({ value, conf }) => ({ value, conf }));
}

/**
 * The amount a total's line states after its label: the rightmost one written as money (with
 * cents; OCR noise after it is skipped), else the rightmost number, else (when `borrow`) the
 * next line's only number. `cents`: it was written with two decimals.
 */
function statedAmount(lines: Line[], l: Line, borrow: boolean): { value: number; cents: boolean } | null {
  const m = TOTAL.exec(l.norm);
  const own = amountTokens(joinSplitCents(m ? l.text.slice((m.index ?? 0) + m[0].length) : l.text));
  const next = borrow && own.length === 0 ? amountTokens(lines[l.index + 1]?.text ?? '') : [];
  const tokens = (own.length ? own : next.length === 1 ? next : []).filter((t) => !t.glued);
  const withCents = tokens.filter((t) => /[.,]\d{2}$/.test(t.token));
  const pick = withCents.at(-1) ?? tokens.at(-1);
  return pick ? { value: pick.value, cents: withCents.length > 0 } : null;
}

/** What was paid (the most handed over, less the change) when no total is labelled. */
function paidTotal(lines: Line[]): number | undefined {
  const handed = lines
    .filter((l) => PAID.test(l.norm) && !CHANGE.test(l.norm))
    .map((l) => ownAmount(l, PAID) ?? 0);
  if (!handed.length) return undefined;
  const v = round(Math.max(...handed) - changeGiven(lines), 2);
  return v > 0 ? v : undefined;
}

/**
 * The best total, checked against net + VAT when both are printed: a candidate that equals their
 * sum wins; when none does, the warning says so and the confidence drops.
 */
function checkedTotal(lines: Line[], r: Result, field: string): { value: number; conf: number } | undefined {
  const tot = totals(lines);
  // Parts + VAT = an amount below them, the VAT at its rate: that amount is the total when no
  // total is labelled or the labelled one is one of those parts (the OCR paired the column of
  // values with the wrong labels). A labelled total elsewhere wins ("Total 6% supplies (incl.
  // GST)" is a part of "Total payable").
  const chain = totalChain(lines);
  const first = tot[0];
  if (chain && (!first || (first.value !== chain.total && chain.parts.includes(first.value))))
    return { value: chain.total, conf: 0.85 };
  const nv = netAndVat(lines);
  if (!nv || !tot.length) return tot[0];
  const agreeing = tot.find((t) => agreesWithVat(nv, t.value));
  if (agreeing) return { value: agreeing.value, conf: Math.max(agreeing.conf, 0.95) };
  if (!first) return undefined;
  // The net or the VAT misread, the total agreeing with the other at the VAT rate: no warning.
  if (totalVouchedByRate(nv, first.value)) return { value: first.value, conf: first.conf * 0.9 };
  r.warnings.push({ field, code: 'VAT_MISMATCH', params: { net: nv.net, vat: nv.vat, total: first.value } });
  return { value: first.value, conf: first.conf * 0.6 };
}

// ── fuel ────────────────────────────────────────────────────────────────────
const UNIT = /(\d[\d.,]*\d|\d)\s*(?:L|LT|LTR|LTRS|LITRI|LITRU|LITROS|LITRO|LITRES|LITERS|LITRE|LITER|KWH)\b/g;
const QTY_LABEL =
  /\b(LITRI|LITROS|LITRES|LITERS|VOLUME|CANTITATE|CANTIDAD|QTY|QUANTITY|ENERGIE|ENERGIA|ENERGY|VOLUMEN)\b/;
const PPL_LABEL =
  /(PRET\s*\/\s*(L|KWH|LITRU)|PRET UNITAR|PRECIO\s*\/\s*(L|KWH|LITRO)|PRECIO\s*(POR\s*)?LITRO|PRET\s*(PE\s*)?LITRU|PRECIO UNIDAD|PRICE\s*\/\s*(L|KWH|LITRE|LITER)|PRICE PER|\/\s*L\b|\/\s*KWH\b|\bPPL\b)/;
const ODO_LABEL =
  /\b(KM ?BORD|KILOMETRAJ[A-Z]*|KIL[A-Z]?M[A-Z]?TR[A-Z]*|ODOMETER|ODOMETRO|ODO READING|MI?L[EI]?AGE(?:\s*IN|\s*OUT)?|KMS?|ODO)\b\.?/;
/** A distance that is not the car's reading: the next service, a range, an interval. */
const NOT_ODO =
  /NEXT|PROXIM|URMATOAR|\bLA\s+\d|\bAT\s+\d|EVERY|CADA|INTERVAL|GARANTI|WARRANTY|KM\s*\/\s*H|RANGE|AUTONOM/;

/**
 * The odometer: the number after an odometer label anywhere on the line (not a date, not the next
 * service's), else a number followed by "km". Miles are converted.
 */
export function odometer(lines: Line[]): { value: number; conf: number } | null {
  const read = (l: Line, text: string, conf: number) => {
    const clean = text.replace(/\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/g, ' ');
    const v = amountTokens(clean, 'int').find((t) => t.value >= 10 && !/^(19|20)\d{2}$/.test(t.token))?.value;
    if (v === undefined) return null;
    // "48320miles": PaddleOCR glues the unit to the number.
    return { value: /(?:\b|(?<=\d))MILES?\b/.test(l.norm) ? Math.round(v * 1.609344) : v, conf };
  };
  // A label that starts its line first ("KM 270243"), then one inside a line ("N-340 km 12" is an address).
  const starting = lines.filter((l) => ODO_LABEL.exec(l.norm)?.index === 0);
  for (const l of [...starting, ...lines.filter((l) => !starting.includes(l))]) {
    if (NOT_ODO.test(l.norm)) continue;
    const m = ODO_LABEL.exec(l.norm);
    if (!m) continue;
    // Inside a line only a full label counts: "N-340 km 12" is an address, "Mileage: 45,210" a reading.
    // "Nr. înmatriculare: B 729 XYZ   KM: 51.196": a short label with its colon is a label anywhere.
    const colon = /^\s*:/.test(l.norm.slice((m.index ?? 0) + m[0].length));
    if ((m.index ?? 0) > 0 && /^(KMS?|ODO)\b/.test(m[1] ?? '') && !colon) continue;
    const own = read(l, l.text.slice((m.index ?? 0) + m[0].length), l.confidence);
    if (own) return own;
    const next = lines[l.index + 1];
    const below =
      next && amountTokens(next.text, 'int').length === 1 ? read(l, next.text, next.confidence * 0.9) : null;
    if (below) return below;
  }
  for (const l of lines) {
    if (NOT_ODO.test(l.norm)) continue;
    const m = /(\d[\d.,\s]{2,}\d)\s*KM\b/.exec(l.norm);
    if (m) {
      const v = read(l, (m[1] ?? '').replace(/\s/g, ''), l.confidence * 0.8);
      if (v && v.value >= 100) return v;
    }
  }
  return null;
}

export function fuelType(text: string): { value: string; conf: number } | null {
  const norm = text.replace(/(?<=[A-Z]{2})0(?![\d.,])/g, 'O'); // "GASOLE0", "PL0MO": a zero for an O
  if (/\bKWH\b|INCARCARE|RECARGA|CHARG|ELECTRIC/.test(norm)) return { value: 'ELECTRIC', conf: 0.95 };
  // Spaces optional: PaddleOCR prints "GPLAUTO", "SINPLOMO98".
  if (/\b(GPL|LPG|GLP)(?=\b|AUTO)|AUTOGAS/.test(norm)) return { value: 'GPL', conf: 0.95 };
  if (/MOTORINA|DIESEL|GASOLEO|GASOIL|\bDSL\b/.test(norm)) return { value: 'DIESEL', conf: 0.95 };
  if (/BENZINA|GASOLINA|UNLEADED|PETROL|SIN ?PLOMO|\bSP ?9[58]\b|SUPER ?9[58]|EFIX|\bRON ?9[58]\b/.test(norm))
    return { value: 'PETROL', conf: 0.9 };
  if (/\b9[58]\b/.test(norm)) return { value: 'PETROL', conf: 0.6 };
  return null;
}

export function extractFuel(lines: Line[]): Extraction {
  const r = new Result();
  const all = lines.map((l) => l.norm).join('\n');
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);

  // Candidates for each number, with how sure we are of each.
  type C = { value: number; conf: number };
  const qty: C[] = [];
  const ppl: C[] = [];
  const lineAmounts: C[] = [];
  for (const l of lines) {
    const isPpl = PPL_LABEL.test(l.norm);
    for (const m of l.norm.matchAll(UNIT)) {
      // "20,08 LITRI x 7,48 LEI/L": the unit right after a number (not "LEI/L").
      const before = l.norm.slice(0, m.index ?? 0);
      if (/\/\s*$/.test(before)) continue;
      const v = parseNumber(m[1] ?? '', 'qty');
      if (v !== null && v > 0 && v < 2000) qty.push({ value: v, conf: l.confidence });
    }
    // "20,08 L x 7,48", "41.27 Litres @1.739 /L" (PaddleOCR: "41.27Litres@1.739/L"); the unit's
    // small l is often read as I or 1 ("48,08 I x 1,465", "22,070 1 x 6,668").
    const x =
      /(?<![\d.,])(\d[\d.,]*)\s*(?:LITRES|LITERS|LITROS|LITRO|LITRI|LITRU|LITRE|LITER|LTRS|LTR|LT|L|I|1|KWH)?\s*[X*@×]\s*(?:[£€$]|EUR|LEI|RON)?\s*(\d[\d.,]*)/.exec(
        l.norm,
      );
    if (x) {
      const a = parseNumber(x[1] ?? '', 'qty');
      let b = parseNumber(x[2] ?? '', 'qty');
      // "@ 165.9p/L": pence per litre.
      if (b && /^\s*P\s*\//.test(l.norm.slice((x.index ?? 0) + x[0].length))) b = Math.round(b * 10) / 1000;
      if (a) qty.push({ value: a, conf: l.confidence });
      // "21.0701x 7,482": that l glued to a quantity with its decimals; the total decides.
      const glued = /^(\d+[.,]\d{2,3})1$/.exec(x[1] ?? '');
      if (glued) qty.push({ value: parseNumber(glued[1] ?? '', 'qty') ?? 0, conf: l.confidence * 0.8 });
      if (b) ppl.push({ value: b, conf: l.confidence });
      // The amount a fiscal printer puts after them ("21,070 l x 7,482   157,65 A"): a total if they agree.
      const rest = amountTokens(l.text.slice(l.text.length - (l.norm.length - (x.index + x[0].length))));
      const amount = rest.filter((t) => /[.,]\d{2}$/.test(t.token)).at(-1);
      if (amount) lineAmounts.push({ value: amount.value, conf: l.confidence * 0.8 });
    }
    if (QTY_LABEL.test(l.norm) && !isPpl) {
      // "Cantidad   25,96 1": the unit's l read as a 1 after the quantity with its decimals.
      const m = QTY_LABEL.exec(l.norm);
      const own = amountTokens(l.text.slice((m?.index ?? 0) + (m?.[0].length ?? 0)), 'qty');
      const decimals = own.filter((t) => /[.,]\d{1,3}$/.test(t.token));
      const v =
        own.length > 1 && decimals.length === 1
          ? (decimals[0]?.value ?? null)
          : labelValue(lines, l, 'qty', QTY_LABEL);
      if (v !== null && v > 0) qty.push({ value: v, conf: l.confidence });
    }
    if (isPpl && !x) {
      const v = labelValue(lines, l, 'qty', PPL_LABEL);
      if (v !== null && v > 0 && v < 100) ppl.push({ value: v, conf: l.confidence });
    }
  }
  // A table under "Litros  Precio/L  Importe" headings.
  const table = tableValues(lines);
  for (const t of table) {
    if (t.column === 'qty' && t.value > 0 && t.value < 2000) qty.unshift({ value: t.value, conf: t.conf });
    if (t.column === 'ppl' && t.value > 0 && t.value < 100) ppl.unshift({ value: t.value, conf: t.conf });
  }
  const tot = [
    ...totals(lines),
    ...table.filter((t) => t.column === 'amount').map((t) => ({ value: t.value, conf: t.conf * 0.9 })),
    ...lineAmounts,
  ];
  // Pick the consistent set: litres × price/L within 2 % of the total.
  let best: { l: C; p: C; t: C; err: number } | null = null;
  for (const l of qty)
    for (const p of ppl)
      for (const t of tot) {
        const err = Math.abs(l.value * p.value - t.value) / t.value;
        if (!best || err < best.err) best = { l, p, t, err };
      }
  // Litres × price/L printed as an amount anywhere (a photo's slant can put a pair's amount beside
  // another label): that amount is the total, when it agrees to the cent.
  if (!best || best.err > 0.02) {
    const printed = lines.flatMap((l) =>
      amountTokens(l.text)
        .filter((t) => /[.,]\d{2}$/.test(t.token) && !t.glued)
        .map((t) => ({ value: t.value, conf: l.confidence * 0.7 })),
    );
    // One unit at its own price is no evidence: the amount must differ from both factors.
    for (const l of qty.filter((q) => q.value !== 1))
      for (const p of ppl)
        for (const t of printed.filter((a) => a.value !== p.value && a.value !== l.value)) {
          const err = Math.abs(l.value * p.value - t.value) / t.value;
          if (t.value > 0 && Math.abs(l.value * p.value - t.value) < 0.011 && (!best || err < best.err))
            best = { l, p, t, err };
        }
  }
  if (best && best.err <= 0.02) {
    // Three numbers that agree vouch for each other, whatever the OCR's own confidence.
    r.set('liters', best.l.value, Math.max(best.l.conf, 0.95));
    r.set('pricePerLiter', best.p.value, Math.max(best.p.conf, 0.95));
    r.set('fuelPrice', best.t.value, Math.max(best.t.conf, 0.95));
  } else {
    const l = qty[0];
    const p = ppl[0];
    const t = tot[0];
    if (l && p && !t) {
      r.set('liters', l.value, l.conf * 0.9);
      r.set('pricePerLiter', p.value, p.conf * 0.9);
      r.set('fuelPrice', round(l.value * p.value, 2), 0.6);
      r.warnings.push({ field: 'fuelPrice', code: 'DERIVED' });
    } else if (l && t && !p) {
      r.set('liters', l.value, l.conf * 0.9);
      r.set('fuelPrice', t.value, t.conf * 0.9);
      r.set('pricePerLiter', round(t.value / l.value, 3), 0.6);
    } else if (p && t && !l) {
      r.set('pricePerLiter', p.value, p.conf * 0.9);
      r.set('fuelPrice', t.value, t.conf * 0.9);
      r.set('liters', round(t.value / p.value, 2), 0.6);
      r.warnings.push({ field: 'liters', code: 'DERIVED' });
    } else {
      r.set('liters', l?.value, (l?.conf ?? 0) * 0.6);
      r.set('pricePerLiter', p?.value, (p?.conf ?? 0) * 0.6);
      r.set('fuelPrice', t?.value, (t?.conf ?? 0) * 0.6);
      if (l && p && t) {
        r.warnings.push({
          field: 'fuelPrice',
          code: 'TOTAL_MISMATCH',
          params: { liters: l.value, pricePerLiter: p.value, total: t.value },
        });
      }
    }
  }

  const odo = odometer(lines);
  r.set('odometer', odo?.value, odo?.conf ?? 0);
  const ft = fuelType(all);
  r.set('fuelType', ft?.value, ft?.conf ?? 0);
  return r.done();
}

// ── expense ─────────────────────────────────────────────────────────────────
const EXPENSE_TYPES: [string, RegExp][] = [
  ['Parking', /PARCARE|PARKING|APARCAMIENTO|CAR ?PARK|ESTACIONAMIENTO|\bNCP\b|\bSABA\b/],
  ['Tolls', /TAXA ?DE ?POD|ROVINIET|PEAJE|\bTOLL|AUTOPISTA|VINIETA|VIGNETTE|PEAGE/],
  ['Wash', /SPALATORIE|SPALARE|LAVADO|LAVADERO|CAR ?WASH|\bWASH\b|AUTOLAVADO/],
  ['Tyres', /VULCANIZARE|ANVELOPE|NEUMATICO|TYRE|TIRE|CAUCIUC/],
  ['Tax', /IMPOZIT|IMPUESTO|VEHICLE ?TAX|ROAD ?TAX|\bIVTM\b/],
  ['Repair', /REPARATIE|REPARACION|REPAIR|TINICHIGERIE|CHAPA|BODYWORK/],
  ['Maintenance', /REVIZIE|MANTENIMIENTO|SERVICE|ULEI|ACEITE|\bOIL\b|FILTR/],
  ['Accessories', /ACCESORI|ACCESSOR/],
];

/**
 * PaddleOCR reads no Romanian diacritics and drops some Spanish accents: the usual receipt words
 * get them back ("-cion" → "-ción"), only in a text that has none at all.
 */
const ACCENTS: [RegExp, string][] = [
  [/(?<=[cs])ion\b/g, 'ión'],
  [/\bspalatorie\b/gi, 'spălătorie'],
  [/\bspalare\b/gi, 'spălare'],
  [/\bplacute\b/gi, 'plăcuțe'],
  [/\bfrana\b/gi, 'frână'],
  [/\bdistributie\b/gi, 'distribuție'],
  [/\breparatie\b/gi, 'reparație'],
  [/\binlocuire\b/gi, 'înlocuire'],
  [/\bmanopera\b/gi, 'manoperă'],
  [/\btaxa\b/gi, 'taxă'],
];
export function restoreAccents(text: string): string {
  if (/[^ -~]/.test(text)) return text;
  let out = text;
  for (const [re, word] of ACCENTS)
    out = out.replace(re, (m) =>
      m[0] === m[0]?.toUpperCase() && word.length > 3 ? (word[0]?.toUpperCase() ?? '') + word.slice(1) : word,
    );
  return out;
}

/** The text of an item line without its amount. */
function itemText(l: Line): string {
  return (
    l.text
      .replace(/^\S{1,2}\s{2,}/, '')
      // The price at the end (with its cents, or its currency), not a count in the name ("Anvelope iarnă 4 buc").
      .replace(/\s+(?:[£€$]\s*)?-?(?:\d[\d.,]*[.,]\d{2}|\d+(?=\s*(?:LEI|RON|EUR|€|£)))\s*\S{0,4}\s*$/i, '')
      .replace(/[\s.:|_-]+$/, '')
      .trim()
  );
}

export function extractExpense(lines: Line[]): Extraction {
  const r = new Result();
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);
  let amount = checkedTotal(lines, r, 'amount');
  const paid = amount ? undefined : paidTotal(lines);
  if (paid !== undefined) amount = { value: paid, conf: 0.5 };
  if (!amount) {
    // No total and no payment: the largest amount written as money (with cents), not a postcode,
    // a year or a company number; else the largest number.
    const nums = lines.flatMap((l) =>
      amountTokens(l.text).map((t) => ({
        value: t.value,
        cents: /[.,]\d{2}$/.test(t.token),
        conf: l.confidence * 0.5,
      })),
    );
    const money = nums.filter((t) => t.cents);
    amount = (money.length ? money : nums).sort((a, b) => b.value - a.value)[0];
  }
  r.set('amount', amount?.value, amount?.conf ?? 0);
  // The type: from the priced item lines first (what was bought), then anywhere (the vendor).
  const itemLines = lines.filter(
    (l) => amounts(l.text).length > 0 && !TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm),
  );
  let type: { value: string; line?: Line } = { value: 'Other' };
  search: for (const group of [itemLines, lines])
    for (const [name, re] of EXPENSE_TYPES) {
      const line = group.find((l) => re.test(l.norm));
      if (line) {
        type = { value: name, line };
        break search;
      }
    }
  r.set('expenseType', type.value, type.line ? type.line.confidence : 0.3);
  // The description: the item line (the one naming the type, or the first priced line).
  const priced = lines.find(
    (l) =>
      !TOTAL.test(l.norm) &&
      !NOT_TOTAL.test(l.norm) &&
      !DATE_LABEL.test(l.norm) &&
      amounts(l.text).length > 0 &&
      /[A-Za-z]{3}/.test(itemText(l)),
  );
  const itemLine = type.line && amounts(type.line.text).length ? type.line : (priced ?? type.line);
  const description = itemLine ? respace(itemText(itemLine)) : '';
  r.set('description', restoreAccents(description) || null, (itemLine?.confidence ?? 0) * 0.9);
  return r.done();
}

// ── revision ────────────────────────────────────────────────────────────────
/** "Work carried out:", "Lucrări efectuate:", "Trabajo realizado:", spaces optional (PaddleOCR drops some). */
const WORK_LABEL =
  /^(LUCRAR[EI](?:\s*EFECTUATE)?|DESCRIERE(?:\s*LUCRAR[EI])?|SERVICIU|OPERATIUN[EI](?:\s*EFECTUATE)?|CONCEPTO|TRABAJOS?(?:\s*REALIZADOS?|\s*EFECTUADOS?)?|SERVICIO|DESCRIPCION|WORK(?:\s*CAR+I?E?D\s*OUT|\s*DONE|\s*PERFORMED)?|DESCRIPTION|SERVICE|JOB)\s*[:-]/;
/** A company's name (the garage's, at the top): "… SRL", "… S.L.", "… LTD", glued or not. */
const COMPANY = /(?:\b|[a-z])(?:S\.?R\.?L|S\.?L|S\.?A|LTD|PLC|LIMITED|GMBH)\.?$/i;
const SERVICE_WORDS =
  /REVIZIE|SCHIMB|INLOCUIRE|DISTRIBUTIE|REVISION|CAMBIO|SUSTITUCION|DISTRIBUCION|MANTENIMIENTO|SERVICE|CHANGE|REPLACED|TIMING|BRAKE|FRANA|FRENO|OIL|ULEI|ACEITE/;

export function extractRevision(lines: Line[]): Extraction {
  const r = new Result();
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);
  const odo = odometer(lines);
  r.set('km', odo?.value, odo?.conf ?? 0);
  const tot = checkedTotal(lines, r, 'price');
  r.set('price', tot?.value, tot?.conf ?? 0);
  // Stray marks the OCR puts between a label's words ("Trabajo ) realizado:") are no part of it.
  const work = lines.find((l) => WORK_LABEL.test(l.norm.replace(/\s*[)(|[\]]\s*/g, ' ')));
  let description: string | null = null;
  let conf = 0;
  if (work) {
    description = work.text.replace(/^[^:-]*[:-]\s*/, '').trim();
    conf = work.confidence;
  } else {
    // Not the garage's name: the first line, or one ending in SRL / S.L. / Ltd.
    const line = lines.find(
      (l) => l.index > 0 && SERVICE_WORDS.test(l.norm) && !TOTAL.test(l.norm) && !COMPANY.test(l.text.trim()),
    );
    if (line) {
      description = itemText(line);
      conf = line.confidence * 0.7;
    }
  }
  if (description) description = respace(spacedAsElsewhere(description, lines));
  r.set('description', description ? restoreAccents(description) : null, conf);
  return r.done();
}

/**
 * A description the OCR printed without its spaces ("Fullservice") is written with them where the
 * invoice repeats it (the labour line "Labour - Full service"): the same letters, spaced.
 */
export function spacedAsElsewhere(text: string, lines: Line[]): string {
  const key = normalize(text).replace(/[^A-Z]/g, '');
  if (key.length < 6) return text;
  const spaces = (t: string) => (t.match(/\s/g) ?? []).length;
  for (const l of lines) {
    // Each letter of the line, with where it is in the line's text.
    const at: number[] = [];
    let letters = '';
    [...l.text].forEach((c, i) => {
      const n = normalize(c).replace(/[^A-Z]/g, '');
      if (n.length === 1) {
        letters += n;
        at.push(i);
      }
    });
    const from = letters.indexOf(key);
    if (from < 0) continue;
    const found = l.text.slice(at[from], (at[from + key.length - 1] ?? 0) + 1);
    if (spaces(found) > spaces(text)) return found;
  }
  return text;
}

// ── insurance ───────────────────────────────────────────────────────────────
/** Insurers common in Romania, Spain and the UK, with their usual names. */
const INSURERS: [RegExp, string][] = [
  [/ALLIANZ[\s-]*TIRIAC/, 'Allianz-Țiriac Asigurări'],
  [/GROUPAMA/, 'Groupama Asigurări'],
  [/OMNIASIG/, 'Omniasig VIG'],
  [/GENERALI/, 'Generali România'],
  [/ASIROM/, 'Asirom VIG'],
  [/GRAWE/, 'Grawe România'],
  [/UNIQA/, 'UNIQA Asigurări'],
  [/EUROINS/, 'Euroins România'],
  [/HDI/, 'HDI Versicherung'],
  [/SIGNAL ?IDUNA/, 'Signal Iduna'],
  [/MAPFRE/, 'Mapfre'],
  [/LINEA ?DIRECTA/, 'Línea Directa'],
  [/MUTUA ?MADRILENA/, 'Mutua Madrileña'],
  [/AXA/, 'AXA Seguros'],
  [/ALLIANZ ?SEGUROS/, 'Allianz Seguros'],
  [/REALE/, 'Reale Seguros'],
  [/SANTALUCIA/, 'Santalucía'],
  [/AVIVA/, 'Aviva'],
  [/DIRECT ?LINE/, 'Direct Line'],
  [/ADMIRAL/, 'Admiral'],
  [/CHURCHILL/, 'Churchill'],
  [/\bLV=|LIVERPOOL ?VICTORIA|^LV\b|^L[VW]{2}=/, 'LV='],
  [/HASTINGS/, 'Hastings Direct'],
  [/ALLIANZ/, 'Allianz'],
];
/**
 * An insurer's name in the letterhead (the first three lines) with a letter in four misread
 * ("MUTUA MADRILEINA", "GROUPANAIGRARISA", "ALLAN TRIACAIGURARI"), names of six letters and more.
 */
export function fuzzyInsurer(lines: Line[]): string | null {
  let best: { name: string; ratio: number } | null = null;
  for (const l of lines.slice(0, 3)) {
    const letters = l.norm.replace(/[^A-Z]/g, '');
    for (const [, name] of INSURERS) {
      const word = normalize(
        name.split(/ (?:Asigurări|VIG|România|Seguros|Versicherung|Direct)$/)[0] ?? name,
      ).replace(/[^A-Z]/g, '');
      if (word.length < 6) continue;
      const edits = editsToFind(word, letters);
      if (edits <= Math.floor(word.length / 4) && (!best || edits / word.length < best.ratio))
        best = { name, ratio: edits / word.length };
    }
  }
  return best?.name ?? null;
}
const COVERAGE: [RegExp, string][] = [
  [/THIRD ?PARTY,? ?FIRE ?(AND|&) ?THEFT/, 'Third party, fire and theft'],
  [/COMPREHENSIVE/, 'Comprehensive'],
  [/THIRD ?PARTY/, 'Third party'],
  [/TERCEROS ?AMPLIADO/, 'Terceros ampliado'],
  [/TODO ?RIESGO/, 'Todo riesgo'],
  [/TERCEROS/, 'Terceros'],
  [/(?:\b|ASIGURARE ?)CASCO\b/, 'CASCO'],
  [/(?:\b|ASIGURARE ?)RCA\b/, 'RCA'],
];
/**
 * The fewest letters to add, drop or change in `text` to find `word` inside it (Sellers' approximate
 * substring match).
 */
export function editsToFind(word: string, text: string): number {
  let prev = new Array<number>(word.length + 1).fill(0).map((_, i) => i);
  let best = prev[word.length] ?? word.length;
  for (const c of text) {
    const cur = [0];
    for (let i = 1; i <= word.length; i++)
      cur[i] = Math.min(
        (prev[i] ?? 0) + 1,
        (cur[i - 1] ?? 0) + 1,
        (prev[i - 1] ?? 0) + (word[i - 1] === c ? 0 : 1),
      );
    prev = cur;
    best = Math.min(best, cur[word.length] ?? best);
  }
  return best;
}

/**
 * The cover type, in COVERAGE's order (the longer names first): its name as printed, or as the OCR
 * read it with letters lost or changed ("tercersamplado", "Comprehemive", "Third party.tire and
 * theft"), for names of eight letters and more, one edit for each six letters.
 */
export function coverageType(norm: string): { name: string; exact: boolean } | null {
  const letters = norm.replace(/[^A-Z]/g, '');
  for (const [re, name] of COVERAGE) {
    if (re.test(norm)) return { name, exact: true };
    const word = normalize(name).replace(/[^A-Z]/g, '');
    if (word.length >= 8 && editsToFind(word, letters) <= Math.floor(word.length / 6))
      return { name, exact: false };
  }
  return null;
}
export const fuzzyCoverage = (norm: string) => coverageType(norm)?.name ?? null;

/** "Cover:", "Modalidad:", "Tip asigurare:" at the start of a line, as printed or a letter off. */
const COVER_LABEL =
  /^(?:C[O0][VU][EA][RT](?:AGE)?|MODAL[A-Z]{3,5}|TIP\s*ASIG[A-Z]*|TIPO DE SEGURO|COBERTURA)\s*[:.;]?\s*/;
/** Lines that name a cover's limit, not the policy's cover ("Third party property damage limit"). */
const COVER_LIMIT = /LIMIT|DAMAGE|DAUNE|DANOS|HASTA/;

/**
 * The policy's cover: on the line of its label, the value as printed or with a letter in four
 * misread ("Cover: Thrd paty"); else anywhere but on a limit's line, as coverageType finds it.
 */
export function coverOf(lines: Line[]): { name: string; exact: boolean } | null {
  for (const l of lines) {
    const m = COVER_LABEL.exec(l.norm);
    if (!m) continue;
    const value = l.norm.slice(m[0].length);
    const letters = value.replace(/[^A-Z]/g, '');
    // In COVERAGE's order, the longer names first: "Third party. fire and theft" is not "Third party".
    for (const [re, name] of COVERAGE) {
      if (re.test(value)) return { name, exact: true };
      const word = normalize(name).replace(/[^A-Z]/g, '');
      if (
        word.length >= 8 &&
        letters.length >= word.length / 2 &&
        editsToFind(word, letters) <= Math.floor(word.length / 4)
      )
        return { name, exact: false };
    }
  }
  return coverageType(
    lines
      .filter((l) => !COVER_LIMIT.test(l.norm))
      .map((l) => l.norm)
      .join('\n'),
  );
}

/** "Prima" and "Premium" as the OCR also reads them: "Primi", "Pnma", "Pima", "Premlum". */
const PREMIUM_WORD = /PRIMA|PREMIUM|\bP(?:R?[I1LN]|RN)M[AI1]\b|\bPREM[I1L]?[UV]M\b/;
const PRICE_LABEL = new RegExp(`(${PREMIUM_WORD.source}|IMPORTE|TOTAL DE PLATA|TOTAL A PAGAR|TOTAL)`);

const TO_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '3': 'J',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
  ')': 'J',
  ']': 'J',
  '(': 'C',
  '|': 'I',
};
const TO_DIGIT: Record<string, string> = {
  O: '0',
  D: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  T: '7',
};

/**
 * Romanian RCA series are RO/<2 digits>/<letter + 2 digits>/<2 letters>: OCR's digit-for-letter
 * swaps (R0, 325 for J25) are undone by position.
 */
export function fixRoSeries(serie: string): string {
  const parts = serie.toUpperCase().replace(/\s+/g, '').split('/');
  if (parts.length !== 4) return serie;
  const letters = (s: string) => s.replace(/[\d)\]|(]/g, (c) => TO_LETTER[c] ?? c);
  const digits = (s: string) => s.replace(/[A-Z]/g, (c) => TO_DIGIT[c] ?? c);
  const [a = '', b = '', c = '', d = ''] = parts;
  return [letters(a), digits(b), letters(c.slice(0, 1)) + digits(c.slice(1)), letters(d)].join('/');
}

// "Póliza" is also read "P6LIZA" or "P0LIZA", and "nº" as "N?" (the OCR's ó and º).
// "Policy" also as the OCR reads it: "Pollcy", "Polcy"; "Póliza" as "Pohiza"; "Nr." as "NI."; "Nº" lost
// before a number glued to the N ("N39378394", "NPOL50125523", "NCHU-1447541").
// Also "Polley", "Poltcy", "Poficy", "Polly"; "number" as "munber".
const POLICY_WORD = 'P[O0](?:L+[I1L]?C|[LITFU1]{1,3}[CE]|L+)[YV]';
const NUMBER_WORD = '[NM][UV][MN][BDE][EO]R';
const POLIZA_WORD = 'P[O06][LIH1][I1L]?Z[A4]';
const POLICY_LABEL = new RegExp(
  `(?:(?:${POLICY_WORD}|CERTIFICATE)\\s*(?:${NUMBER_WORD}|NO(?![A-Z])\\.?|NR(?![A-Z])\\.?|REF(?:ERENCE)?(?![A-Z])\\.?|#)?|(?:N\\S{0,2}|NUMERO)\\s*(?:DE\\s*)?${POLIZA_WORD}|${POLIZA_WORD}(?:\\s*\\/\\s*(?:SUPLEMENTO|CERTIFICADO|RECIBO))?\\s*(?:N(?:[°º?]|9(?=[A-Z]))|NO?(?![A-Z])\\.?|NUM(?:ERO)?(?![A-Z])\\.?)?|NUMAR(?:UL)?\\s*POLITEI|NUMAR\\s*POLITA|NR\\.?\\s*POLITA|POLITA\\s*(?:NR(?![A-Z])\\.?|SERIA)?|(?:^|\\s)(?:N[°º]|(?:NR|NO|NUMBER|NUMERO)(?![A-Z])\\.?|N[I1L]\\.)|^N[°º?]?(?=[A-Z]{0,3}-?\\d{6,}\\b))\\s*[:.#?]?\\s*`,
  'g',
);
/**
 * A line that is nothing but a policy-number label ("Póliza número", "Nº de póliza:", "Policy
 * ref"): a form that prints the value on the line below.
 */
function isPolicyLabelAlone(norm: string): boolean {
  const text = norm.trim();
  return [...text.matchAll(POLICY_LABEL)].some(
    (m) => (m.index ?? 0) === 0 && /^[\s:.#?]*$/.test(text.slice(m[0].length)) && /[A-Z]{2}/.test(m[0]),
  );
}
/** A column heading that names the policy number ("Policy number", "Nr. poliță", "Póliza"), value below. */
const POLICY_HEADING = new RegExp(
  `^(?:${POLICY_WORD}\\s*(?:${NUMBER_WORD}|NO\\.?)|NR\\.?\\s*POLITA|${POLIZA_WORD}|N\\S{0,2}\\s*(?:DE\\s*)?${POLIZA_WORD})(?:\\s{2,}|$)`,
);
/** A Romanian series and number ("RO/06/J25/KF 332215395"), as a table cell holds them. */
const RO_SERIES_CELL =
  /^([A-Z0-9]{2}\/[A-Z0-9]{1,3}\/[A-Z0-9]{2,4}\/(?:[A-Z0-9]{2,3}(?=\s)|[A-Z]{2}))\s*(\d{6,})/;

/**
 * The policy number after its label ("Policy No.", "Nº", "Nr.", "Póliza", "Număr poliță"): the next
 * token with at least three digits, so "Póliza de seguro" or "Nr. crt." are not taken.
 */
export function policyNumber(norm: string): string | null {
  for (const m of norm.matchAll(POLICY_LABEL)) {
    const t = leadingPolicyToken(norm.slice((m.index ?? 0) + m[0].length));
    if (t) return t;
  }
  return null;
}

/**
 * A label the OCR garbled and glued to its "No:" ("CortncatoNo: CHU-6670983"): the token after it,
 * only when it has letters as well as digits (a phone number after "Teléfono:" has none).
 */
export function gluedLabelPolicy(norm: string): string | null {
  for (const m of norm.matchAll(/(?<=[A-Z]{3})N[O0R]\s*[.:]\s*/g)) {
    const t = leadingPolicyToken(norm.slice((m.index ?? 0) + m[0].length));
    if (t && /[A-Z]{2}/.test(t) && /\d{5}/.test(t)) return t;
  }
  return null;
}

/** "3V2025/205481": a Spanish number (office / year / number) whose first slash the OCR read V or |. */
export const fixPolicySlashes = (v: string) =>
  v.replace(/^(\d{1,2})[V|\\]((?:19|20)\d{2}\/\d{4,7})$/, '$1/$2');

/** The policy-number-like token that starts `text`: at least three digits, not a date. */
function leadingPolicyToken(text: string): string | null {
  const t = /^([A-Z0-9][A-Z0-9/.-]{3,}[A-Z0-9])/.exec(text)?.[1];
  // "28-UL-2025": a date whose month the OCR garbled is no policy number either.
  const date = t && /^\d{1,2}[-/.][A-Z]{2,4}[-/.](?:19|20)\d{2}$/.test(t);
  return t && !date && (t.match(/\d/g) ?? []).length >= 3 && !findDates(t).length ? t : null;
}

/**
 * The policy number of a table whose heading row starts with "Policy number" ("Nr. poliță",
 * "Póliza"): the first cell of the row below it (a Romanian series with its number).
 */
export function policyNumberBelow(heading: string, row: Line | undefined): string | null {
  if (!row) return null;
  // "Nº" (or "Nr.", "No.") alone over a line that is nothing but the number.
  if (/^(?:N[°º?'"]?|NO|NR)\s*[.:]?$/.test(heading.trim())) return lonePolicyToken(row);
  if (!(POLICY_HEADING.test(heading) || isPolicyLabelAlone(heading))) return null;
  const ro = RO_SERIES_CELL.exec(row.norm);
  if (ro) return `${fixRoSeries(ro[1] ?? '')} ${ro[2]}`;
  return leadingPolicyToken(row.norm);
}

/** A line that is nothing but a policy-number-like token with five digits or more ("POL76693172"). */
function lonePolicyToken(l: Line | undefined): string | null {
  const text = l?.norm.trim() ?? '';
  const t = leadingPolicyToken(text);
  return t === text && /(?:\d\D*){5}/.test(t) ? t : null;
}

/**
 * The number on the line just above a label that stands alone with nothing usable below it: a
 * stacked form whose lines the OCR put out of order ("POL76693172" over "Póliza/Suplemento").
 */
export function policyNumberAbove(lines: Line[]): string | null {
  for (const l of lines)
    if (isPolicyLabelAlone(l.norm) || POLICY_HEADING.test(l.norm)) {
      const above = lonePolicyToken(lines[l.index - 1]);
      if (above) return above;
    }
  return null;
}

export function extractInsurance(lines: Line[]): Extraction {
  const r = new Result();
  const all = lines.map((l) => l.norm).join('\n');
  const insurer = INSURERS.find(([re]) => re.test(all));
  const nearInsurer = insurer ? null : fuzzyInsurer(lines);
  if (insurer) r.set('provider', insurer[1], 0.95);
  else if (nearInsurer) r.set('provider', nearInsurer, 0.6);
  else {
    const head = lines.find((l) => /[A-Z]{3}/.test(l.norm) && !/POLI|CERTIF|INSURANCE|SEGURO/.test(l.norm));
    r.set(
      'provider',
      head ? head.text.replace(/\s+(S\.?A\.?|SRL|LTD|PLC)\.?$/i, '') : null,
      (head?.confidence ?? 0) * 0.5,
    );
  }

  // Policy number: Romanian "Seria X Nr. Y", otherwise the token after a policy-number label, or
  // the cell under a "Policy number" column heading.
  let policy: { v: string; conf: number } | null = null;
  for (const [i, l] of lines.entries()) {
    const ro =
      /(?:SERIA|SENA|SER1A)\s*[:.]?\s*([A-Z0-9/ )(|\][-]+?)\s*(?:NR|NUMAR)\.?\s*[:.]?\s*([A-Z0-9-]+)/.exec(
        l.norm,
      );
    if (ro) {
      const start = l.norm.indexOf(ro[1] ?? '');
      const serie = l.text.slice(start, start + (ro[1] ?? '').length).trim();
      policy = { v: `${fixRoSeries(serie)} ${ro[2]?.replace(/O/g, '0')}`, conf: l.confidence };
      break;
    }
    const other = policyNumber(l.norm) ?? policyNumberBelow(l.norm, lines[i + 1]);
    if (other) {
      policy = { v: other, conf: l.confidence };
      break;
    }
  }
  if (!policy) {
    const v = policyNumberAbove(lines);
    if (v) policy = { v, conf: 0.6 };
  }
  if (!policy)
    for (const l of lines) {
      const v = gluedLabelPolicy(l.norm);
      if (v) {
        policy = { v, conf: l.confidence * 0.8 };
        break;
      }
    }
  r.set('policyNumber', policy ? fixPolicySlashes(policy.v) : null, policy?.conf ?? 0);
  const cover = coverOf(lines);
  r.set('coverageType', cover?.name, cover ? (cover.exact ? 0.9 : 0.6) : 0);

  // Dates: each one's role from the label before it (or the column heading above it), then the
  // pair that makes a whole term (start + n months − 1 day = end) wins over a misread or an issue date.
  const { start, end, conf: dateConf } = policyPeriod(lines);
  r.set('startDate', start, dateConf);
  r.set('endDate', end, dateConf);
  // An end before the start has its own warning (the preview's END_BEFORE_START).
  if (start && end && end >= start && !isWholeMonths(start, end))
    r.warnings.push({ field: 'startDate', code: 'TERM_MISMATCH', params: { start, end } });

  premium(lines, r);
  // Reminders stay on unless the document says explicitly that renewal notices are off.
  r.set('reminderEnabled', !remindersOff(lines), 0.9);
  return r.done();
}

/** What a document calls its renewal reminders, letters only, to find them with a letter or two misread. */
const REMINDER_LABELS = [
  'RENEWALREMINDERS',
  'RENEWALNOTICES',
  'REMINDERS',
  'NOTIFICARIDEREINNOIRE',
  'REAMINTIRIDEREINNOIRE',
  'NOTIFICARI',
  'AVISODERENOVACION',
  'RECORDATORIODERENOVACION',
  'AVISOS',
];
/**
 * True when a line says the renewal reminders are off ("Renewal reminders: No", "Notificări de
 * reînnoire: NU", "Aviso de renovación: NO"), its label as printed or with a letter in four
 * misread ("Renewal remunders: No", "Notifican de reinnoire: NU").
 */
export function remindersOff(lines: Line[]): boolean {
  for (const l of lines) {
    if (
      /(NOTIFICARI|REAMINTIRE|REMINDER|AVISO|RECORDATORIO|RENEWAL NOTICE)[^:]*:\s*(NU|NO|OFF|FALSE)\b/.test(
        l.norm,
      )
    )
      return true;
    const m = /^(.{5,45}?)\s*[:.;]?\s*\b(NU|NO|OFF)\s*\.?$/.exec(l.norm.trim());
    const label = m?.[1]?.replace(/[^A-Z]/g, '') ?? '';
    if (
      label.length >= 5 &&
      REMINDER_LABELS.some(
        (w) => label.length <= w.length + 3 && editsToFind(w, label) <= Math.floor(w.length / 4),
      )
    )
      return true;
  }
  return false;
}

// ── the policy's period ────────────────────────────────────────────────────
type DateRole = 'start' | 'end' | 'issue' | 'range' | 'other';
/**
 * Labels that say what the date after them is, spaces optional and with the OCR's usual misreads
 * ("Elfective", "Explry", "Date of tssue", "Fecha de emisi6n"). An issue date is never the start.
 */
const DATE_ROLES: [DateRole, RegExp][] = [
  // Another person's or thing's date: the driver's birth or licence, the car's registration.
  [
    'other',
    /NASTER[A-Z]*|NACIMIENTO|BIRTH|CARNET|PERMIS[A-Z]*|LICEN[CS]E|INMATRICULAR[A-Z]*|MATRICULACION|FIRST REG[A-Z]*/g,
  ],
  // "Date of isswt", "Dte o msue", "Ised": the issue date's label as the OCR garbles it.
  [
    'issue',
    /EMI[ST][A-Z0-9]*|EMTID[AO]|\b[ITLH1]S{1,2}U?ED?\b|EXPEDICION|DATE OF ISSUE|\bDA?TE\s*O[FT]?\s*[A-Z($]{0,2}[SU$][A-Z$]{1,3}\b|SIGNED|SEMNAT/g,
  ],
  [
    'start',
    /VALABILA\s*DE\s*LA|\bDE\s*LA\b|INCEPAND\s*CU|INCEPERII|INCEPUT|FECHA\s*(?:DE\s*)?EFECTO|\bE[LF]{0,2}ECTO\b|DESDE|\bE[A-Z]?F+ECTIVE|START(?:\s*DATE)?|VALID\s*FROM|\bFROM\b|COMMENCE[A-Z]*|INICIO/g,
  ],
  [
    'end',
    /P[AI]NA\s*LA|EXPIR[A-Z]*|EXP[IL1]RY|VENCIM[A-Z]*|HASTA|END\s*DATE|\bEND\b|VALID\s*UNTIL|UNTIL|\bTO\b|SFARSIT|FINAL(?:IZARE)?|\bFIN\b/g,
  ],
  ['range', /PERIOAD[AE]|PERIOD|DURACION|VIGENCIA|VALABILITATE|VALIDITY/g],
];

/** The labels on a line, left to right. */
function dateLabels(norm: string): { role: DateRole; at: number; end: number }[] {
  const out: { role: DateRole; at: number; end: number }[] = [];
  for (const [role, re] of DATE_ROLES)
    for (const m of norm.matchAll(re)) {
      const at = m.index ?? 0;
      // A label inside a longer one found first ("DE LA" in "VALABILA DE LA") is the same label.
      if (out.some((o) => at >= o.at && at < o.end)) continue;
      out.push({ role, at, end: at + m[0].length });
    }
  return out.sort((a, b) => a.at - b.at);
}

type DatedRole = { iso: string; role: DateRole | null; instalment: boolean; line: number };

/**
 * Every date of the document with the role its label gives it: the label nearest before it on its
 * line ("Effective date: 10/02/2024   Expiry date: 09/08/2024"); on a line of two dates under a
 * "period" label, the first starts and the second ends; in a row under column headings ("Policy
 * number  Start date  End date"), the heading of its column, in order.
 */
export function datedRoles(lines: Line[]): DatedRole[] {
  const out: DatedRole[] = [];
  for (const l of lines) {
    const ds = findDates(l.norm);
    if (!ds.length) continue;
    const labels = dateLabels(l.norm);
    const instalment = isInstalmentLine(l);
    const roles: (DateRole | null)[] = ds.map(
      (d) => labels.filter((x) => x.end <= d.at + 1).at(-1)?.role ?? null,
    );
    // "Period: X - Y", "from X to Y" without its own start label.
    if (ds.length === 2 && !roles.some((r) => r && r !== 'range') && labels.some((x) => x.role === 'range')) {
      roles[0] = 'start';
      roles[1] = 'end';
    }
    if (!labels.length) {
      // A row under column headings: the heading line above holds the labels and no date.
      const head = lines[l.index - 1];
      const cols =
        head && !findDates(head.norm).length ? dateLabels(head.norm).filter((x) => x.role !== 'range') : [];
      if (cols.length >= 2 && cols.length === ds.length)
        cols.forEach((c, i) => {
          roles[i] = c.role;
        });
    }
    ds.forEach((d, i) => {
      out.push({ iso: d.iso, role: roles[i] ?? null, instalment, line: l.index });
    });
  }
  return out;
}

/**
 * The policy's start and end: the labelled ones when they make a whole term; else the two dates
 * (no issue date, no instalment's due date) that make an exact term, labelled ones and a yearly
 * term first; else the labelled ones, the gaps filled with the earliest and latest other dates.
 */
export function policyPeriod(lines: Line[]): { start: string | null; end: string | null; conf: number } {
  const dates = datedRoles(lines);
  const conf = (l: number | undefined) => lines[l ?? -1]?.confidence ?? 0.5;
  const s = dates.find((d) => d.role === 'start' && !d.instalment);
  const e = dates.filter((d) => d.role === 'end' && !d.instalment && (!s || d.iso > s.iso)).at(0);
  if (s && e && isWholeMonths(s.iso, e.iso))
    return { start: s.iso, end: e.iso, conf: Math.max(0.9, Math.min(conf(s.line), conf(e.line))) };
  const usable = dates.filter((d) => d.role !== 'issue' && d.role !== 'other' && !d.instalment);
  const latest = usable
    .map((d) => d.iso)
    .sort()
    .at(-1);
  let best: { a: DatedRole; b: DatedRole; score: number } | null = null;
  for (const a of usable)
    for (const b of usable) {
      const n = a.iso < b.iso ? termMonths(a.iso, b.iso) : 0;
      if (!n) continue;
      const score =
        (a.role === 'start' ? 4 : 0) +
        (b.role === 'end' ? 4 : 0) +
        (n === 12 ? 2 : n === 6 ? 1 : 0) +
        (b.iso === latest ? 1 : 0);
      if (!best || score > best.score) best = { a, b, score };
    }
  if (best) return { start: best.a.iso, end: best.b.iso, conf: best.score >= 4 ? 0.9 : 0.75 };
  const dues = [...new Set(dates.filter((d) => d.instalment).map((d) => d.iso))].sort();
  if (!usable.length && !s) {
    // Only an issue date and the instalments: the first instalment falls due on the start, and the
    // instalments' count times their spacing is the term.
    const first = dues[0] ?? null;
    return { start: first, end: first ? termFromInstalments(lines, dues, first) : null, conf: 0.4 };
  }
  const others = [...new Set(usable.map((d) => d.iso))].sort();
  const start = s?.iso ?? others[0] ?? null;
  const end =
    e?.iso ??
    (others.length > 1
      ? (others.at(-1) ?? null)
      : start && dues[0] === start
        ? termFromInstalments(lines, dues, start)
        : null);
  return { start, end, conf: s && e ? Math.min(conf(s.line), conf(e.line)) : 0.5 };
}

/**
 * The end of a policy paid in instalments, when no end date could be read: the number of
 * instalments (as stated, "Payable in 12 instalments", else as printed) times their spacing is a
 * 1, 3, 6 or 12-month term from `start`. Null for anything else, or fewer than two due dates.
 */
export function termFromInstalments(lines: Line[], dues: string[], start: string): string | null {
  // Two printed instalments may be two of four (lines the OCR lost): three, or a stated count.
  if (dues.length < 2) return null;
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
  // The spacing between two consecutive dues (one whose date the OCR lost leaves a double gap).
  const gap = Math.min(...dues.slice(1).map((d, i) => days(dues[i] ?? d, d)));
  const stated = statedInstalmentCount(lines);
  // As printed: the instalment lines with their own due date or amount.
  const printed = lines.filter(
    (l) => isInstalmentLine(l) && (findDates(l.norm).length > 0 || /\d[.,]\d{2}(?!\d)/.test(l.norm)),
  ).length;
  if (!stated && Math.max(printed, dues.length) < 3) return null;
  const count = stated ?? Math.max(printed, dues.length);
  const months = (count * gap) / 30.44;
  const term = [1, 3, 6, 12].find((m) => Math.abs(months - m) <= m * 0.08);
  if (!term) return null;
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1 + term, d - 1)).toISOString().slice(0, 10);
}

const PREMIUM_TIERS: [RegExp, number][] = [
  // A part of the premium, not what is paid: the net premium before its tax, the reference premium
  // before a bonus-malus discount, the discount itself.
  [/\bNET\b|\bNETA\b|\bNETO\b|REFERINTA|\bBASE\b|REDUCERE|DESCUENTO|DISCOUNT|BONIFICACI/, 0],
  [
    /PRIMA (TOTALA|ANUALA|ANUAL|TOTAL)|TOTAL PREMIUM|ANNUAL PREMIUM|TOTAL (A PAGAR|DE PLATA)|IMPORTE TOTAL|TOTAL (ANUAL|ANUALA)|(TOTAL|AMOUNT) ?PAYABLE/,
    3,
  ],
  [PREMIUM_WORD, 2],
  [/./, 1],
];
const isYear = (t: { token: string }) => /^(19|20)\d{2}$/.test(t.token);
/** A line with a word of its own, not only an amount and its currency ("1.234,56 lei", "£ 633.34"). */
const hasOwnLabel = (norm: string) =>
  norm
    .replace(/\b(LEI|RON|R0N|EUR|EUROS?|GBP)\b/g, ' ')
    .split(/[^A-Z]+/)
    .some((w) => w.length >= 3);

/** The labels of what is paid for a policy, letters only. */
const PREMIUM_LABELS = [
  'TOTALAPAGAR',
  'TOTALDEPLATA',
  'TOTALPAYABLE',
  'AMOUNTPAYABLE',
  'TOTALPREMIUM',
  'ANNUALPREMIUM',
  'TOTALANNUALPREMIUM',
  'PRIMATOTAL',
  'PRIMATOTALA',
  'PRIMAANUALA',
  'PRIMATOTALANUAL',
  'PRIMADEASIGURARE',
  'IMPORTETOTAL',
];
/**
 * The amount (with cents) of a line whose label, before it, is a premium's label with up to one
 * letter in three lost or changed ("TUAL A PAPAR   1607,70 C" for "Total a pagar"), or null.
 */
export function fuzzyPremium(l: Line): number | null {
  const tokens = amountTokens(l.text).filter((t) => /[.,]\d{2}$/.test(t.token) && !t.glued);
  const first = numberTokensAt(l.text);
  const pick = tokens.at(-1);
  if (!pick || first < 0) return null;
  const label = l.norm.slice(0, first).replace(/[^A-Z]/g, '');
  const near = PREMIUM_LABELS.some(
    (w) => Math.abs(label.length - w.length) <= 3 && editsToFind(w, label) <= Math.floor(w.length / 3),
  );
  return near && pick.value > 0 ? pick.value : null;
}
/** Where the line's first digit is, or -1. */
const numberTokensAt = (text: string) => text.search(/\d/);

/**
 * The annual premium: the amount after a premium label, not an instalment's, not a year, not a
 * tax. When instalments are printed, the candidate they add up to wins; none does: a warning.
 */
function premium(lines: Line[], r: Result) {
  const found: { value: number; conf: number; score: number }[] = [];
  for (const l of labelled(lines, PRICE_LABEL, /TVA|IVA|\bVAT\b|IPT|IMPUESTO|\bTAX\b|PREM[A-Z]* ?TA[XR]\b/)) {
    if (isInstalmentLine(l)) continue;
    const m = PRICE_LABEL.exec(l.norm);
    const after = m ? l.text.slice((m.index ?? 0) + m[0].length) : l.text;
    let tokens = amountTokens(after).filter((t) => !isYear(t) && !t.glued);
    let conf = l.confidence;
    if (!tokens.length) {
      // The value under its label ("Prima de asigurare 2025" over "1.234,56 lei"), never the value
      // of a line with its own label ("3. Prima", a section's heading, over "Prima neta 1.013,35").
      const next = lines[l.index + 1];
      if (!next || hasOwnLabel(next.norm)) continue;
      tokens = amountTokens(next.text).filter((t) => !isYear(t) && !t.glued);
      if (tokens.length !== 1 || isInstalmentLine(next)) continue;
      conf *= 0.9;
    }
    const pick = tokens.filter((t) => /[.,]\d{2}$/.test(t.token)).at(-1) ?? tokens.at(-1);
    if (!pick || pick.value <= 0) continue;
    const tier = PREMIUM_TIERS.find(([re]) => re.test(l.norm))?.[1] ?? 1;
    found.push({
      value: pick.value,
      conf,
      score: tier * 10 + (/[.,]\d{2}$/.test(pick.token) ? 5 : 0) - l.index / 1000,
    });
  }
  // No premium label read at all (or only its net part): a line whose label is a premium's with
  // a letter in three misread ("Tual a papar 1607,70 €") and an amount with cents.
  if (found.every((f) => f.score < 10))
    for (const l of lines) {
      if (isInstalmentLine(l)) continue;
      const v = fuzzyPremium(l);
      if (v !== null) found.push({ value: v, conf: l.confidence * 0.7, score: 12 - l.index / 1000 });
    }
  found.sort((a, b) => b.score - a.score);
  const sum = instalmentsSum(lines, found.length ? Math.max(...found.map((f) => f.value)) : undefined);
  const agreeing =
    sum === null ? undefined : found.find((f) => Math.abs(f.value - sum) < 0.015 * Math.max(1, sum / 100));
  if (agreeing) return r.set('price', agreeing.value, Math.max(agreeing.conf, 0.95));
  const best = found[0];
  if (!best && sum !== null) {
    r.set('price', sum, 0.6);
    r.warnings.push({ field: 'price', code: 'DERIVED' });
    return;
  }
  // One instalment read unlike the others ("803,64" among "308,64"): the premium is right.
  if (best && sum !== null && premiumWithOneMisread(lines, best.value))
    return r.set('price', best.value, best.conf * 0.9);
  if (best && sum !== null) {
    // "798.54" for "1798.54": a leading digit the OCR lost, when putting it back makes the premium
    // the instalments' sum.
    const whole = String(Math.trunc(best.value)).length;
    for (let d = 1; d <= 9; d++) {
      const v = round(d * 10 ** whole + best.value, 2);
      if (Math.abs(v - sum) < 0.015 * Math.max(1, sum / 100)) return r.set('price', v, 0.6);
    }
    r.warnings.push({ field: 'price', code: 'INSTALMENTS_MISMATCH', params: { sum, premium: best.value } });
    return r.set('price', best.value, best.conf * 0.6);
  }
  r.set('price', best?.value, best?.conf ?? 0);
}

export function extract(kind: OcrKind, lines: Line[]): Extraction {
  switch (kind) {
    case 'fuel':
      return extractFuel(lines);
    case 'expense':
      return extractExpense(lines);
    case 'revision':
      return extractRevision(lines);
    case 'insurance':
      return extractInsurance(lines);
  }
}

export { normalize };
