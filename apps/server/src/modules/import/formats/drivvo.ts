import type { FuelType } from '@evdra/domain';
import {
  type Collector,
  cell,
  expenseTypeOf,
  flag,
  isInsurance,
  joinText,
  KM_AND_LITRES,
  Table,
  type UnitsGuess,
} from '../collect.js';
import { fuelOfName } from '../fuels.js';
import { detectDateOrder, detectDecimal, normalize, parseDate, parseNumber } from '../locale.js';
import type { CsvFile, CsvRow } from '../read.js';
import { type Section, sections } from './sections.js';

/**
 * Drivvo's CSV export: sections `##Refuelling`, `##Expense`, `##Service` in any order (and their
 * names in the phone's language), headers in the phone's language, localized yes/no. A refuelling
 * row holds up to three fuels (bi-fuel and flex cars): fuel, price, total, volume and full-tank
 * columns, repeated for the second and third fuel, whose full-tank header carries a digit after the
 * closing quote (`"Filled tank completely" 2`, fixed before parsing). The current English export
 * names its columns `Odometer (km)`, `Price / L`, `Total cost`, `Volume`, `Filled tank completely`;
 * older ones `Odometer`, `Price`, `Liters`, `Full tank`. No section has a currency column and amounts
 * are bare numbers: the preview asks for the currency, unless a cell, a header (`Total cost (€)`) or a
 * currency column says one (see collect.ts moneyOf).
 */
const REFUEL = /^(refuel|abastec|repostaj|alimentar|realiment|заправ|carburant)/;
const EXPENSE = /^(expense|despesa|gasto|cheltuiel|cheltuial|расход|gastos)/;
const SERVICE = /^(service|servic|manuten|mantenim|revizi|обслуж|сервис)/;

export const isDrivvo = (file: CsvFile) =>
  sections(file).some((s) => REFUEL.test(s.title) || EXPENSE.test(s.title) || SERVICE.test(s.title));

const ODOMETER = [
  'Odometer',
  'Odômetro',
  'Odómetro',
  'Kilometraj',
  'Kilometraje',
  'Quilometragem',
  'Одометр',
];
const DATE = ['Date', 'Data', 'Fecha', 'Дата'];
const TOTAL = [
  'Total cost',
  'Valor total',
  'Costo total',
  'Coste total',
  'Cost total',
  'Total',
  'Общая стоимость',
  'Стоимость',
];
const PRICE = ['Price', 'Preço', 'Precio', 'Preț', 'Pret', 'Цена'];
const VOLUME = [
  'Liters',
  'Litres',
  'Volume',
  'Quantity',
  'Litros',
  'Litri',
  'Cantidad',
  'Quantidade',
  'Cantitate',
  'Литры',
  'Объем',
  'Объём',
];
const FULL = [
  'Filled tank completely',
  'Full tank',
  'Tanque cheio',
  'Tanque lleno',
  'Depósito lleno',
  'Rezervor plin',
  'Plin',
  'Полный бак',
];
const MISSED = [
  'Missed previous refuelling',
  'Missed',
  'Esqueceu o abastecimento anterior',
  'Omitido',
  'Omis',
  'Пропущена',
];
const NOTES = [
  'Notes',
  'Observação',
  'Observações',
  'Observaciones',
  'Notas',
  'Note',
  'Notițe',
  'Observații',
  'Примечание',
  'Примечания',
];
const EXPENSE_TYPE = [
  'Expense type',
  'Type of expense',
  'Expense',
  'Tipo de despesa',
  'Tipo de gasto',
  'Tip cheltuială',
  'Tip',
  'Тип расхода',
  'Тип',
];
const SERVICE_TYPE = [
  'Service type',
  'Type of service',
  'Service',
  'Tipo de serviço',
  'Tipo de servicio',
  'Tip serviciu',
  'Tip',
  'Тип обслуживания',
  'Тип',
];
const PLACE = ['Place', 'Local service', 'Local', 'Lugar', 'Loc', 'Место'];

export function parseDrivvo(file: CsvFile, c: Collector) {
  for (const s of sections(file)) {
    if (REFUEL.test(s.title)) refuels(s, c);
    else if (EXPENSE.test(s.title)) costs(s, c, 'expense');
    else if (SERVICE.test(s.title)) costs(s, c, 'service');
  }
}

/**
 * The units the headers name: `Odometer (km)` / `Odometer (mi)`, `Price / L` / `Price / gal`.
 * Drivvo writes no unit in older or translated headers: km and litres, which the preview asks about.
 */
export function drivvoUnits(file: CsvFile): UnitsGuess {
  const headers = sections(file).flatMap((s) => s.header.cells.map(normalize));
  const odometer = headers.find((h) => /\((km|mi|miles)\)$/.test(h));
  const gallons = headers.some((h) => /(^| )gal(lons?)?( |\)|$)/.test(h));
  const litres = headers.some((h) => /^price l$|\((l|liters|litres)\)$/.test(h));
  if (!odometer && !gallons && !litres) return KM_AND_LITRES;
  return {
    distance: odometer && /\(mi/.test(odometer) ? 'mi' : 'km',
    volume: gallons ? 'usgal' : 'l',
    reason: 'file',
  };
}

/** One fuel's columns of a refuelling row; `fuel` names the fuel ("Gasoline", "LPG"), -1 if none. */
type FuelColumns = { price: number; total: number; volume: number; full: number; fuel: number };
/** A fuel group's name column: `Fuel`, `Second fuel`, `Third fuel`, `Combustible`, … */
const FUEL_NAME = /(^|\s)(fuel|combustivel|combustible|combustibil|carburant|топливо)$/;

