import type { ExpenseType } from '@evdra/domain';
import { type Collector, cell, expenseTypeOf, flag, joinText, Table, type UnitsGuess } from '../collect.js';
import { detectDateOrder, detectDecimal, normalize, parseBool, parseDate, parseNumber } from '../locale.js';
import type { CsvFile, CsvRow } from '../read.js';

/**
 * Fuelly exports, in miles and US gallons (as its MPG column says). Three layouts:
 * - the old web export, snake_case (`car_name,model,make,year,miles,odometer,gallons,price,
 *   city_percentage,fuelup_date,…,missed_fuelup,partial_fuelup,…`, `price` per gallon);
 * - a titled one (`Fuelup Date,Odometer,Miles,Gallons,Price Per Gallon,Total Cost,MPG,Partial
 *   Fuelup,Missed Fuelup,Notes`);
 * - the current one, fill-ups and services in one file (`Type,MPG,Date,Time,Vehicle,Odometer,
 *   Filled Up,Price,Gallons,Total Cost,Octane,Gas Brand,Location,Tags,Payment Type,Tire Pressure,
 *   Notes,Services`): `Type` is `Gas` or `Service`, `Filled Up` is `Full` or `Partial`, and a
 *   service row names what was done in `Services`.
 * All may carry `$` and thousands separators; MPG is recomputed here, never read.
 */
export function isFuelly(headers: string[]) {
  const t = new Table(headers, []);
  if (t.has('fuelup_date') && t.has('gallons')) return true;
  if (t.has('Type') && t.has('Filled Up') && t.has('Odometer')) return true;
  return t.has('Gallons', 'Fuel Volume') && (t.has('MPG') || t.has('Fuelup Date'));
}

/**
 * Fuelly counts in miles and US gallons. Should a header name litres or kilometres (`Litres`,
 * `L/100km`), they are read from it; either way the preview asks, as an account may use other units.
 */
export function fuellyUnits(file: CsvFile): UnitsGuess {
  const headers = (file.rows[0]?.cells ?? []).map(normalize);
  const litres = headers.some((h) => /^(liters|litres)\b/.test(h));
  const km = headers.some((h) => /kilomet|(^|[\s\d(])km\b/.test(h));
  if (!litres && !km) return { distance: 'mi', volume: 'usgal', reason: 'format' };
  return { distance: km ? 'km' : 'mi', volume: litres ? 'l' : 'usgal', reason: 'file' };
}

/** What a service row is, by the words of its `Services`: a wash, a toll or a tax is an expense, the rest is a service. */
const EXPENSE_NOT_SERVICE: ExpenseType[] = ['Wash', 'Parking', 'Tolls', 'Tax', 'Accessories'];

export function parseFuelly(file: CsvFile, c: Collector) {
  const [head, ...rows] = file.rows;
  if (!head) return;
  const t = new Table(head.cells, rows);
  const date = t.find('fuelup_date', 'Fuelup Date', 'Date');
  const odo = t.find('odometer', 'Odometer');
  const gallons = t.find('gallons', 'Fuel Volume', 'Liters', 'Litres');
  const perGallon = t.find('price', 'Price Per Gallon', 'Price Per Unit');
  const total = t.find('Total Cost', 'Total Price', 'Total');
  const numbers = [odo, gallons, perGallon, total];
  const decimal = detectDecimal(t.values(...numbers));
  const totalOf = c.amounts(t, total, numbers);
  const order = detectDateOrder(t.values(date));
  if (odo < 0) c.warn(1, 'odometer', 'NO_ODOMETER_COLUMN');
  const partial = t.find('partial_fuelup', 'Partial Fuelup', 'Partial Fill', 'Partial');
  const filledUp = t.find('Filled Up');
  const missed = t.find('missed_fuelup', 'Missed Fuelup', 'Missed Fill', 'Missed');
  const [type, services, notes] = [t.find('Type'), t.find('Services'), t.find('Notes', 'notes')];
  warnSeveralVehicles(t, c);
  const fullOf = (r: CsvRow) =>
    filledUp >= 0 ? filledUpIsFull(cell(r, filledUp)) : !flag(r, partial, false);
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    const odometer = parseNumber(cell(r, odo), decimal);
    const money = c.moneyOf(r, t, [total, perGallon]);
    const cost = totalOf(r, money);
    if (normalize(cell(r, type)) === 'service') {
      const what = cell(r, services);
      const text = joinText(what, cell(r, notes)) || 'Service';
      const expenseType = expenseTypeOf(what);
      if (EXPENSE_NOT_SERVICE.includes(expenseType)) c.addExpense(r.line, d, expenseType, cost, text, money);
      else c.addRevision(r.line, d, odometer, cost, text, { money });
      continue;
    }
    c.addFuel(r.line, {
      date: d,
      odometer,
      volume: parseNumber(cell(r, gallons), decimal),
      total: cost,
      unitPrice: parseNumber(cell(r, perGallon), decimal),
      full: fullOf(r),
      missed: flag(r, missed, false),
      money,
    });
  }
}

/**
 * A Fuelly export holds every car of the account (`Vehicle`, `car_name`), and an import goes into one
 * vehicle: said once, with the names, so the user can cut the file down before confirming.
 */
function warnSeveralVehicles(t: Table, c: Collector) {
  const names = new Set([...t.values(t.find('Vehicle', 'car_name'))].filter(Boolean));
  if (names.size > 1) c.warn(1, 'vehicle', 'SEVERAL_VEHICLES', { names: [...names].slice(0, 5).join(', ') });
}

/** `Filled Up`: `Full` or `Partial` (a yes/no is taken too); empty or unknown is a full fill. */
function filledUpIsFull(raw: string): boolean {
  const v = normalize(raw);
  if (v.startsWith('partial')) return false;
  if (v === '') return true;
  return parseBool(v) ?? true;
}
