/** A receipt's text lines → the draft of its kind: each kind's assembler, by name (kinds/). */
import type { Extraction, OcrKind } from './draft.js';
import { extractExpense } from './kinds/expense.js';
import { extractFuel } from './kinds/fuel.js';
import { extractInsurance } from './kinds/insurance.js';
import { extractRevision } from './kinds/revision.js';
import type { Line } from './text/lines.js';

export type { Extraction, FieldValue, OcrKind, RawWarning, WarningCode } from './draft.js';

/** What reads each kind of receipt: a new kind is a file in kinds/ and a line here. */
const KINDS: Record<OcrKind, (lines: Line[]) => Extraction> = {
  fuel: extractFuel,
  expense: extractExpense,
  revision: extractRevision,
  insurance: extractInsurance,
};

export function extract(kind: OcrKind, lines: Line[]): Extraction {
  return KINDS[kind](lines);
}
