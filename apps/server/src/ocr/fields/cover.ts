/** The policy's cover (third party, comprehensive, RCA, todo riesgo…), as printed or a letter or two off. */

import { anyOf, every } from '../lexicon/index.js';
import { editsToFind } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';
import { normalize } from '../text/lines.js';

/** Every language's covers, the longer names first ("Third party, fire and theft" before "Third party"). */
const COVERAGE: [RegExp, string][] = every((l) => l.covers)
  .map(([re, name]): [RegExp, string] => [new RegExp(re), name])
  .sort((a, b) => b[1].length - a[1].length);

/**
 * The cover type, in COVERAGE's order (the longer names first): its name as printed, or as the OCR
 * read it with letters lost or changed ("tercersamplado", "Comprehemive", "Third party.tire and
 * theft"), for names of eight letters and more, one edit for each six letters.
 */
export function coverageType(norm: string): { name: string; exact: boolean } | null {
  const letters = norm.replace(/[^A-Z]/g, '');
  for (const [re, name] of COVERAGE) {
    if (re.test(norm)) return { name, exact: true };
    const word = normalize(name).replace(/[^A-Z]/g, '');
    if (word.length >= 8 && editsToFind(word, letters) <= Math.floor(word.length / 6))
      return { name, exact: false };
  }
  return null;
}
export const fuzzyCoverage = (norm: string) => coverageType(norm)?.name ?? null;

/** "Cover:", "Modalidad:", "Tip asigurare:" at the start of a line, as printed or a letter off. */
const COVER_LABEL = new RegExp(`^(?:${anyOf((l) => l.coverLabel)})\\s*[:.;]?\\s*`);
/** Lines that name a cover's limit, not the policy's cover ("Third party property damage limit"). */
const COVER_LIMIT = new RegExp(anyOf((l) => l.coverLimit));

/**
 * The policy's cover: on the line of its label, the value as printed or with a letter in four
 * misread ("Cover: Thrd paty"); else anywhere but on a limit's line, as coverageType finds it.
 */
export function coverOf(lines: Line[]): { name: string; exact: boolean } | null {
  for (const l of lines) {
    const m = COVER_LABEL.exec(l.norm);
    if (!m) continue;
    const value = l.norm.slice(m[0].length);
    const letters = value.replace(/[^A-Z]/g, '');
    // In COVERAGE's order, the longer names first: "Third party. fire and theft" is not "Third party".
    for (const [re, name] of COVERAGE) {
      if (re.test(value)) return { name, exact: true };
      const word = normalize(name).replace(/[^A-Z]/g, '');
      if (
        word.length >= 8 &&
        letters.length >= word.length / 2 &&
        editsToFind(word, letters) <= Math.floor(word.length / 4)
      )
        return { name, exact: false };
    }
  }
  return coverageType(
    lines
      .filter((l) => !COVER_LIMIT.test(l.norm))
      .map((l) => l.norm)
      .join('\n'),
  );
}
