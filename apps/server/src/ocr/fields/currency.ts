/** The currency a receipt was paid in: the one printed beside the amount paid first, else the one it prints most. */
import type { CurrencyCode } from '@evdra/domain';
import { currencyMarks } from '../text/currencies.js';
import type { Line } from '../text/lines.js';
import { amounts } from '../text/numbers.js';
import { NOT_TOTAL, TOTAL } from './total.js';

/** How much a mark counts by where it is: on the amount paid's line, on another total's, elsewhere. */
const ON_PAID = 4;
const ON_TOTAL = 2;

/**
 * The receipt's currency, or undefined when it prints none. Each mark (a code, a sign or a word:
 * "LEI", "€", "£", "Ft") counts by how it is printed (beside a number more than alone, a bare "$"
 * less) and where: beside the amount paid (`paid`, the total the kind read) most, on a total's line
 * next, anywhere else least. So a lei receipt that also prints its total in euros for tourists, or
 * an exchange rate, is still in lei. The confidence is the winner's share of all the marks, lower
 * when it rests on little (one bare "$", one label); high when the amount paid is printed with one
 * currency only.
 */
export function receiptCurrency(
  lines: Line[],
  paid: number | null | undefined,
): { value: CurrencyCode; conf: number } | undefined {
  const score = new Map<CurrencyCode, number>();
  /** The currencies printed beside the amount paid, with the surest line's confidence. */
  const besidePaid = new Map<CurrencyCode, number>();
  for (const l of lines) {
    const marks = currencyMarks(l.norm);
    if (!marks.length) continue;
    const paidHere = typeof paid === 'number' && amounts(l.text).some((a) => Math.abs(a - paid) < 0.005);
    const where = paidHere ? ON_PAID : TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm) ? ON_TOTAL : 1;
    const sure = Math.max(0.3, Math.min(1, l.confidence));
    for (const m of marks) {
      score.set(m.code, (score.get(m.code) ?? 0) + m.weight * where * sure);
      if (paidHere && m.place === 'amount' && m.weight >= 1)
        besidePaid.set(m.code, Math.max(besidePaid.get(m.code) ?? 0, sure));
    }
  }
  let best: [CurrencyCode, number] | undefined;
  let all = 0;
  for (const entry of score) {
    all += entry[1];
    if (!best || entry[1] > best[1]) best = entry;
  }
  if (!best || all <= 0) return undefined;
  const [value, top] = best;
  const conf = (top / all) * Math.min(0.95, 0.55 + top / 3);
  // One currency, plainly printed beside the amount paid: sure whatever else the receipt prints.
  const plain = besidePaid.size === 1 ? (besidePaid.get(value) ?? 0) * 0.9 : 0;
  return { value, conf: Math.max(conf, plain) };
}
