/** An expense receipt: date, amount, type and description. */
import { type Extraction, Result } from '../draft.js';
import { expenseAmount } from '../fields/amount.js';
import { receiptCurrency } from '../fields/currency.js';
import { pickDate } from '../fields/date.js';
import { itemDescription } from '../fields/description.js';
import { expenseType } from '../fields/expense-type.js';
import type { Line } from '../text/lines.js';

export function extractExpense(lines: Line[]): Extraction {
  const r = new Result();
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);
  const amount = expenseAmount(lines, r);
  r.set('amount', amount?.value, amount?.conf ?? 0);
  const cur = receiptCurrency(lines, amount?.value);
  r.set('currency', cur?.value, cur?.conf ?? 0);
  // The type: from the priced item lines first (what was bought), then anywhere (the vendor).
  const type = expenseType(lines);
  r.set('expenseType', type.value, type.line ? type.line.confidence : 0.3);
  // The description: the item line (the one naming the type, or the first priced line).
  const description = itemDescription(lines, type.line);
  r.set('description', description.value, description.conf);
  return r.done();
}
