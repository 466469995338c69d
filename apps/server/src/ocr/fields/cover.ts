/** The policy's cover (third party, comprehensive, RCA, todo riesgo…), as printed or a letter or two off. */

import { anyOf, every } from '../lexicon/index.js';
import { editDistance, editsToFind } from '../text/fuzzy.js';
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
const COVER_LETTERS = every((l) => l.coverLetters);
/** Lines that name a cover's limit, not the policy's cover ("Third party property damage limit"). */
const COVER_LIMIT = new RegExp(anyOf((l) => l.coverLimit));

/**
 * The value after a cover label at the start of `norm`: the label as the lexicon prints it, or a
 * first word one letter off a label ("Comer", "Cooer").
 */
function coverValue(norm: string): string | null {
  const m = COVER_LABEL.exec(norm);
  if (m) return norm.slice(m[0].length);
  const word = /^([A-Z0-9]+)\s*[:.;]?\s*/.exec(norm);
  const letters = word?.[1]?.replace(/0/g, 'O') ?? '';
  if (!word || !COVER_LETTERS.some((w) => editDistance(w, letters) <= 1)) return null;
  return norm.slice(word[0].length);
}

/**
 * The cover nearest to a label's value when every letter counts ("THIURD PWTY, FER ND TRH" is
 * "Third party, fire and theft"): covers are a closed set per market, so the one within half its
 * letters wins when every other is at least a quarter further off; else null.
 */
export function nearestCover(value: string): string | null {
  // Up to the next column (three spaces): "Cover: … Date of issue: …" is no cover's name.
  const letters = (value.split(/\s{3,}/)[0] ?? '').replace(/[^A-Z]/g, '');
  if (letters.length < 4) return null;
  const ranked = COVERAGE.map(([, name]) => {
    const word = normalize(name).replace(/[^A-Z]/g, '');
    return { name, off: editDistance(word, letters) / word.length };
  }).sort((a, b) => a.off - b.off);
  const [best, next] = ranked;
  return best && best.off <= 0.5 && (!next || next.off >= best.off + 0.25) ? best.name : null;
}

/**
 * The policy's cover: on the line of its label, the value as printed or with a letter in four
 * misread ("Cover: Thrd paty"); else anywhere but on a limit's line, as coverageType finds it; else
 * the cover nearest to a label's value.
 */
export function coverOf(lines: Line[]): { name: string; exact: boolean } | null {
  const values: string[] = [];
  for (const l of lines) {
    const value = coverValue(l.norm);
    if (value === null) continue;
    values.push(value);
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
  const anywhere = coverageType(
    lines
      .filter((l) => !COVER_LIMIT.test(l.norm))
      .map((l) => l.norm)
      .join('\n'),
  );
  if (anywhere) return anywhere;
  for (const v of values) {
    const name = nearestCover(v);
    if (name) return { name, exact: false };
  }
  return null;
}
