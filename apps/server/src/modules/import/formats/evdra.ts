import { EXPENSE_TYPES, type ExpenseType, FUEL_TYPES, type FuelType } from '@evdra/domain';
import { type Collector, cell, flag, Table } from '../collect.js';
import { parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * This app's own export (GET /api/vehicles/{id}/export.csv): one row per record, a `kind` column,
 * this app's field names, ISO dates, `.` decimals, km and litres. Imports back losslessly.
 */
export const EVDRA_COLUMNS = [
  'kind',
  'date',
  'odometer',
  'liters',
  'fuelPrice',
  'pricePerLiter',
  'fuelType',
  'fullTank',
  'missedPrevious',
  'consumptionPer100km',
  'expenseType',
  'amount',
  'km',
  'price',
  'description',
  'reminderEnabled',
  'manualReminderDate',
  'provider',
  'policyNumber',
  'coverageType',
  'startDate',
  'endDate',
] as const;
export type EvdraColumn = (typeof EVDRA_COLUMNS)[number];
export const EVDRA_KINDS = ['fuel', 'expense', 'revision', 'insurance'] as const;

export const isEvdra = (headers: string[]) =>
  headers.includes('kind') && headers.includes('fuelPrice') && headers.includes('expenseType');

export function parseEvdra(file: CsvFile, c: Collector) {
  const [head, ...rows] = file.rows;
  if (!head) return;
  const t = new Table(head.cells, rows);
  const col = Object.fromEntries(EVDRA_COLUMNS.map((k) => [k, head.cells.indexOf(k)])) as Record<
    EvdraColumn,
    number
  >;
  for (const r of t.rows) {
    const get = (k: EvdraColumn) => cell(r, col[k]);
    const num = (k: EvdraColumn) => parseNumber(get(k), '.');
    const date = (k: EvdraColumn) => parseDate(get(k), 'ymd');
    const kind = get('kind').toLowerCase();
    if (kind === 'fuel') {
      const fuelType = get('fuelType') as FuelType;
      c.addFuel(r.line, {
        date: date('date'),
        odometer: num('odometer'),
        volume: num('liters'),
        total: num('fuelPrice'),
        unitPrice: null,
        full: flag(r, col.fullTank, true),
        missed: flag(r, col.missedPrevious, false),
        fuelType: FUEL_TYPES.includes(fuelType) ? fuelType : undefined,
        pricePerLiter: num('pricePerLiter'),
      });
    } else if (kind === 'expense') {
      const type = get('expenseType') as ExpenseType;
      c.addExpense(
        r.line,
        date('date'),
        EXPENSE_TYPES.includes(type) ? type : 'Other',
        num('amount'),
        get('description'),
      );
    } else if (kind === 'revision') {
      c.addRevision(r.line, date('date'), num('km'), num('price'), get('description'), {
        reminderEnabled: flag(r, col.reminderEnabled, true),
        manualReminderDate: date('manualReminderDate'),
      });
    } else if (kind === 'insurance') {
      c.addInsurance(r.line, {
        provider: get('provider'),
        policyNumber: get('policyNumber'),
        coverageType: get('coverageType'),
        startDate: date('startDate') ?? date('date'),
        endDate: date('endDate'),
        price: num('price') ?? 0,
        reminderEnabled: flag(r, col.reminderEnabled, true),
      });
    } else c.error(r.line, 'UNKNOWN_KIND', { kind: get('kind') });
  }
}
