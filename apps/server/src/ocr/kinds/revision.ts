/** A service invoice: date, odometer, price and the work done. */
import { type Extraction, Result } from '../draft.js';
import { receiptCurrency } from '../fields/currency.js';
import { pickDate } from '../fields/date.js';
import { workDescription } from '../fields/description.js';
import { odometer } from '../fields/odometer.js';
import { checkedTotal } from '../fields/total.js';
import type { Line } from '../text/lines.js';

export function extractRevision(lines: Line[]): Extraction {
  const r = new Result();
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);
  const odo = odometer(lines, { invoice: true });
  r.set('km', odo?.value, odo?.conf ?? 0);
  const tot = checkedTotal(lines, r, 'price');
  r.set('price', tot?.value, tot?.conf ?? 0);
  const cur = receiptCurrency(lines, tot?.value);
  r.set('currency', cur?.value, cur?.conf ?? 0);
  const description = workDescription(lines);
  r.set('description', description.value, description.conf);
  return r.done();
}
