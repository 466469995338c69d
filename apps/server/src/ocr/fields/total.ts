/** The total paid: labelled totals ranked by how final their label is, checked against the payment and VAT. */
import type { Result } from '../draft.js';
import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { amounts, amountTokens } from '../text/numbers.js';
import { CHANGE, CHANGE_LABEL, joinSplitCents, ownAmount, PAID, paidAmounts } from './paid.js';
import { agreesWithVat, netAndVat, totalChain, totalOfPrintedVat, totalVouchedByRate } from './vat.js';

/** A total's label, a final one ("GRAND TOTAL", "TOTAL DE PLATA") or not. */
export const TOTAL = new RegExp(`\\b(${anyOf((l) => [...l.total, ...l.finalTotal])})\\b`);
export const NOT_TOTAL = new RegExp(`(${anyOf((l) => l.notTotal)})`);
/**
 * How final a total's label is: the amount after rounding beats "grand total / payable / de plată",
 * which beats a total that includes the tax, then a plain TOTAL, then a bare AMOUNT or IMPORTE.
 */
const TOTAL_TIERS: [RegExp, number][] = [
  [new RegExp(`\\b(${anyOf((l) => l.roundedTotal)})`), 5],
  [new RegExp(`\\b(${anyOf((l) => l.finalTotal)})\\b`), 4],
  [new RegExp(`\\bTOTAL\\b.*\\b(${anyOf((l) => l.taxIncluded)})\\b`), 3],
  [/\bTOTAL/, 2],
  [/./, 1],
];
/** A tax named on a total's line is fine only when the total includes it ("TOTAL (IVA INCLUIDO)"). */
const TAX_WORD = new RegExp(`\\b(${anyOf((l) => l.tax)})\\b`);
// INCI / INC! / INC1: the OCR's usual reading of a faded INCL.
// LNCLUSIVE: an I read as l.
// INOL: its C read as an O.
const TAX_INCLUDED = new RegExp(
  `\\b(${anyOf((l) => l.taxIncluded, 'IN[CO][LI1]', '[IL]NCLUSIVE')})\\b|\\bINC!`,
);
/** Lines that carry the word TOTAL but not the amount paid: counts, pre-tax sums, per-rate breakdowns. */
// "PAID" alone, not "TOTAL PAID" or "AMOUNT PAID"; a rounding line, not "TOTAL AFTER ROUNDING".
const NOT_PAID_TOTAL = new RegExp(
  `\\b(${anyOf((l) => l.notPaidTotal)})\\b|(?<!TOTAL |AMOUNT ?)\\bPAID\\b|${anyOf((l) => l.beforeTax)}|TOTAL\\s*\\d+(\\.\\d+)?\\s*%|(?<!AFTER )ROUNDING(?! *TOTAL)`,
);
/** A rounding line: the amount after it is what was paid. */
const ROUNDING = new RegExp(anyOf((l) => l.rounding));

function isPaidTotal(l: Line): boolean {
  if (!TOTAL.test(l.norm) || NOT_TOTAL.test(l.norm) || NOT_PAID_TOTAL.test(l.norm)) return false;
  return !TAX_WORD.test(l.norm) || TAX_INCLUDED.test(l.norm);
}

/**
 * The total paid, most likely first. A candidate's score: its label's tier; more when it agrees
 * with what was paid (cash − change); more when it follows a rounding line (the adjusted amount is
 * what was paid); less without the two decimals money is printed with (an OCR misread). A total
 * printed without its decimal point ("1200" for 12.00, a faded thermal print) is read as cents
 * when that makes it agree with the payment.
 */
export function totals(lines: Line[]): { value: number; conf: number }[] {
  const paid = paidAmounts(lines);
  const agrees = (v: number) => paid.some((p) => Math.abs(p - v) < 0.005);
  // A change line ("CHANGE 0.00" too): the payment is what was handed over less the change.
  const changeLine = lines.some((l) => CHANGE.test(l.norm) && ownAmount(l, CHANGE_LABEL) !== null);
  const tillRounded = (v: number) =>
    changeLine
      ? paid.find((p) => Math.abs(p - v) > 0.005 && Math.abs(p - v) < 0.025 && Math.round(p * 100) % 5 === 0)
      : undefined;
  const subtotals = lines.filter((l) => /SUB[\s-]?TOTAL/.test(l.norm)).flatMap((l) => amounts(l.text));
  const rounding = lines.findLast((l) => ROUNDING.test(l.norm))?.index ?? -1;
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
  // What was handed over less the change, equal to the printed subtotal, when no labelled total
  // agrees with it: two printed numbers against a total alone ("SUB-TOTAL 24.00", "TOTAL 29.00",
  // "CASH 50.00", "CHANGE 26.00": the total's 4 read as a 9).
  if (changeLine && !found.some((f) => agrees(f.value)))
    for (const p of paid)
      if (subtotals.some((s) => Math.abs(s - p) < 0.005))
        found.push({ value: p, conf: 0.8, score: 45, at: lines.length });
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
  // Never a payment's or the change's own amount ("TOTAL" over "CASH   20.00").
  const below = lines[l.index + 1];
  const borrowable = below && !PAID.test(below.norm) && !CHANGE.test(below.norm);
  const next = borrow && own.length === 0 && borrowable ? amountTokens(below.text) : [];
  const tokens = (own.length ? own : next.length === 1 ? next : []).filter((t) => !t.glued);
  const withCents = tokens.filter((t) => /[.,]\d{2}$/.test(t.token));
  const pick = withCents.at(-1) ?? tokens.at(-1);
  return pick ? { value: pick.value, cents: withCents.length > 0 } : null;
}

/**
 * The best total, checked against net + VAT when both are printed: a candidate that equals their
 * sum wins; when none does, the warning says so and the confidence drops.
 */
export function checkedTotal(
  lines: Line[],
  r: Result,
  field: string,
): { value: number; conf: number } | undefined {
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
  const agreeing = nv ? tot.find((t) => agreesWithVat(nv, t.value)) : undefined;
  // No total agreeing with net + VAT: the amount whose VAT the receipt prints, the rows shifted.
  const shifted = first && !agreeing ? totalOfPrintedVat(lines, first.value) : null;
  if (shifted !== null) return { value: shifted, conf: (first?.conf ?? 0) * 0.7 };
  if (!nv || !tot.length) return tot[0];
  if (agreeing) return { value: agreeing.value, conf: Math.max(agreeing.conf, 0.95) };
  if (!first) return undefined;
  // The net or the VAT misread, the total agreeing with the other at the VAT rate: no warning.
  if (totalVouchedByRate(nv, first.value)) return { value: first.value, conf: first.conf * 0.9 };
  r.warnings.push({ field, code: 'VAT_MISMATCH', params: { net: nv.net, vat: nv.vat, total: first.value } });
  return { value: first.value, conf: first.conf * 0.6 };
}
