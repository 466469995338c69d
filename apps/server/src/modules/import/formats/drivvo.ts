import { type Collector, cell, expenseTypeOf, isInsurance, joinText, Table } from '../collect.js';
import { detectDateOrder, detectDecimal, parseBool, parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';
import { type Section, sections } from './sections.js';

/**
 * Drivvo's CSV export: sections `##Refuelling`, `##Expense`, `##Service` in any order (and their
 * names in the phone's language), headers in the phone's language, localized yes/no, and repeated
 * headers with a digit after the closing quote (`"Full tank" 2`, fixed before parsing). Only the
 * first of repeated columns is read (a second fuel of bi-fuel cars is left out).
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
  'Service',
  'Tipo de serviço',
  'Tipo de servicio',
  'Tip serviciu',
  'Tip',
  'Тип обслуживания',
  'Тип',
];
const PLACE = ['Place', 'Local', 'Lugar', 'Loc', 'Место'];

export function parseDrivvo(file: CsvFile, c: Collector) {
  for (const s of sections(file)) {
    if (REFUEL.test(s.title)) refuels(s, c);
    else if (EXPENSE.test(s.title)) costs(s, c, 'expense');
    else if (SERVICE.test(s.title)) costs(s, c, 'service');
  }
}

function refuels(s: Section, c: Collector) {
  const t = new Table(s.header.cells, s.rows);
  const [odo, date, total, price, volume] = [
    t.find(...ODOMETER),
    t.find(...DATE),
    t.find(...TOTAL),
    t.find(...PRICE),
    t.find(...VOLUME),
  ];
  const decimal = detectDecimal(t.values(total, price, volume));
  const order = detectDateOrder(t.values(date));
  const [full, missed] = [t.find(...FULL), t.find(...MISSED)];
  for (const r of t.rows) {
    c.addFuel(r.line, {
      date: parseDate(cell(r, date), order),
      odometer: parseNumber(cell(r, odo), decimal),
      volume: parseNumber(cell(r, volume), decimal),
      total: parseNumber(cell(r, total), decimal),
      unitPrice: parseNumber(cell(r, price), decimal),
      full: parseBool(cell(r, full)) ?? true,
      missed: parseBool(cell(r, missed)) ?? false,
    });
  }
}

function costs(s: Section, c: Collector, kind: 'expense' | 'service') {
  const t = new Table(s.header.cells, s.rows);
  const [odo, date, total] = [t.find(...ODOMETER), t.find(...DATE), t.find(...TOTAL)];
  const type = t.find(...(kind === 'expense' ? EXPENSE_TYPE : SERVICE_TYPE));
  const decimal = detectDecimal(t.values(total, odo));
  const order = detectDateOrder(t.values(date));
  const [place, notes] = [t.find(...PLACE), t.find(...NOTES)];
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    const amount = parseNumber(cell(r, total), decimal);
    const what = cell(r, type);
    const text = joinText(what, cell(r, place), cell(r, notes));
    if (kind === 'service') c.addRevision(r.line, d, parseNumber(cell(r, odo), decimal), amount, text);
    else if (isInsurance(what))
      c.addInsurance(r.line, {
        provider: what,
        policyNumber: '',
        coverageType: '',
        startDate: d,
        price: amount ?? 0,
        reminderEnabled: true,
      });
    else c.addExpense(r.line, d, expenseTypeOf(what), amount, text);
  }
}
