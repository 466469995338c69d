/** What an expense was for (parking, tolls, wash…): the item lines first, then the vendor's name. */
import type { Line } from '../text/lines.js';
import { amounts } from '../text/numbers.js';
import { NOT_TOTAL, TOTAL } from './total.js';

const EXPENSE_TYPES: [string, RegExp][] = [
  ['Parking', /PARCARE|PARKING|APARCAMIENTO|CAR ?PARK|ESTACIONAMIENTO|\bNCP\b|\bSABA\b/],
  ['Tolls', /TAXA ?DE ?POD|ROVINIET|PEAJE|\bTOLL|AUTOPISTA|VINIETA|VIGNETTE|PEAGE/],
  ['Wash', /SPALATORIE|SPALARE|LAVADO|LAVADERO|CAR ?WASH|\bWASH\b|AUTOLAVADO/],
  ['Tyres', /VULCANIZARE|ANVELOPE|NEUMATICO|TYRE|TIRE|CAUCIUC/],
  ['Tax', /IMPOZIT|IMPUESTO|VEHICLE ?TAX|ROAD ?TAX|\bIVTM\b/],
  ['Repair', /REPARATIE|REPARACION|REPAIR|TINICHIGERIE|CHAPA|BODYWORK/],
  ['Maintenance', /REVIZIE|MANTENIMIENTO|SERVICE|ULEI|ACEITE|\bOIL\b|FILTR/],
  ['Accessories', /ACCESORI|ACCESSOR/],
];

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
