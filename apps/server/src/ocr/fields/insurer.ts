/** The insurer: a known name in the text, else one read with a letter in four misread, else the letterhead. */

import { anyOf, every } from '../lexicon/index.js';
import { editsToFind } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';
import { normalize } from '../text/lines.js';

/** Insurers of every language's market, with their usual names, in the lexicons' order. */
const INSURERS: [RegExp, string][] = every((l) => l.insurers).map(([re, name]) => [new RegExp(re), name]);
/** A policy's heading words, which are no insurer's name. */
const HEADING = new RegExp(anyOf((l) => l.insuranceHeading));
/**
 * An insurer's name in the letterhead (the first three lines) with a letter in four misread
 * ("MUTUA MADRILEINA", "GROUPANAIGRARISA", "ALLAN TRIACAIGURARI"), names of six letters and more.
 */
export function fuzzyInsurer(lines: Line[]): string | null {
  let best: { name: string; ratio: number } | null = null;
  for (const l of lines.slice(0, 3)) {
    const letters = l.norm.replace(/[^A-Z]/g, '');
    for (const [, name] of INSURERS) {
      const word = normalize(
        name.split(/ (?:Asigurări|VIG|România|Seguros|Versicherung|Direct)$/)[0] ?? name,
      ).replace(/[^A-Z]/g, '');
      if (word.length < 6) continue;
      const edits = editsToFind(word, letters);
      if (edits <= Math.floor(word.length / 4) && (!best || edits / word.length < best.ratio))
        best = { name, ratio: edits / word.length };
    }
  }
  return best?.name ?? null;
}

/** The provider as printed (or nearly), else the first line of the letterhead. */
export function provider(lines: Line[]): { value: string | null; conf: number } {
  // The name printed first (the letterhead's), not the first in the lexicons' order: another
  // insurer's prefix inside a policy number ("AXA/MC/23/1586013" on an Aviva schedule) comes later.
  // On one line, the lexicons' order (a market's "Allianz …" before the group's name alone).
  const all = lines.map((l) => l.norm).join('\n');
  const insurer = INSURERS.filter(([re]) => re.test(all))
    .map(([re, name]) => ({ name, at: lines.findIndex((l) => re.test(l.norm)) }))
    .map(({ name, at }) => ({ name, at: at < 0 ? lines.length : at }))
    .sort((a, b) => a.at - b.at)[0];
  const nearInsurer = insurer ? null : fuzzyInsurer(lines);
  if (insurer) return { value: insurer.name, conf: 0.95 };
  if (nearInsurer) return { value: nearInsurer, conf: 0.6 };
  const head = lines.find((l) => /[A-Z]{3}/.test(l.norm) && !HEADING.test(l.norm));
  return {
    value: head ? head.text.replace(/\s+(S\.?A\.?|SRL|LTD|PLC)\.?$/i, '') : null,
    conf: (head?.confidence ?? 0) * 0.5,
  };
}
