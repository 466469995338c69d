import {
  type FuelType,
  IMPORT_SAMPLE_SIZE,
  type ImportCounts,
  type ImportMapping,
  type ImportPreview,
  type ImportResult,
  type Language,
  odometerConflictsMany,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { RecordsService, RecordTable } from '../records/records.service.js';
import type { Parsed, Sourced } from './collect.js';
import { vehicleCsv } from './export-csv.js';
import { type ExistingKeys, type ImportRepo, keyOf } from './import.repo.js';
import { type ImportNote, importError, importLimitText, importWarning } from './messages.js';
import { parseInThread } from './parse-thread.js';
import { ImportTooLarge, noRows } from './read.js';

type Kind = keyof ExistingKeys;
type Reading = { date: string; odometer: number | null };
const KINDS: Kind[] = ['fuel', 'expenses', 'revisions', 'insurance'];

export type ImportDeps = {
  repo: ImportRepo;
  /** The vehicle if the caller owns it (owner or admin); 404 for strangers, 403 for others who see it. */
  owned: (p: Principal, vehicleId: number) => Promise<{ fuelType: 'PETROL' | 'DIESEL' | 'GPL' | 'ELECTRIC' }>;
  /** The vehicle if the caller may read it; 404 otherwise. */
  visible: (p: Principal, vehicleId: number) => Promise<unknown>;
  /** The record services hand-typed records go through: same rules, in bulk. */
  writers: Record<Kind, RecordsService<RecordTable>>;
  /** The user's saved language: warnings and row errors are worded in it. */
  language: (userId: number) => Promise<Language>;
};

/** A file's records split into new ones and duplicates of the vehicle's records (or of earlier rows of the file). */
type Split = { fresh: Record<Kind, Sourced<object>[]>; duplicates: number };

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
    const parsed = await read(lang, bytes, vehicle.fuelType, mapping);
    const { fresh, duplicates } = split(parsed, await this.d.repo.existingKeys(vehicleId));
    // The fill-ups the odometer-order rule would refuse, as confirm will.
    const errors = [
      ...parsed.errors,
      ...refuseOdometerConflicts(fresh, await this.d.repo.readings(vehicleId)),
    ];
    const counts = countsOf(fresh);
    const sample = Object.fromEntries(
      KINDS.map((k) => [k, fresh[k].slice(0, IMPORT_SAMPLE_SIZE).map(({ row: _row, ...v }) => v)]),
    ) as ImportPreview['sample'];
    return {
      format: parsed.format,
      counts,
      skipped: duplicates + errors.length,
      duplicates,
      warnings: parsed.warnings.map((w) => importWarning(lang, w)),
      errors: wordErrors(lang, errors),
      sample,
      units: parsed.units,
      unitsGuess: parsed.unitsGuess,
      mapping: parsed.mapping,
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
    const parsed = await read(lang, bytes, vehicle.fuelType, mapping);
    // A generic CSV whose mapping reads nothing previews (so the user can fix it) but imports nothing.
    if (KINDS.every((k) => parsed[k].length === 0)) throw noRows();
    const result = await this.d.repo.inVehicleLock(vehicleId, async (tx: Executor) => {
      // Read under the lock, so two imports of the same file at once still add it once.
      const { fresh, duplicates } = split(parsed, await this.d.repo.existingKeys(vehicleId, tx));
      const counts: ImportCounts = { fuel: 0, expenses: 0, revisions: 0, insurance: 0 };
      const errors = [
        ...parsed.errors,
        ...refuseOdometerConflicts(fresh, await this.d.repo.readings(vehicleId, tx)),
      ];
      for (const kind of KINDS) {
        const rows = fresh[kind];
        // Imported rows are the importer's, as records they typed would be.
        const values = rows.map(({ row: _row, ...v }) => ({ ...v, vehicleId, createdById: p.userId }));
        const { inserted, refused } = await this.d.writers[kind].createMany(tx, vehicleId, values as never);
        counts[kind] = inserted;
        // The writers' own rules, should they refuse what the checks above let through.
        for (const r of refused)
          errors.push({
            row: (rows[r.index] as Sourced<object>).row,
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
 * The upload's records, read off the event loop (parse-thread.ts); an upload over the import's
 * limits is refused (413) in the user's language.
 */
async function read(lang: Language, bytes: Buffer, fuelType: FuelType, mapping?: ImportMapping) {
  try {
    return await parseInThread(bytes, fuelType, mapping);
  } catch (err) {
    if (err instanceof ImportTooLarge) throw new ImportTooLarge(err.limit, importLimitText(lang, err.limit));
    throw err;
  }
}

const wordErrors = (lang: Language, notes: ImportNote[]) =>
  notes.sort((a, b) => a.row - b.row).map((n) => importError(lang, n));

/**
 * Takes out of `fresh.fuel` the fill-ups the odometer-order rule refuses (as if typed one by one
 * after the vehicle's `readings`), and answers them as row errors.
 */
function refuseOdometerConflicts(fresh: Split['fresh'], readings: Reading[]): ImportNote[] {
  const fills = fresh.fuel as Sourced<Reading>[];
  const refused = odometerConflictsMany(readings, fills);
  fresh.fuel = fills.filter((_, i) => !refused.has(i));
  return [...refused].map(([i, { entry, kind }]) => ({
    row: (fills[i] as Sourced<Reading>).row,
    field: 'odometer',
    code: kind === 'below-earlier' ? 'ODOMETER_BELOW_EARLIER' : 'ODOMETER_ABOVE_LATER',
    params: { odometer: fills[i]?.odometer ?? 0, other: entry.odometer, date: entry.date },
  }));
}

function split(parsed: Parsed, existing: ExistingKeys): Split {
  let duplicates = 0;
  const fresh = {} as Split['fresh'];
  for (const kind of KINDS) {
    const seen = existing[kind];
    const key = keyOf[kind] as (r: never) => string;
    fresh[kind] = (parsed[kind] as Sourced<object>[]).filter((r) => {
      if (seen.has(key(r as never))) {
        duplicates += 1;
        return false;
      }
      return true;
    });
  }
  return { fresh, duplicates };
}

const countsOf = (fresh: Split['fresh']): ImportCounts => ({
  fuel: fresh.fuel.length,
  expenses: fresh.expenses.length,
  revisions: fresh.revisions.length,
  insurance: fresh.insurance.length,
});
