import type { ImportFormat, ImportUnitsReason } from '@evdra/domain';
import { KM_AND_LITRES, type UnitsGuess } from './collect.js';
import { drivvoUnits } from './formats/drivvo.js';
import { fuelioUnits } from './formats/fuelio.js';
import { fuellyUnits } from './formats/fuelly.js';
import { genericUnits } from './formats/generic.js';
import { lubeLoggerUnits } from './formats/lubelogger.js';
import type { CsvFile } from './read.js';

/** The stronger reason wins when the files of one upload disagree (a LubeLogger ZIP: gas.csv shows `$`, tax.csv does not). */
const STRENGTH: Record<ImportUnitsReason, number> = { fixed: 4, file: 3, format: 2, currency: 1, default: 0 };

/**
 * The units an upload's distances and volumes are in, with why, from all its files before any row
 * is read (so every file of a ZIP is converted alike). The user's choice in the preview overrides it.
 */
export function guessUnits(files: CsvFile[], formats: ImportFormat[]): UnitsGuess {
  let best = KM_AND_LITRES;
  // A generic file beside known ones (a ZIP's README) is not read, so it says nothing of units.
  const known = formats.some((f) => f !== 'generic');
  files.forEach((file, i) => {
    const format = formats[i] ?? 'generic';
    if (known && format === 'generic') return;
    const guess = unitsOf(file, format);
    if (STRENGTH[guess.reason] > STRENGTH[best.reason]) best = guess;
  });
  return best;
}

function unitsOf(file: CsvFile, format: ImportFormat): UnitsGuess {
  switch (format) {
    case 'evdra':
      return { ...KM_AND_LITRES, reason: 'fixed' };
    case 'fuelio':
      return fuelioUnits(file);
    case 'drivvo':
      return drivvoUnits(file);
    case 'fuelly':
      return fuellyUnits(file);
    case 'lubelogger':
      return lubeLoggerUnits(file);
    default:
      return genericUnits(file);
  }
}
