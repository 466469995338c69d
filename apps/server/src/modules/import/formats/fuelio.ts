import type { FuelType } from '@evdra/domain';
import {
  type Collector,
  cell,
  expenseTypeOf,
  flag,
  isInsurance,
  isService,
  joinText,
  Table,
  type UnitsGuess,
} from '../collect.js';
import { currencyInCell, firstStated } from '../currency.js';
import { fuelioFuel } from '../fuels.js';
import {
  detectDateOrder,
  detectDecimal,
  normalize,
  parseBool,
  parseDate,
  parseNumber,
  periodEnd,
} from '../locale.js';
import type { CsvFile, CsvRow } from '../read.js';
import { sections } from './sections.js';

/**
 * Fuelio's CSV backup: sections `## Vehicle`, `## Log` (fill-ups), `## CostCategories`, `## Costs`
 * and others (ignored). Units are in the Log's headers (`Odo (mi)`, `Fuel (litres)`,
 * `Fuel (us gallons)`, `Fuel (imp gallons)`); `Price (optional)` is the fill-up's total and
 * `VolumePrice` the unit price; `Full` and `Missed` are 1/0. Costs name their category by id, whose
 * name (`## CostCategories`) says what it is: service → a service, insurance → an insurance, the
 * rest → an expense of the matching type. Fuelio's backup names no currency (its Vehicle, Log and Costs
 * sections have no currency column, and amounts are bare numbers): the preview asks, unless a cell or
 * a currency column says one (read as in every format, see collect.ts moneyOf).
 */
export const isFuelio = (file: CsvFile) => {
  const titles = sections(file).map((s) => s.title);
  return titles.includes('vehicle') && titles.includes('log');
};