/**
 * The fuels' column groups: each ends at its full-tank column (`Full tank`, `Full tank 2`, …), so
 * group k runs from after the full-tank column of group k-1 to its own. A file with no full-tank
 * column has one group, the whole row.
 */
function fuelGroups(t: Table): FuelColumns[] {
  const fullNames = FULL.map(normalize);
  const fulls = t.headers
    .map((h, i) => ({ h: normalize(h), i }))
    .filter(({ h }) => fullNames.some((w) => h === w || new RegExp(`^${w} \\d$`).test(h)))
    .map(({ i }) => i);
  if (fulls.length === 0) fulls.push(-1);
  return fulls.map((full, k) => {
    const from = k === 0 ? 0 : (fulls[k - 1] as number) + 1;
    const to = full < 0 ? t.headers.length - 1 : full;
    return {
      price: t.findIn(from, to, ...PRICE),
      total: t.findIn(from, to, ...TOTAL),
      volume: t.findIn(from, to, ...VOLUME),
      full,
      fuel: t.headers.findIndex((h, i) => i >= from && i <= to && FUEL_NAME.test(normalize(h))),
    };
  });
}

function refuels(s: Section, c: Collector) {
  const t = new Table(s.header.cells, s.rows);
  const [odo, date, missed] = [t.find(...ODOMETER), t.find(...DATE), t.find(...MISSED)];
  const groups = fuelGroups(t);
  const numbers = groups.flatMap((g) => [g.total, g.price, g.volume]);
  const decimal = detectDecimal(t.values(...numbers));
  const totals = new Map(groups.map((g) => [g, c.amounts(t, g.total, numbers)]));
  const order = detectDateOrder(t.values(date));
  for (const r of t.rows) {
    // Issue 51: a two-fuel vehicle's stop that pours both fuels is one fill per fuel (each fuel's
    // chain gets its own); a single-fuel vehicle's is one fill, as before.
    const byFuel = new Map<FuelType, FuelColumns[]>();
    for (const g of groups) {
      const fuel = c.landing(fuelOfName(cell(r, g.fuel)));
      byFuel.set(fuel, [...(byFuel.get(fuel) ?? []), g]);
    }
    const parts = [...byFuel];
    const kept = parts.filter(([, gs]) => poured(r, gs, decimal));
    for (const [fuel, gs] of kept.length ? kept : parts.slice(0, 1)) {
      const money = c.moneyOf(
        r,
        t,
        gs.flatMap((g) => [g.total, g.price]),
      );
      const totalOf = (g: FuelColumns) => totals.get(g)?.(r, money) ?? null;
      c.addFuel(r.line, {
        date: parseDate(cell(r, date), order),
        odometer: parseNumber(cell(r, odo), decimal),
        ...pouredFuels(r, gs, decimal, totalOf),
        fuelType: fuel,
        missed: flag(r, missed, false),
        money,
      });
    }
  }
}

/** Whether any of these fuel groups holds a volume in this row. */
const poured = (r: CsvRow, groups: FuelColumns[], decimal: ',' | '.') =>
  groups.some((g) => (parseNumber(cell(r, g.volume), decimal) ?? 0) > 0);

/**
 * A refuelling of several fuels is one fill-up (one stop, one odometer reading): their volumes and
 * costs added, and full when the file says any of them filled its tank completely (the consumption
 * rule counts every litre since the last full tank; two fill-ups at one odometer would split them).
 */
function pouredFuels(
  r: CsvRow,
  groups: FuelColumns[],
  decimal: ',' | '.',
  totalOf: (g: FuelColumns) => number | null,
) {
  let volume: number | null = null;
  let total: number | null = null;
  let full = false;
  for (const g of groups) {
    const v = parseNumber(cell(r, g.volume), decimal);
    if (v === null || v <= 0) continue;
    const price = parseNumber(cell(r, g.price), decimal);
    const cost = totalOf(g) ?? (price !== null ? price * v : null);
    volume = (volume ?? 0) + v;
    if (cost !== null) total = (total ?? 0) + cost;
    full ||= flag(r, g.full, true);
  }
  return { volume, total, unitPrice: null, full: volume === null ? true : full };
}

function costs(s: Section, c: Collector, kind: 'expense' | 'service') {
  const t = new Table(s.header.cells, s.rows);
  const [odo, date, total] = [t.find(...ODOMETER), t.find(...DATE), t.find(...TOTAL)];
  const type = t.find(...(kind === 'expense' ? EXPENSE_TYPE : SERVICE_TYPE));
  const decimal = detectDecimal(t.values(total, odo));
  const amountOf = c.amounts(t, total, [total, odo]);
  const order = detectDateOrder(t.values(date));
  const [place, notes] = [t.find(...PLACE), t.find(...NOTES)];
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    const money = c.moneyOf(r, t, [total]);
    const amount = amountOf(r, money);
    const what = cell(r, type);
    const text = joinText(what, cell(r, place), cell(r, notes));
    if (kind === 'service')
      c.addRevision(r.line, d, parseNumber(cell(r, odo), decimal), amount, text, { money });
    else if (isInsurance(what))
      c.addInsurance(
        r.line,
        {
          provider: what,
          policyNumber: '',
          coverageType: '',
          startDate: d,
          price: amount ?? 0,
          reminderEnabled: true,
        },
        money,
      );
    else c.addExpense(r.line, d, expenseTypeOf(what), amount, text, money);
  }
}
