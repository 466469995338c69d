/** What an expense was for (parking, tolls, wash…): the item lines first, then the vendor's name. */

import { anyOf, type ExpenseType } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { amounts } from '../text/numbers.js';
import { NOT_TOTAL, TOTAL } from './total.js';

/** The types in the order they are looked for (parking and tolls before the maintenance words a vendor may print). */
const ORDER: ExpenseType[] = [
  'Parking',
  'Tolls',
  'Wash',
  'Tyres',
  'Tax',
  'Repair',
  'Maintenance',
  'Accessories',
];
const EXPENSE_TYPES: [string, RegExp][] = ORDER.map((t) => [
  t,
  new RegExp(anyOf((l) => l.expenseTypes[t] ?? [])),
]);

/** The expense's type and the line that names it ('Other' without one). */
export function expenseType(lines: Line[]): { value: string; line?: Line } {
  const itemLines = lines.filter(
    (l) => amounts(l.text).length > 0 && !TOTAL.test(l.norm) && !NOT_TOTAL.test(l.norm),
  );
  let type: { value: string; line?: Line } = { value: 'Other' };
  search: for (const group of [itemLines, lines])
    for (const [name, re] of EXPENSE_TYPES) {
      const line = group.find((l) => re.test(l.norm));
      if (line) {
        type = { value: name, line };
        break search;
      }
    }
  return type;
}
