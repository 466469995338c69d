import type { CurrencyCode, FuelType, ImportMapping } from '@evdra/domain';
import { unguardFormula } from '../../lib/csv-formula.js';
import { Collector, type Parsed } from './collect.js';
import { isDrivvo, parseDrivvo } from './formats/drivvo.js';
import { isEvdra, parseEvdra } from './formats/evdra.js';
import { isFuelio, parseFuelio } from './formats/fuelio.js';
import { isFuelly, parseFuelly } from './formats/fuelly.js';
import { parseGeneric } from './formats/generic.js';
import { lubeKind, parseLubeLogger } from './formats/lubelogger.js';
import { type CsvFile, noRows, readUpload } from './read.js';
import { guessUnits } from './units.js';

export type { Parsed };

/** Which app wrote a CSV, from its content (sections, header names), never its file name. */
export function detectFormat(file: CsvFile): Parsed['format'] {
  const headers = file.rows[0]?.cells ?? [];
  if (isEvdra(headers)) return 'evdra';
  if (isFuelio(file)) return 'fuelio';
  if (isDrivvo(file)) return 'drivvo';
  if (lubeKind(headers)) return 'lubelogger';
  if (isFuelly(headers)) return 'fuelly';
  return 'generic';
}

/**
 * Reads an upload (CSV, or a ZIP of CSVs) into the records this app would store, for a vehicle
 * using `fuelType`. Pure: no database. Throws 415 for a file that is not CSV and 422 when no row
 * could be read (a generic CSV still answers, with its proposed mapping, so the user can fix it).
 * Amounts whose currency the file does not name are in `mapping.currency`, else the file's one
 * currency, else `userCurrency`.
 */
export function parseImport(
  bytes: Buffer,
  fuelType: FuelType,
  mapping?: ImportMapping,
  userCurrency: CurrencyCode = 'EUR',
  /** The vehicle's second fuel (issue 51): a two-tank file's second tank and its fuel's fills land there. */
  secondaryFuelType: FuelType | null = null,
): Parsed {
  const files = readUpload(bytes).filter((f) => f.rows.length > 0);
  if (files.length === 0) throw noRows();
  const formats = files.map(detectFormat);
  const known = formats.find((f) => f !== 'generic');
  const format = known ?? 'generic';
  // Units are settled for the whole upload before any row is read: the user's choice, else the guess.
  const c = new Collector(format, fuelType, guessUnits(files, formats), mapping?.units, {
    chosen: mapping?.currency,
    fallback: userCurrency,
  });
  c.secondaryFuelType = secondaryFuelType;
  files.forEach((file, i) => {
    const f = formats[i];
    if (f === 'evdra') parseEvdra(unguarded(file), c);
    else if (f === 'fuelio') parseFuelio(file, c);
    else if (f === 'drivvo') parseDrivvo(file, c);
    else if (f === 'fuelly') parseFuelly(file, c);
    else if (f === 'lubelogger') parseLubeLogger(file, c, lubeKind(file.rows[0]?.cells ?? []) ?? 'gas');
    // A generic file beside known ones (a ZIP's README, a LubeLogger supplies list) is left out.
    else if (!known) parseGeneric(file, c, mapping);
  });
  const parsed = c.result();
  const records =
    parsed.fuel.length + parsed.expenses.length + parsed.revisions.length + parsed.insurance.length;
  const dataRows = files.reduce((n, f) => n + Math.max(0, f.rows.length - 1), 0);
  if (records === 0 && (format !== 'generic' || dataRows === 0 || (files[0]?.rows[0]?.cells.length ?? 0) < 2))
    throw noRows();
  return parsed;
}

/** This app's own export with its formula guard taken off (export-csv.ts): the text as typed. */
const unguarded = (file: CsvFile): CsvFile => ({
  name: file.name,
  rows: file.rows.map((r) => ({ line: r.line, cells: r.cells.map(unguardFormula) })),
});
