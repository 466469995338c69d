/** A premium whose amount a tilted photo pushed below its label, in among the instalments' rows. */
import { round } from '../draft.js';
import type { Line } from '../text/lines.js';
import { centsAmounts } from '../text/numbers.js';

/** How many rows under the label a tilt may carry the amounts: a premium's section is short. */
const WINDOW = 6;

/**
 * "Total de plată" over "Rata 1", "Rata 2" (their amounts lost), then "1093.96", "546.98",
 * "546.98": the amounts came loose from their rows, but the premium is still the one the amounts
 * after it add up to (its instalments). The first such amount under the label at `labelAt`, or null.
 */
export function premiumAboveItsInstalments(lines: Line[], labelAt: number): number | null {
  const values = lines.slice(labelAt + 1, labelAt + 1 + WINDOW).flatMap((l) => centsAmounts(l.text));
  for (let i = 0; i + 2 < values.length; i++) {
    const head = values[i] ?? 0;
    const rest = values.slice(i + 1);
    const sum = round(
      rest.reduce((a, b) => a + b, 0),
      2,
    );
    if (head > 0 && rest.every((v) => v < head) && Math.abs(head - sum) <= 0.02 + 0.005 * rest.length)
      return head;
  }
  return null;
}
