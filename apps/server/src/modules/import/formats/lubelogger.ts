import { type Collector, cell, flag, joinText, KM_AND_LITRES, Table, type UnitsGuess } from '../collect.js';
import { detectDateOrder, detectDecimal, parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * LubeLogger: one CSV per record type, columns by property name. Gas:
 * `Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags`;
 * service/repair/upgrade: `Date,Description,Cost,Notes,Odometer,Tags` (→ services);
 * tax: `Date,Description,Cost,Notes,Tags` (→ Tax expenses). Dates and numbers follow the exporting
 * server's locale. The files do not say their units: costs in `$` are guessed as miles and US
 * gallons, anything else as km and litres, and the preview asks (a default LubeLogger install is
 * en-US, so a Romanian's kilometres may well show `$`); `mapping.units` carries the user's answer.
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

/** Miles and US gallons when the costs show `$`, else km and litres: a guess the user confirms. */
export function lubeLoggerUnits(file: CsvFile): UnitsGuess {
  const [head, ...rows] = file.rows;
  const cost = new Table(head?.cells ?? [], rows).find('Cost');
  if (cost >= 0 && rows.some((r) => cell(r, cost).includes('$')))
    return { distance: 'mi', volume: 'usgal', reason: 'currency' };
  return KM_AND_LITRES;
}

export function parseLubeLogger(file: CsvFile, c: Collector, kind: LubeKind) {
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
  const costOf = c.amounts(t, cost, [cost, consumed]);
  const order = detectDateOrder(t.values(date));
  const [full, missed] = [t.find('IsFillToFull'), t.find('MissedFuelUp')];
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    // The cost cell's sign as the exporting server's locale wrote it (`72,50 €`); `$` only hints.
    const money = c.moneyOf(r, t, [cost]);
    const amount = costOf(r, money);
    if (kind === 'gas') {
      c.addFuel(r.line, {
        date: d,
        odometer: parseNumber(cell(r, odometer), decimal),
        volume: parseNumber(cell(r, consumed), decimal),
        total: amount,
        unitPrice: null,
        full: flag(r, full, true),
        missed: flag(r, missed, false),
        money,
      });
    } else if (kind === 'service') {
      const text = joinText(cell(r, description), cell(r, notes));
      c.addRevision(r.line, d, parseNumber(cell(r, odometer), decimal), amount, text, { money });
    } else {
      c.addExpense(r.line, d, 'Tax', amount, joinText(cell(r, description), cell(r, notes)), money);
    }
  }
}
