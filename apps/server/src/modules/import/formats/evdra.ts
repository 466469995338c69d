import { EXPENSE_TYPES, type ExpenseType, FUEL_TYPES, type FuelType, isCurrencyCode } from '@evdra/domain';
import { type Collector, cell, flag, type RowMoney, Table } from '../collect.js';
import { parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * This app's own export (GET /api/vehicles/{id}/export.csv): one row per record, a `kind` column,
 * this app's field names, ISO dates, `.` decimals, km and litres; each amount's `currency`, and the
 * `exchangeRate` (from `rateDate`) it was stored at into `rateCurrency`, its owner's currency then
 * (issue 50). Imports back losslessly: the rate is kept (rateSource IMPORT) when `rateCurrency` is the
 * new owner's currency. An export from before currencies has no `currency` column: the preview asks.
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
  'currency',
  'exchangeRate',
  'rateDate',
  'rateCurrency',
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
    const money = moneyOf(get('currency'), num('exchangeRate'), date('rateDate'), get('rateCurrency'));
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
        money,
      });
    } else if (kind === 'expense') {
      const type = get('expenseType') as ExpenseType;
      c.addExpense(
        r.line,
        date('date'),
        EXPENSE_TYPES.includes(type) ? type : 'Other',
        num('amount'),
        get('description'),
        money,
      );
    } else if (kind === 'revision') {
      c.addRevision(r.line, date('date'), num('km'), num('price'), get('description'), {
        reminderEnabled: flag(r, col.reminderEnabled, true),
        manualReminderDate: date('manualReminderDate'),
        money,
      });
    } else if (kind === 'insurance') {
      c.addInsurance(
        r.line,
        {
          provider: get('provider'),
          policyNumber: get('policyNumber'),
          coverageType: get('coverageType'),
          startDate: date('startDate') ?? date('date'),
          endDate: date('endDate'),
          price: num('price') ?? 0,
          reminderEnabled: flag(r, col.reminderEnabled, true),
        },
        money,
      );
    } else c.error(r.line, 'UNKNOWN_KIND', { kind: get('kind') });
  }
}

/** A row's money as this app exported it; nothing when the export predates currencies. */
function moneyOf(
  currency: string,
  rate: number | null,
  rateDate: string | null,
  rateCurrency: string,
): RowMoney {
  if (!isCurrencyCode(currency)) return null;
  if (rate === null || rate <= 0 || !isCurrencyCode(rateCurrency)) return { currency };
  return { currency, exchangeRate: rate, rateDate, rateCurrency };
}
