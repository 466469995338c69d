/** An insurance policy: insurer, policy number, cover, period, premium and whether reminders are wanted. */
import { type Extraction, Result } from '../draft.js';
import { coverOf } from '../fields/cover.js';
import { receiptCurrency } from '../fields/currency.js';
import { provider } from '../fields/insurer.js';
import { readPolicyNumber } from '../fields/policy-number.js';
import { policyPeriod } from '../fields/policy-period.js';
import { premium } from '../fields/premium.js';
import { remindersOff } from '../fields/reminders.js';
import { isWholeMonths } from '../fields/term.js';
import type { Line } from '../text/lines.js';

export function extractInsurance(lines: Line[]): Extraction {
  const r = new Result();
  const insurer = provider(lines);
  r.set('provider', insurer.value, insurer.conf);
  const policy = readPolicyNumber(lines);
  r.set('policyNumber', policy.value, policy.conf);
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
  const cur = receiptCurrency(lines, r.fields.price as number | null);
  r.set('currency', cur?.value, cur?.conf ?? 0);
  // Reminders stay on unless the document says explicitly that renewal notices are off.
  r.set('reminderEnabled', !remindersOff(lines), 0.9);
  return r.done();
}
