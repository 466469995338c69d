import Papa from 'papaparse';
import { guardFormula } from '../../lib/csv-formula.js';
import { EVDRA_COLUMNS, type EvdraColumn } from './formats/evdra.js';
import type { VehicleRecords } from './import.repo.js';

type Cells = Partial<Record<EvdraColumn, string | number | boolean | null>>;

/** A record's money as stored (issue 50): its currency and the rate it was stored at into its owner's currency. */
const money = (r: {
  currency: string;
  exchangeRate: number | null;
  rateDate: string | null;
  rateCurrency: string;
}) => ({
  currency: r.currency,
  exchangeRate: r.exchangeRate,
  rateDate: r.rateDate,
  rateCurrency: r.rateCurrency,
});

/**
 * A vehicle's records as one CSV in this app's own format (see formats/evdra.ts): a `kind` column,
 * this app's field names, ISO dates, `.` decimals, km and litres, each amount's currency and rate; CRLF lines, as RFC 4180 says.
 * Text a spreadsheet would run as a formula is guarded (lib/csv-formula.ts); the import of this
 * format takes the guard off again. Numbers are never guarded: a negative amount stays a number.
 */
export function vehicleCsv(r: VehicleRecords): string {
  const rows: Cells[] = [
    ...r.fuel.map((f) => ({
      kind: 'fuel',
      date: f.date,
      odometer: f.odometer,
      liters: f.liters,
      fuelPrice: f.fuelPrice,
      pricePerLiter: f.pricePerLiter,
      fuelType: f.fuelType,
      fullTank: f.fullTank,
      missedPrevious: f.missedPrevious,
      consumptionPer100km: f.consumptionPer100km,
      ...money(f),
    })),
    ...r.expenses.map((e) => ({
      kind: 'expense',
      date: e.date,
      expenseType: e.expenseType,
      amount: e.amount,
      description: e.description,
      ...money(e),
    })),
    ...r.revisions.map((v) => ({
      kind: 'revision',
      date: v.date,
      km: v.km,
      price: v.price,
      description: v.description,
      reminderEnabled: v.reminderEnabled,
      manualReminderDate: v.manualReminderDate,
      ...money(v),
    })),
    ...r.insurance.map((i) => ({
      kind: 'insurance',
      date: i.startDate,
      price: i.price,
      reminderEnabled: i.reminderEnabled,
      provider: i.provider,
      policyNumber: i.policyNumber,
      coverageType: i.coverageType,
      startDate: i.startDate,
      endDate: i.endDate,
      ...money(i),
    })),
  ];
  const data = rows.map((row) => EVDRA_COLUMNS.map((c) => text(row[c])));
  return `${Papa.unparse({ fields: [...EVDRA_COLUMNS], data }, { newline: '\r\n', escapeFormulae: false })}\r\n`;
}

const text = (v: string | number | boolean | null | undefined) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? guardFormula(v) : String(v);
