import {
  type CurrencyCode,
  IMPORT_SAMPLE_SIZE,
  type ImportCounts,
  odometerConflictsMany,
} from '@evdra/domain';
import type { Parsed, Sourced } from './collect.js';
import { type ExistingKeys, keyOf } from './keys.js';
import type { ImportNote } from './messages.js';

/**
 * What an import would do with a file's records against a vehicle's: which are new, which are
 * duplicates, which the odometer-order rule refuses. Pure (no database), so the preview runs it in
 * the import's thread (parse-worker.ts) and confirm under the vehicle's lock.
 */
export type Kind = keyof ExistingKeys;
export type Reading = { date: string; odometer: number | null };
export const KINDS: Kind[] = ['fuel', 'expenses', 'revisions', 'insurance'];

/** A file's records split into new ones and duplicates of the vehicle's records. */
export type Split = { fresh: Record<Kind, Sourced<object>[]>; duplicates: number };

export function split(parsed: Pick<Parsed, Kind>, existing: ExistingKeys): Split {
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

/**
 * Takes out of `fresh.fuel` the fill-ups the odometer-order rule refuses (as if typed one by one
 * after the vehicle's `readings`), and answers them as row errors.
 */
export function refuseOdometerConflicts(fresh: Split['fresh'], readings: Reading[]): ImportNote[] {
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

export const countsOf = (fresh: Split['fresh']): ImportCounts => ({
  fuel: fresh.fuel.length,
  expenses: fresh.expenses.length,
  revisions: fresh.revisions.length,
  insurance: fresh.insurance.length,
});

/** The new records of one currency and day that need a rate into the owner's currency (none from the file). */
export type ForeignDay = { currency: CurrencyCode; date: string; rows: { kind: Kind; row: number }[] };

/** What a preview shows of a file against a vehicle: the file's figures, with only a sample of its records. */
export type PreviewPlan = Omit<Parsed, Kind> & {
  counts: ImportCounts;
  duplicates: number;
  /** The first IMPORT_SAMPLE_SIZE new records of each kind. */
  sample: Record<Kind, Sourced<object>[]>;
  /** The days whose rate the server must know, so the preview can say which records confirm would leave out. */
  foreign: ForeignDay[];
};

/** The new records in a currency other than `owner` without a usable rate from the file, by currency and day. */
function foreignDays(fresh: Split['fresh'], owner: CurrencyCode | undefined): ForeignDay[] {
  if (!owner) return [];
  const days = new Map<string, ForeignDay>();
  for (const kind of KINDS)
    for (const r of fresh[kind] as Sourced<{
      currency?: CurrencyCode;
      exchangeRate?: number;
      date?: string;
      startDate?: string;
    }>[]) {
      if (!r.currency || r.currency === owner) continue;
      if (r.exchangeRate !== undefined && r.rateCurrency === owner) continue;
      const date = (r.date ?? r.startDate) as string;
      const key = `${r.currency}|${date}`;
      const day = days.get(key) ?? { currency: r.currency, date, rows: [] };
      days.set(key, day);
      day.rows.push({ kind, row: r.row });
    }
  return [...days.values()];
}

/** The preview of `parsed` against the vehicle's records: counts, duplicates, every row error, a sample. */
export function previewPlan(
  parsed: Parsed,
  existing: ExistingKeys,
  readings: Reading[],
  ownerCurrency?: CurrencyCode,
): PreviewPlan {
  const { fuel: _f, expenses: _e, revisions: _r, insurance: _i, ...rest } = parsed;
  const { fresh, duplicates } = split(parsed, existing);
  // The fill-ups the odometer-order rule would refuse, as confirm will.
  const errors = [...parsed.errors, ...refuseOdometerConflicts(fresh, readings)];
  const sample = Object.fromEntries(KINDS.map((k) => [k, fresh[k].slice(0, IMPORT_SAMPLE_SIZE)])) as Record<
    Kind,
    Sourced<object>[]
  >;
  return {
    ...rest,
    errors,
    counts: countsOf(fresh),
    duplicates,
    sample,
    foreign: foreignDays(fresh, ownerCurrency),
  };
}
