/** The annual premium: the amount after a premium label, checked against the instalments. */
import { type Result, round } from '../draft.js';
import { anyOf, every } from '../lexicon/index.js';
import { editsToFind } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';
import { instalmentsSum, isInstalmentLine, premiumWithOneMisread } from './instalments.js';
import { labelled } from './label.js';
import { premiumAboveItsInstalments } from './premium-below.js';

/** "Prima" and "Premium" as the OCR also reads them: "Primi", "Pnma", "Pima", "Premlum". */
const MISREAD_PREMIUM = ['\\bP(?:R?[I1LN]|RN)M[AI1]\\b', '\\bPREM[I1L]?[UV]M\\b'];
const PREMIUM_WORD = new RegExp(anyOf((l) => l.premiumWord, ...MISREAD_PREMIUM));
/** A label of what is paid for the policy: the premium, or a total. */
const PRICE_LABEL = new RegExp(
  `(${anyOf((l) => [...l.premiumWord, ...l.premiumTotal], ...MISREAD_PREMIUM)})`,
);
/** Taxes on a premium's line: such a line is not the premium. */
const PREMIUM_TAX = new RegExp(anyOf((l) => l.premiumTax));

const PREMIUM_TIERS: [RegExp, number][] = [
  // A part of the premium, not what is paid: the net premium before its tax, the reference premium
  // before a bonus-malus discount, the discount itself.
  [new RegExp(anyOf((l) => l.premiumPart)), 0],
  [new RegExp(anyOf((l) => l.finalPremium)), 3],
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
const PREMIUM_LABELS = every((l) => l.premiumLetters);
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
export function premium(lines: Line[], r: Result) {
  const found: { value: number; conf: number; score: number }[] = [];
  for (const l of labelled(lines, PRICE_LABEL, PREMIUM_TAX)) {
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
  // A label whose amount a tilt moved down among the instalments, their own amounts lost.
  const labelAt = lines.findIndex((l) => PRICE_LABEL.test(l.norm) && !PREMIUM_TAX.test(l.norm));
  const below = !best && sum === null && labelAt >= 0 ? premiumAboveItsInstalments(lines, labelAt) : null;
  if (below !== null) return r.set('price', below, 0.6);
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
