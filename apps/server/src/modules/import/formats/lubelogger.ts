import { type Collector, cell, joinText, Table } from '../collect.js';
import { detectDateOrder, detectDecimal, parseBool, parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * LubeLogger: one CSV per record type, columns by property name. Gas:
 * `Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags`;
 * service/repair/upgrade: `Date,Description,Cost,Notes,Odometer,Tags` (→ services);
 * tax: `Date,Description,Cost,Notes,Tags` (→ Tax expenses). Dates and numbers follow the exporting
 * server's locale. The files do not say their units: costs in `$` read as miles and US gallons,
 * anything else as km and litres (the `mapping.units` of the upload overrides).
 */
export type LubeKind = 'gas' | 'service' | 'tax';

export function lubeKind(headers: string[]): LubeKind | undefined {
  const t = new Table(headers, []);
  if (!t.has('Date') || !t.has('Cost')) return undefined;
  if (t.has('FuelConsumed') && t.has('IsFillToFull')) return 'gas';
  if (t.has('Description') && t.has('Odometer') && t.has('Notes')) return 'service';
  if (t.has('Description') && t.has('Notes') && t.has('Tags')) return 'tax';
  return undefined;
}

export function parseLubeLogger(file: CsvFile, c: Collector, kind: LubeKind, unitsGiven: boolean) {
  const [head, ...rows] = file.rows;
  if (!head) return;
  const t = new Table(head.cells, rows);
  const date = t.find('Date');
  const cost = t.find('Cost');
  const odometer = t.find('Odometer');
  const notes = t.find('Notes');
  const description = t.find('Description');
  const consumed = t.find('FuelConsumed');
  const decimal = detectDecimal(t.values(cost, consumed));
  const order = detectDateOrder(t.values(date));
  if (!unitsGiven && [...t.values(cost)].some((v) => v.includes('$'))) {
    c.units = { distance: 'mi', volume: 'usgal' };
    c.warn(1, 'units', 'DOLLAR_UNITS');
  }
  const [full, missed] = [t.find('IsFillToFull'), t.find('MissedFuelUp')];
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    const amount = parseNumber(cell(r, cost), decimal);
    if (kind === 'gas') {
      c.addFuel(r.line, {
        date: d,
        odometer: parseNumber(cell(r, odometer), decimal),
        volume: parseNumber(cell(r, consumed), decimal),
        total: amount,
        unitPrice: null,
        full: parseBool(cell(r, full)) ?? true,
        missed: parseBool(cell(r, missed)) ?? false,
      });
    } else if (kind === 'service') {
      const text = joinText(cell(r, description), cell(r, notes));
      c.addRevision(r.line, d, parseNumber(cell(r, odometer), decimal), amount, text);
    } else {
      c.addExpense(r.line, d, 'Tax', amount, joinText(cell(r, description), cell(r, notes)));
    }
  }
}
