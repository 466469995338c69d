import {
  type CurrencyCode,
  type DistanceUnit,
  ExpenseBody,
  type ExpenseType,
  FuelBody,
  type FuelType,
  type ImportColumnMapping,
  type ImportCurrencyGuess,
  type ImportExpense,
  type ImportFormat,
  type ImportFuel,
  type ImportInsurance,
  type ImportMessageCode,
  type ImportRevision,
  type ImportUnits,
  type ImportUnitsGuess,
  InsuranceBody,
  RevisionBody,
  type VolumeUnit,
} from '@evdra/domain';
import type { z } from 'zod';
import { amountStyle, parseAmount } from './amount.js';
import { CURRENCY_HEADERS, currencyInCell, currencyInHeader, firstStated, type Stated } from './currency.js';
import { landingFuel } from './fuels.js';
import { KM_PER, LITERS_PER, normalize, parseBool, periodEnd, round } from './locale.js';
import type { ImportNote } from './messages.js';
import type { CsvRow } from './read.js';

export type Units = ImportUnits;
export type UnitsGuess = ImportUnitsGuess;
/** What a file that says nothing of its units is read in. */
export const KM_AND_LITRES: UnitsGuess = { distance: 'km', volume: 'l', reason: 'default' };
/** A record and the line of the file it came from (and, with a rate from the file, the currency that rate is to). */
export type Sourced<T> = T & { row: number; rateCurrency?: CurrencyCode };

/**
 * What the file says of a record's money: a currency it names (or a `$` hint), and, in this app's own
 * export, the rate the record was stored at and the currency that rate converts to.
 */
export type RowMoney =
  | Stated
  | {
      currency: CurrencyCode;
      exchangeRate?: number | null;
      rateDate?: string | null;
      rateCurrency?: CurrencyCode;
    };

/** The currency of the amounts whose currency the file does not name: the user's pick, else the guess, else the user's own. */
export type CurrencyChoice = { chosen?: CurrencyCode; fallback: CurrencyCode };

/** What a file holds, as this app would store it; nothing saved. */
export type Parsed = {
  format: ImportFormat;
  fuel: Sourced<ImportFuel>[];
  expenses: Sourced<ImportExpense>[];
  revisions: Sourced<ImportRevision>[];
  insurance: Sourced<ImportInsurance>[];
  /** Worded in the user's language by the service (messages.ts). */
  warnings: ImportNote[];
  errors: ImportNote[];
  /** The units the file was read in: the user's choice, else the guess. */
  units: Units;
  unitsGuess: UnitsGuess;
  /** The currency of the records whose currency the file does not name. */
  currency: CurrencyCode;
  currencyGuess: ImportCurrencyGuess;
  mapping: ImportColumnMapping | null;
};

/** A fill-up as the source app writes it: distances and volumes in the file's units. */
export type SourceFill = {
  date: string | null;
  odometer: number | null;
  volume: number | null;
  /** What the fill-up cost in total. */
  total: number | null;
  /** Price per unit of volume (the file's unit). */
  unitPrice: number | null;
  full: boolean;
  missed: boolean;
  /** Kept as given (this app's own export), instead of the vehicle's fuel type / total ÷ litres. */
  fuelType?: FuelType;
  pricePerLiter?: number | null;
  /** What the file says of the fill-up's currency. */
  money?: RowMoney;
};

/** The first problem the record schema found, as an INVALID_VALUE note's figures. */
const firstIssue = (r: z.ZodSafeParseResult<unknown>) => {
  const issue = r.error?.issues[0];
  return { field: issue?.path.join('.') || 'value', detail: issue?.message ?? 'invalid' };
};

/**
 * Gathers a file's records, converting units to km and litres, and checking each record with the
 * same schemas as a record typed by hand; a row that fails is an error (left out), never a 5xx.
 */
export class Collector {
  readonly fuel: Sourced<ImportFuel>[] = [];
  readonly expenses: Sourced<ImportExpense>[] = [];
  readonly revisions: Sourced<ImportRevision>[] = [];
  readonly insurance: Sourced<ImportInsurance>[] = [];
  readonly warnings: ImportNote[] = [];
  readonly errors: ImportNote[] = [];
  mapping: ImportColumnMapping | null = null;
  /** Every distance and volume is read in these, decided before the first row (see units.ts). */
  readonly units: Units;
  /** Records kept whose amount showed only a `$` (a hint, not a currency). */
  private dollarRows = 0;
  /** The vehicle's second fuel (issue 51; parse.ts sets it): a file's second tank lands there. */
  secondaryFuelType: FuelType | null = null;