/** The units the Log's headers name (`Odo (mi)`, `Fuel (us gallons)`), else the vehicle row's. */
export function fuelioUnits(file: CsvFile): UnitsGuess {
  const all = sections(file);
  const log = all.find((s) => s.title === 'log');
  const vehicle = all.find((s) => s.title === 'vehicle');
  const odoHeader = log ? normalize(log.header.cells.find((h) => /^odo/i.test(h)) ?? '') : '';
  const fuelHeader = log ? normalize(log.header.cells.find((h) => /^fuel/i.test(h)) ?? '') : '';
  let distance: 'km' | 'mi' = /\(mi/.test(odoHeader) ? 'mi' : 'km';
  let volume: 'l' | 'usgal' | 'impgal' = /us gal/.test(fuelHeader)
    ? 'usgal'
    : /(imp|uk) gal/.test(fuelHeader)
      ? 'impgal'
      : 'l';
  let said = odoHeader.includes('(');
  if (!said && vehicle) {
    // No unit in the header: the vehicle's DistUnit (0 km, 1 miles) and FuelUnit (0 l, 1 US gal, 2 imp gal).
    const v = new Table(vehicle.header.cells, vehicle.rows);
    const row = vehicle.rows[0];
    const [dist, fu] = row ? [cell(row, v.find('DistUnit')), cell(row, v.find('FuelUnit'))] : ['', ''];
    said = dist !== '' || fu !== '';
    if (dist === '1') distance = 'mi';
    if (fu === '1') volume = 'usgal';
    if (fu === '2') volume = 'impgal';
  }
  return { distance, volume, reason: said ? 'file' : 'default' };
}

export function parseFuelio(file: CsvFile, c: Collector) {
  const all = sections(file);
  const log = all.find((s) => s.title === 'log');
  const categories = all.find((s) => s.title === 'costcategories');
  const costs = all.find((s) => s.title === 'costs');
  // A currency column in the Vehicle section, should a file carry one, is the whole file's.
  const vehicle = all.find((s) => s.title === 'vehicle');
  const vt = vehicle ? new Table(vehicle.header.cells, vehicle.rows) : undefined;
  const vehicleRow = vehicle?.rows[0];
  const fileMoney = vt && vehicleRow ? currencyInCell(cell(vehicleRow, vt.currencyColumn())) : null;

  if (log) {
    const t = new Table(log.header.cells, log.rows);
    const date = t.find('Data', 'Date');
    const odo = t.find('Odo');
    const fuel = t.find('Fuel');
    const total = t.find('Price (optional)', 'Price');
    const unitPrice = t.find('VolumePrice');
    const numbers = [odo, fuel, total, unitPrice];
    const decimal = detectDecimal(t.values(...numbers));
    const totalOf = c.amounts(t, total, numbers);
    const order = detectDateOrder(t.values(date));
    const [full, missed] = [t.find('Full'), t.find('Missed')];
    const tankOf = fuelioTanks(c, vt, vehicleRow, t);
    for (const r of t.rows) {
      const money = firstStated(c.moneyOf(r, t, [total, unitPrice]), fileMoney);
      c.addFuel(r.line, {
        fuelType: tankOf(r),
        date: parseDate(cell(r, date), order),
        odometer: parseNumber(cell(r, odo), decimal),
        volume: parseNumber(cell(r, fuel), decimal),
        total: nonZero(totalOf(r, money)),
        unitPrice: nonZero(parseNumber(cell(r, unitPrice), decimal)),
        full: flag(r, full, true),
        missed: flag(r, missed, false),
        money,
      });
    }
  }

  const names = new Map<string, string>();
  if (categories) {
    const t = new Table(categories.header.cells, categories.rows);
    for (const r of t.rows) names.set(cell(r, t.find('CostTypeID')), cell(r, t.find('Name')));
  }
  if (costs) {
    const t = new Table(costs.header.cells, costs.rows);
    const date = t.find('Date', 'Data');
    const odo = t.find('Odo');
    const cost = t.find('Cost');
    const decimal = detectDecimal(t.values(cost, odo));
    const amountOf = c.amounts(t, cost, [cost, odo]);
    const order = detectDateOrder(t.values(date));
    const [template, income, typeId, titleCol, notes, repeat] = [
      t.find('isTemplate'),
      t.find('isIncome'),
      t.find('CostTypeID'),
      t.find('CostTitle'),
      t.find('Notes'),
      t.find('RepeatMonths'),
    ];
    for (const r of t.rows) {
      if (parseBool(cell(r, template)) || parseBool(cell(r, income))) continue;
      const category = names.get(cell(r, typeId)) ?? '';
      const title = cell(r, titleCol);
      const text = joinText(title, cell(r, notes));
      const d = parseDate(cell(r, date), order);
      const money = firstStated(c.moneyOf(r, t, [cost]), fileMoney);
      const amount = amountOf(r, money);
      if (isInsurance(category)) {
        const months = parseNumber(cell(r, repeat), decimal);
        c.addInsurance(
          r.line,
          {
            provider: title || category,
            policyNumber: '',
            coverageType: '',
            startDate: d,
            endDate: d && months && months > 0 ? periodEnd(d, months) : undefined,
            price: amount ?? 0,
            reminderEnabled: true,
          },
          money,
        );
      } else if (isService(category)) {
        c.addRevision(r.line, d, nonZero(parseNumber(cell(r, odo), decimal)), amount, text, { money });
      } else c.addExpense(r.line, d, expenseTypeOf(`${category} ${title}`), amount, text, money);
    }
  }
}

/**
 * Issue 51: a two-tank Fuelio vehicle (`TankCount` 2, `Tank1Type`/`Tank2Type`) says per fill which
 * tank it filled (`TankNumber`) and may name the fill's fuel (`FuelType`): the fill lands in the
 * vehicle's fuel of that kind, a second tank's in its second fuel (Collector.landing). A one-tank
 * vehicle's fills are all of the vehicle's fuel, as before.
 */
function fuelioTanks(
  c: Collector,
  vt: Table | undefined,
  vehicleRow: CsvRow | undefined,
  t: Table,
): (r: CsvRow) => FuelType | undefined {
  const at = (name: string) => (vt && vehicleRow ? cell(vehicleRow, vt.find(name)) : '');
  const tanks = Number(at('TankCount')) || 1;
  const tankFuel = [fuelioFuel(at('Tank1Type')), fuelioFuel(at('Tank2Type'))];
  const [tankCol, fuelCol] = [t.find('TankNumber'), t.find('FuelType')];
  return (r) => {
    const tank = tanks >= 2 && cell(r, tankCol) === '2' ? 2 : 1;
    return c.landing(fuelioFuel(cell(r, fuelCol)) ?? tankFuel[tank - 1], tank);
  };
}

const nonZero = (n: number | null) => (n === null || n === 0 ? null : n);
