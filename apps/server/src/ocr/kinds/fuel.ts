/** A pump receipt: date, litres, price per litre, amount, odometer and fuel. */
import { type Extraction, Result } from '../draft.js';
import { receiptCurrency } from '../fields/currency.js';
import { pickDate } from '../fields/date.js';
import { readFuelAmounts } from '../fields/fuel-amounts.js';
import { fuelType } from '../fields/fuel-type.js';
import { odometer } from '../fields/odometer.js';
import type { Line } from '../text/lines.js';

export function extractFuel(lines: Line[]): Extraction {
  const r = new Result();
  const all = lines.map((l) => l.norm).join('\n');
  const date = pickDate(lines);
  r.set('date', date?.iso, date?.conf ?? 0);
  readFuelAmounts(lines, r);

  const odo = odometer(lines);
  r.set('odometer', odo?.value, odo?.conf ?? 0);
  const ft = fuelType(all);
  r.set('fuelType', ft?.value, ft?.conf ?? 0);
  // The currency printed beside the total paid (none: the preview proposes the user's own).
  const cur = receiptCurrency(lines, r.fields.fuelPrice as number | null);
  r.set('currency', cur?.value, cur?.conf ?? 0);
  return r.done();
}