  /** Which of the vehicle's fuels a fill the file names `named` (or puts in `tank`) lands in (fuels.ts). */
  landing(named: FuelType | undefined, tank?: number): FuelType {
    return landingFuel({ primary: this.fuelType, secondary: this.secondaryFuelType }, named, tank);
  }

  constructor(
    readonly format: ImportFormat,
    readonly fuelType: FuelType,
    readonly unitsGuess: UnitsGuess,
    given: { distance?: DistanceUnit; volume?: VolumeUnit } = {},
    readonly currencyChoice: CurrencyChoice = { fallback: 'EUR' },
  ) {
    // This app's own export is km and litres by definition: a choice sent with it changes nothing.
    const choice = unitsGuess.reason === 'fixed' ? {} : given;
    this.units = {
      distance: choice.distance ?? unitsGuess.distance,
      volume: choice.volume ?? unitsGuess.volume,
    };
    // Kept for API clients that read warnings only; the preview names the guess in unitsGuess.
    if (unitsGuess.reason === 'currency' && !choice.distance && !choice.volume)
      this.warn(1, 'units', 'DOLLAR_UNITS');
  }

  warn(row: number, field: string, code: ImportMessageCode, params?: ImportNote['params']) {
    if (this.warnings.length < 1000) this.warnings.push({ row, field, code, ...(params ? { params } : {}) });
  }
  error(row: number, code: ImportMessageCode, params?: ImportNote['params']) {
    this.errors.push({ row, field: '', code, params });
  }

  km(distance: number | null): number | null {
    return distance === null ? null : Math.round(distance * KM_PER[this.units.distance]);
  }

  addFuel(row: number, s: SourceFill) {
    if (!s.date) return this.error(row, 'NO_DATE');
    if (s.volume === null || s.volume <= 0) return this.error(row, 'NO_VOLUME');
    // CNG's kg and a charge's kWh are no volume: kept as the file gives them (issue 51).
    const fuel = s.fuelType ?? this.fuelType;
    const liters = round(
      fuel === 'CNG' || fuel === 'ELECTRIC' ? s.volume : s.volume * LITERS_PER[this.units.volume],
      2,
    );
    let total = s.total;
    if (total === null && s.unitPrice !== null) total = s.unitPrice * s.volume;
    if (total === null) {
      this.warn(row, 'fuelPrice', 'NO_COST');
      total = 0;
    }
    const odometer = this.km(s.odometer);
    if (odometer === null) this.warn(row, 'odometer', 'NO_ODOMETER');
    const value: ImportFuel = {
      date: s.date,
      odometer,
      liters,
      fuelPrice: round(total, 2),
      pricePerLiter: s.pricePerLiter ?? (liters > 0 ? round(total / liters, 3) : null),
      fuelType: s.fuelType ?? this.fuelType,
      fullTank: s.full,
      missedPrevious: s.missed,
    };
    const checked = FuelBody.safeParse({ ...value, vehicleId: 1 });
    if (!checked.success) return this.error(row, 'INVALID_VALUE', firstIssue(checked));
    this.fuel.push(this.priced({ ...value, row }, s.money));
  }

  /** A kept record with the currency (and rate) its file names; counts the `$` hints. */
  private priced<T extends object>(record: Sourced<T>, money: RowMoney | undefined): Sourced<T> {
    if (!money) return record;
    if ('dollar' in money) {
      this.dollarRows += 1;
      return record;
    }
    const out: Sourced<T> & { currency?: CurrencyCode; exchangeRate?: number; rateDate?: string } = {
      ...record,
      currency: money.currency,
    };
    if ('exchangeRate' in money && money.exchangeRate && money.exchangeRate > 0 && money.rateCurrency) {
      out.exchangeRate = money.exchangeRate;
      if (money.rateDate) out.rateDate = money.rateDate;
      out.rateCurrency = money.rateCurrency;
    }
    return out;
  }

  addExpense(
    row: number,
    date: string | null,
    expenseType: ExpenseType,
    amount: number | null,
    description: string,
    money?: RowMoney,
  ) {
    if (!date) return this.error(row, 'NO_DATE');
    if (amount === null) return this.error(row, 'NO_AMOUNT');
    const value: ImportExpense = {
      date,
      expenseType,
      amount: round(amount, 2),
      description: clip(description),
    };
    const checked = ExpenseBody.safeParse({ ...value, vehicleId: 1 });
    if (!checked.success) return this.error(row, 'INVALID_VALUE', firstIssue(checked));
    this.expenses.push(this.priced({ ...value, row }, money));
  }

