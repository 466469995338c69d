import type {
  CurrencyCode,
  ImportCounts,
  ImportMapping,
  ImportPreview,
  ImportResult,
  Language,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { RateLookup } from '../records/record-money.js';
import type { RecordsService, RecordTable } from '../records/records.service.js';
import type { Sourced } from './collect.js';
import { vehicleCsv } from './export-csv.js';
import type { ImportRepo } from './import.repo.js';
import { type ImportNote, importError, importLimitText, importWarning } from './messages.js';
import { parseInThread, previewInThread } from './parse-thread.js';
import { KINDS, type Kind, refuseOdometerConflicts, split } from './plan.js';
import { ImportTooLarge, noRows } from './read.js';

export type ImportDeps = {
  repo: ImportRepo;
  /** The vehicle if the caller owns it (owner or admin); 404 for strangers, 403 for others who see it. */
  owned: (
    p: Principal,
    vehicleId: number,
  ) => Promise<{
    fuelType: import('@evdra/domain').FuelType;
    /** Issue 51: a two-tank file's second fuel lands here. */
    secondaryFuelType?: import('@evdra/domain').FuelType | null;
  }>;
  /** The vehicle if the caller may read it; 404 otherwise. */
  visible: (p: Principal, vehicleId: number) => Promise<unknown>;
  /** The record services hand-typed records go through: same rules, in bulk. */
  writers: Record<Kind, RecordsService<RecordTable>>;
  /** The user's saved language: warnings and row errors are worded in it. */
  language: (userId: number) => Promise<Language>;
  /** The user's currency: amounts whose currency neither the file nor the request names are in it. */
  currency: (userId: number) => Promise<CurrencyCode>;
  /** The reference rate between two currencies on a day (the records' own), read on the import's transaction. */
  rates: RateLookup;
};

/**
 * Import of another app's history (or this app's export) into one vehicle: preview (saves nothing)
 * then confirm (one transaction). Owner only: anyone else gets 404, as if the vehicle did not exist.
 */
export class ImportService {
  constructor(private readonly d: ImportDeps) {}

  private async vehicle(p: Principal, vehicleId: number) {
    try {
      return await this.d.owned(p, vehicleId);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 403) throw notFound('Vehicle');
      throw err;
    }
  }

  /** Every record of the vehicle as one re-importable CSV (anyone who may read the vehicle). */
  async exportCsv(p: Principal, vehicleId: number): Promise<string> {
    await this.d.visible(p, vehicleId);
    return vehicleCsv(await this.d.repo.records(vehicleId));
  }

  async preview(
    p: Principal,
    vehicleId: number,
    bytes: Buffer,
    mapping?: ImportMapping,
  ): Promise<ImportPreview> {
    const vehicle = await this.vehicle(p, vehicleId);
    const lang = await this.d.language(p.userId);
    const currency = await this.d.currency(p.userId);
    const existing = await this.d.repo.existingKeys(vehicleId);
    const readings = await this.d.repo.readings(vehicleId);
    const ownerCurrency = await this.d.repo.ownerCurrency(vehicleId);
    // Read and weighed against the vehicle's records in the import's thread: only figures come back.
    const plan = await inThread(lang, () =>
      previewInThread(
        bytes,
        vehicle.fuelType,
        mapping,
        currency,
        existing,
        readings,
        vehicle.secondaryFuelType ?? null,
        ownerCurrency,
      ),
    );
    // The records confirm would leave out for want of a rate on their day (NO_RATE), said now.
    for (const day of plan.foreign ?? []) {
      if (!ownerCurrency || (await this.d.rates(this.d.repo.db, day.currency, ownerCurrency, day.date)))
        continue;
      for (const { kind, row } of day.rows) {
        plan.counts[kind] -= 1;
        plan.errors.push({
          row,
          field: 'currency',
          code: 'NO_RATE',
          params: { currency: day.currency, owner: ownerCurrency, date: day.date },
        });
      }
    }
    const sample = Object.fromEntries(
      KINDS.map((k) => [k, plan.sample[k].map(({ row: _row, rateCurrency: _rc, ...v }) => v)]),
    ) as ImportPreview['sample'];
    return {
      format: plan.format,
      counts: plan.counts,
      skipped: plan.duplicates + plan.errors.length,
      duplicates: plan.duplicates,
      warnings: plan.warnings.map((w) => importWarning(lang, w)),
      errors: wordErrors(lang, plan.errors),
      sample,
      units: plan.units,
      unitsGuess: plan.unitsGuess,
      currency: plan.currency,
      currencyGuess: plan.currencyGuess,
      mapping: plan.mapping,
    };
  }

  async confirm(
    p: Principal,
    vehicleId: number,
    bytes: Buffer,
    mapping?: ImportMapping,
  ): Promise<ImportResult> {
    const vehicle = await this.vehicle(p, vehicleId);
    const lang = await this.d.language(p.userId);
    const currency = await this.d.currency(p.userId);
    const parsed = await inThread(lang, () =>
      parseInThread(bytes, vehicle.fuelType, mapping, currency, vehicle.secondaryFuelType ?? null),
    );
    // A generic CSV whose mapping reads nothing previews (so the user can fix it) but imports nothing.
    if (KINDS.every((k) => parsed[k].length === 0)) throw noRows();
    const result = await this.d.repo.inVehicleLock(vehicleId, async (tx: Executor) => {
      // Read under the lock, so two imports of the same file at once still add it once.
      const { fresh, duplicates } = split(parsed, await this.d.repo.existingKeys(vehicleId, tx));
      const counts: ImportCounts = { fuel: 0, expenses: 0, revisions: 0, insurance: 0 };
      const ownerCurrency = await this.d.repo.ownerCurrency(vehicleId, tx);
      // Whether a reference rate is known, once per currency and day.
      const known = new Map<string, boolean>();
      const noRate = async (v: Record<string, unknown>, owner: CurrencyCode) => {
        const currency = v.currency as CurrencyCode | undefined;
        const date = (v.date ?? v.startDate) as string;
        if (!currency || currency === owner || v.exchangeRate !== undefined) return undefined;
        const key = `${currency}|${date}`;
        if (!known.has(key)) known.set(key, (await this.d.rates(tx, currency, owner, date)) !== undefined);
        return known.get(key) ? undefined : { currency, owner, date };
      };
      const errors = [
        ...parsed.errors,
        ...refuseOdometerConflicts(fresh, await this.d.repo.readings(vehicleId, tx)),
      ];
      for (const kind of KINDS) {
        const rows = fresh[kind];
        // Imported rows are the importer's, as records they typed would be.
        // A rate from the file (this app's export) is kept (rateSource IMPORT) only when it converts
        // into the owner's currency; otherwise the server takes the day's rate, as for a typed record.
        const all = await inSlices(rows, ({ row: _row, rateCurrency, ...v }) => {
          const value: Record<string, unknown> = { ...v, vehicleId, createdById: p.userId };
          if (rateCurrency !== ownerCurrency) {
            delete value.exchangeRate;
            delete value.rateDate;
          }
          return value;
        });
        // An amount in another currency with no rate known for its day is left out as a row error,
        // instead of failing the whole import (a typed record would be asked for its rate).
        const values: Record<string, unknown>[] = [];
        const kept: Sourced<object>[] = [];
        for (const [i, value] of all.entries()) {
          const missing = ownerCurrency ? await noRate(value, ownerCurrency) : undefined;
          const source = rows[i] as Sourced<object>;
          if (missing) errors.push({ row: source.row, field: 'currency', code: 'NO_RATE', params: missing });
          else {
            values.push(value);
            kept.push(source);
          }
        }
        const { inserted, refused } = await this.d.writers[kind].createMany(tx, vehicleId, values as never);
        counts[kind] = inserted;
        // The writers' own rules, should they refuse what the checks above let through.
        for (const r of refused)
          errors.push({
            row: (kept[r.index] as Sourced<object>).row,
            field: r.field,
            code: 'INVALID_VALUE',
            params: { field: r.field, detail: r.message },
          });
      }
      return { counts, duplicates, errors };
    });
    for (const kind of KINDS) this.d.writers[kind].committed();
    const { counts, duplicates, errors } = result;
    return {
      format: parsed.format,
      counts,
      skipped: duplicates + errors.length,
      duplicates,
      errors: wordErrors(lang, errors),
    };
  }
}

/**
 * Work of the import's thread (parse-thread.ts); an upload over the import's limits is refused
 * (413) in the user's language.
 */
async function inThread<T>(lang: Language, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ImportTooLarge) throw new ImportTooLarge(err.limit, importLimitText(lang, err.limit));
    throw err;
  }
}

const wordErrors = (lang: Language, notes: ImportNote[]) =>
  notes.sort((a, b) => a.row - b.row).map((n) => importError(lang, n));

/** Maps a long list a slice at a time, letting other requests run between slices (a 20 MB file's 100,000 rows). */
async function inSlices<T, R>(list: T[], fn: (item: T) => R, size = 5000): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < list.length; i += size) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const item of list.slice(i, i + size)) out.push(fn(item));
  }
  return out;
}
