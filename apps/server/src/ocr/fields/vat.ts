/** Net + VAT against the total: the VAT a receipt prints, and a column of amounts that adds up at a VAT rate. */
import { round } from '../draft.js';
import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { centsAmounts } from '../text/numbers.js';

const round2 = (n: number) => round(n, 2);

const NET = new RegExp(anyOf((l) => l.net));
const VAT = new RegExp(`\\b(${anyOf((l) => l.vat)})\\b`);
const NOT_VAT = new RegExp(anyOf((l) => l.notVat, 'TOTAL'));

/**
 * Net + VAT from a receipt that prints both on their own lines (one of each: several VAT rates are
 * left alone), or null.
 */
export function netAndVat(lines: Line[]): { net: number; vat: number; rate?: number } | null {
  const nets = lines.filter((l) => NET.test(l.norm)).flatMap((l) => centsAmounts(l.text).slice(-1));
  const vatLines = lines.filter((l) => VAT.test(l.norm) && !NOT_VAT.test(l.norm) && !NET.test(l.norm));
  const vats = vatLines.flatMap((l) => centsAmounts(l.text).slice(-1));
  if (nets.length !== 1 || vats.length !== 1) return null;
  const [net = 0] = nets;
  const [vat = 0] = vats;
  // The rate printed on the VAT line ("TVA 19%", "IVA 21 %").
  const rate = Number(/(?<![\d.,])(\d{1,2})(?:[.,]0)?\s*%/.exec(vatLines[0]?.norm ?? '')?.[1] ?? Number.NaN);
  if (!(vat > 0 && vat < net)) return null;
  return rate > 0 ? { net, vat, rate } : { net, vat };
}

/** VAT rates of Romania, Spain and the UK (standard and reduced), when the receipt prints none. */
const USUAL_RATES = [19, 21, 20, 9, 10, 5, 4];

/**
 * True when `total` agrees with one of net and VAT at the VAT rate (printed, or a usual one): the
 * other of the two was misread, not the total ("Total fără TVA 1.O82,77" beside a right total).
 */
export function totalVouchedByRate(nv: { net: number; vat: number; rate?: number }, total: number): boolean {
  return (nv.rate ? [nv.rate] : USUAL_RATES).some((rate) => {
    const r = rate / 100;
    return (
      Math.abs(round2(nv.net * (1 + r)) - total) <= 0.02 ||
      Math.abs(round2(total - total / (1 + r)) - nv.vat) <= 0.02
    );
  });
}

/** True when `total` is net + VAT to the cent (or nothing says otherwise). */
export const agreesWithVat = (nv: { net: number; vat: number } | null, total: number) =>
  !nv || Math.abs(round2(nv.net + nv.vat) - total) < 0.015;

/**
 * The total of a column of amounts whose labels the OCR paired with the wrong lines ("Recambios
 * 676,14 / IVA 21% 513,41 / TOTAL FACTURA 249,81 / 1.439,36"): an amount that is the sum of the two
 * to four amounts just above it, the last of which is the VAT (at the printed rate, or a usual one)
 * of the others. Null when no amount is.
 */
export function chainTotal(lines: Line[]): number | null {
  return totalChain(lines)?.total ?? null;
}

/** chainTotal's total with the amounts that add up to it. */
export function totalChain(lines: Line[]): { total: number; parts: number[] } | null {
  const printed = lines
    .filter((l) => VAT.test(l.norm))
    .flatMap((l) => [...l.norm.matchAll(/(?<![\d.,])(\d{1,2})\s*%/g)].map((m) => Number(m[1])));
  const rates = printed.length ? printed : USUAL_RATES;
  const column = lines.flatMap((l) => {
    const v = centsAmounts(l.text).at(-1);
    return v === undefined ? [] : [{ v, at: l.index }];
  });
  for (let k = column.length - 1; k >= 2; k--) {
    const total = column[k] as { v: number; at: number };
    for (let m = 2; m <= 4 && k - m >= 0; m++) {
      const run = column.slice(k - m, k);
      if (total.at - (run[0]?.at ?? 0) > 8) break;
      const vat = run.at(-1)?.v ?? 0;
      const sum = run.reduce((a, b) => a + b.v, 0);
      const net = round2(total.v - vat);
      if (
        vat > 0 &&
        net > 0 &&
        Math.abs(round2(sum) - total.v) < 0.015 &&
        rates.some((r) => Math.abs(round2((net * r) / 100) - vat) <= 0.02)
      )
        return { total: total.v, parts: run.map((x) => x.v) };
    }
  }
  return null;
}

/** A VAT label, also glued to its rate as PaddleOCR prints it ("IVA21%"). */
const VAT_GLUED = new RegExp(`\\b(${anyOf((l) => l.vat)})(?=\\b|\\d)`);
/** The VAT rates a receipt prints on its VAT lines ("IVA 21%", "IVA21%"). */
const printedRates = (lines: Line[]) =>
  lines
    .filter((l) => VAT_GLUED.test(l.norm))
    .flatMap((l) => [...l.norm.matchAll(/(?<![\d.,])(\d{1,2})\s*%/g)].map((m) => Number(m[1])));

/**
 * The total of a receipt whose amounts a tilt moved a row up or down ("IVA 21% 616,18", "TOTAL
 * 106,94", "TARJETA 616,18"): when the labelled total's VAT at the printed rate is nowhere on the
 * receipt but exactly one other amount's VAT is, that amount is the total. Null otherwise.
 */
export function totalOfPrintedVat(lines: Line[], labelled: number): number | null {
  const rates = printedRates(lines);
  if (!rates.length) return null;
  const values = [...new Set(lines.flatMap((l) => centsAmounts(l.text)))];
  const hasItsVat = (gross: number) =>
    rates.some((r) => {
      const vat = round2((gross * r) / (100 + r));
      return vat > 0 && values.some((v) => v !== gross && Math.abs(v - vat) <= 0.01);
    });
  if (hasItsVat(labelled)) return null;
  // Printed twice (the total and its payment), as a total is; a part's VAT alone proves little.
  const lineCount = (v: number) => lines.filter((l) => centsAmounts(l.text).includes(v)).length;
  const others = values.filter((v) => v !== labelled && hasItsVat(v) && lineCount(v) >= 2);
  return others.length === 1 ? (others[0] ?? null) : null;
}