  /** A service; without an odometer reading it cannot be one (km is required), so it is an expense. */
  addRevision(
    row: number,
    date: string | null,
    odometer: number | null,
    price: number | null,
    description: string,
    extra: {
      reminderEnabled?: boolean;
      manualReminderDate?: string | null;
      kmAlreadyConverted?: boolean;
      money?: RowMoney;
    } = {},
  ) {
    const km = extra.kmAlreadyConverted ? odometer : this.km(odometer);
    if (km === null || km <= 0) {
      this.warn(row, 'km', 'SERVICE_AS_EXPENSE');
      return this.addExpense(row, date, 'Maintenance', price, description, extra.money);
    }
    if (!date) return this.error(row, 'NO_DATE');
    if (price === null) return this.error(row, 'NO_AMOUNT');
    const value: ImportRevision = {
      date,
      km,
      price: round(price, 2),
      description: clip(description),
      reminderEnabled: extra.reminderEnabled ?? true,
      manualReminderDate: extra.manualReminderDate ?? null,
    };
    const checked = RevisionBody.safeParse({ ...value, vehicleId: 1 });
    if (!checked.success) return this.error(row, 'INVALID_VALUE', firstIssue(checked));
    this.revisions.push(this.priced({ ...value, row }, extra.money));
  }

  addInsurance(
    row: number,
    v: Omit<ImportInsurance, 'startDate' | 'endDate'> & { startDate: string | null; endDate?: string | null },
    money?: RowMoney,
  ) {
    if (!v.startDate) return this.error(row, 'NO_DATE');
    const value: ImportInsurance = {
      ...v,
      provider: v.provider.trim().slice(0, 100) || 'Insurance',
      policyNumber: v.policyNumber.slice(0, 50),
      coverageType: v.coverageType.slice(0, 50),
      startDate: v.startDate,
      endDate: v.endDate ?? periodEnd(v.startDate, 12),
      price: round(v.price, 2),
    };
    const checked = InsuranceBody.safeParse({ ...value, vehicleId: 1 });
    if (!checked.success) return this.error(row, 'INVALID_VALUE', firstIssue(checked));
    this.insurance.push(this.priced({ ...value, row }, money));
  }

  /**
   * What the file said of its currency, and the records whose currency it did not name put in the
   * chosen one (the user's pick, else the guess, else the user's own currency).
   */
  private settleCurrency(): { currency: CurrencyCode; currencyGuess: ImportCurrencyGuess } {
    const lists = [this.fuel, this.expenses, this.revisions, this.insurance] as {
      currency?: CurrencyCode;
    }[][];
    const counts = new Map<CurrencyCode, number>();
    let unstated = 0;
    for (const list of lists)
      for (const r of list) {
        if (r.currency) counts.set(r.currency, (counts.get(r.currency) ?? 0) + 1);
        else unstated += 1;
      }
    const found = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
    let reason: ImportCurrencyGuess['reason'] = 'none';
    if (found.length === 1 && unstated === 0) reason = 'file';
    else if (found.length > 0) reason = 'rows';
    else if (this.dollarRows > 0) reason = 'dollar';
    // A `$` alone never decides: a default LubeLogger install writes it for lei too. The client asks.
    const guess = found.length === 1 ? found[0] : undefined;
    const currency = this.currencyChoice.chosen ?? guess ?? this.currencyChoice.fallback;
    if (unstated > 0) for (const list of lists) for (const r of list) r.currency ??= currency;
    return { currency, currencyGuess: { reason, found, currency: guess ?? null, unstated } };
  }

  result(): Parsed {
    const { format, fuel, expenses, revisions, insurance, warnings, errors, units, unitsGuess, mapping } =
      this;
    return {
      format,
      fuel,
      expenses,
      revisions,
      insurance,
      warnings,
      errors,
      units,
      unitsGuess,
      ...this.settleCurrency(),
      mapping,
    };
  }

  /**
   * A reader of the amounts of money in `t`'s column `column` (amount.ts): each cell by what it
   * shows, else by its column's other cells, the row's currency and `fileColumns`' numbers. A row
   * whose file names no currency is read in the one the user picked, else their own.
   */
  amounts(t: Table, column: number, fileColumns: number[]) {
    const style = amountStyle(t.values(column), t.values(...fileColumns));
    const unstated = this.currencyChoice.chosen ?? this.currencyChoice.fallback;
    return (r: CsvRow, money: RowMoney | undefined) =>
      parseAmount(cell(r, column), style, money && 'currency' in money ? money.currency : unstated);
  }

  /**
   * What a row of `t` says of its amount's currency: the first of its amount cells that names one,
   * else its currency column's value, else an amount column's header (`Total cost (€)`).
   */
  moneyOf(r: CsvRow, t: Table, amountColumns: number[]): RowMoney {
    const cells = amountColumns.map((i) => currencyInCell(cell(r, i)));
    const column = t.currencyColumn();
    const own = column >= 0 ? currencyInCell(cell(r, column)) : null;
    return firstStated(
      ...cells,
      own,
      ...amountColumns.map((i) => (i >= 0 ? currencyInHeader(t.header(i)) : null)),
    );
  }
}

