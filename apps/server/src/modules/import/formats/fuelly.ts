import { type Collector, cell, Table } from '../collect.js';
import { detectDateOrder, detectDecimal, parseBool, parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * Fuelly exports, in miles and US gallons. The old web export has snake_case headers
 * (`car_name,model,make,year,miles,odometer,gallons,price,city_percentage,fuelup_date,…,
 * missed_fuelup,partial_fuelup,…`, `price` per gallon); the newer one has titled headers
 * (`Fuelup Date,Odometer,Miles,Gallons,Price Per Gallon,Total Cost,MPG,Partial Fuelup,Missed Fuelup,Notes`).
 * Both may carry `$` and thousands separators; MPG is recomputed here, never read.
 */
export function isFuelly(headers: string[]) {
  const t = new Table(headers, []);
  if (t.has('fuelup_date') && t.has('gallons')) return true;
  return t.has('Gallons', 'Fuel Volume') && (t.has('MPG') || t.has('Fuelup Date'));
}

export function parseFuelly(file: CsvFile, c: Collector, unitsGiven: boolean) {
  const [head, ...rows] = file.rows;
  if (!head) return;
  if (!unitsGiven) c.units = { distance: 'mi', volume: 'usgal' };
  const t = new Table(head.cells, rows);
  const date = t.find('fuelup_date', 'Fuelup Date', 'Date');
  const odo = t.find('odometer', 'Odometer');
  const gallons = t.find('gallons', 'Fuel Volume');
  const perGallon = t.find('price', 'Price Per Gallon', 'Price Per Unit');
  const total = t.find('Total Cost', 'Total Price', 'Total');
  const decimal = detectDecimal(t.values(odo, gallons, perGallon, total));
  const order = detectDateOrder(t.values(date));
  if (odo < 0) c.warn(1, 'odometer', 'NO_ODOMETER_COLUMN');
  const partial = t.find('partial_fuelup', 'Partial Fuelup', 'Partial Fill', 'Partial');
  const missed = t.find('missed_fuelup', 'Missed Fuelup', 'Missed Fill', 'Missed');
  for (const r of t.rows) {
    c.addFuel(r.line, {
      date: parseDate(cell(r, date), order),
      odometer: parseNumber(cell(r, odo), decimal),
      volume: parseNumber(cell(r, gallons), decimal),
      total: parseNumber(cell(r, total), decimal),
      unitPrice: parseNumber(cell(r, perGallon), decimal),
      full: !(parseBool(cell(r, partial)) ?? false),
      missed: parseBool(cell(r, missed)) ?? false,
    });
  }
}
