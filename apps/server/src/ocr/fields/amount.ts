/** An expense's amount: the checked total, else what was paid, else the largest amount with cents. */
import type { Result } from '../draft.js';
import type { Line } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';
import { paidTotal } from './paid.js';
import { checkedTotal } from './total.js';

export function expenseAmount(lines: Line[], r: Result): { value: number; conf: number } | undefined {
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
  return amount;
}