const clip = (s: string) => s.trim().slice(0, 500);

/** Joins non-empty parts with " — " (a title and its notes). */
export const joinText = (...parts: (string | undefined)[]) =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' — ');

/** A header row and the rows under it, with columns found by header name (never by position). */
export class Table {
  private readonly norm: string[];

  constructor(
    readonly headers: string[],
    readonly rows: CsvRow[],
  ) {
    this.norm = headers.map(normalize);
  }

  /**
   * The first column whose header is one of `names` (normalized: case, accents and punctuation
   * ignored), else the first that starts with one of them (`Odo (mi)` for `odo`); -1 when none.
   */
  find(...names: string[]): number {
    const wanted = names.map(normalize);
    for (const w of wanted) {
      const i = this.norm.indexOf(w);
      if (i >= 0) return i;
    }
    for (const w of wanted) {
      const i = this.norm.findIndex((h) => h.startsWith(`${w} `) || h.startsWith(`${w}(`));
      if (i >= 0) return i;
    }
    return -1;
  }

  has(...names: string[]) {
    return this.find(...names) >= 0;
  }

  /** find, among the columns from `from` to `to` (both included) only. */
  findIn(from: number, to: number, ...names: string[]): number {
    const wanted = names.map(normalize);
    const inRange = (i: number) => i >= from && i <= to;
    for (const w of wanted) {
      const i = this.norm.findIndex((h, j) => inRange(j) && h === w);
      if (i >= 0) return i;
    }
    for (const w of wanted) {
      const i = this.norm.findIndex((h, j) => inRange(j) && (h.startsWith(`${w} `) || h.startsWith(`${w}(`)));
      if (i >= 0) return i;
    }
    return -1;
  }

  /** The column that names each row's currency (`Currency`, `Moneda`, `Währung`…); -1 when none. */
  currencyColumn(): number {
    return this.norm.findIndex((h) => CURRENCY_HEADERS.includes(h));
  }

  /** The header text of a column ('' for -1). */
  header(i: number) {
    return i >= 0 ? (this.headers[i] ?? '') : '';
  }

  /** Every value of the columns given (for detecting decimals and date order). */
  *values(...columns: number[]): Generator<string> {
    for (const r of this.rows) for (const c of columns) if (c >= 0) yield r.cells[c] ?? '';
  }
}

/** The cell of `row` in column `i` ('' when absent). */
export const cell = (row: CsvRow, i: number) => (i >= 0 ? (row.cells[i] ?? '') : '');

/**
 * A yes/no column's value for `row`; `absent` when the file has no such column or the cell is not a
 * yes/no. A file that says nothing of partial fills is a file of full fills (as LubeLogger, Fuelio
 * and Drivvo assume), so readers pass `true` for "full tank"; an empty cell of a column that exists
 * is a "no" (a spreadsheet ticks only the full ones).
 */
export function flag(row: CsvRow, i: number, absent: boolean): boolean {
  if (i < 0) return absent;
  return parseBool(cell(row, i)) ?? absent;
}

/** An expense type from a category or description in en/ro/es/pt/ru words; 'Other' when none fits. */
export function expenseTypeOf(text: string): ExpenseType {
  const t = normalize(text);
  const rules: [RegExp, ExpenseType][] = [
    [/park|estacion|aparc|parcare|парков/, 'Parking'],
    [/toll|peaj|pedag|vignet|rovinie|платн/, 'Tolls'],
    [/tax|regist|impozit|impuest|imposto|itp|ipva|налог|licen/, 'Tax'],
    [/wash|spal|lavad|lavag|мойк/, 'Wash'],
    [/tire|tyre|anvelop|neumat|pneu|шин/, 'Tyres'],
    [/repair|repar|ремонт/, 'Repair'],
    [/servic|mainten|revizi|manten|manuten|oil|ulei|aceite|oleo|то /, 'Maintenance'],
    [/accessor|acesor|acessor|аксесс/, 'Accessories'],
  ];
  return rules.find(([re]) => re.test(t))?.[1] ?? 'Other';
}

/** True for a category that is insurance, in en/ro/es/pt/ru words. */
export const isInsurance = (text: string) => /insur|asigur|segur|rca|casco|страх/.test(normalize(text));
/** True for a category that is a service (maintenance), in en/ro/es/pt/ru words. */
export const isService = (text: string) =>
  /servic|mainten|revizi|manten|manuten|oil change|обслуж/.test(normalize(text));
