/** The development set's shape, shared by generate.ts (writes it) and eval.ts (scores it). */
import type { Kind, Label, Lang } from './receipts.js';

export const KINDS: Kind[] = ['fuel', 'expense', 'revision', 'insurance'];
export const LANGS: Lang[] = ['en', 'ro', 'es'];

/** One receipt of out/labels.json; `index` is its number within its kind × language. */
export type Entry = { file: string; kind: Kind; lang: Lang; index: number; style: string; label: Label };

/** Held out of tuning (a third of the set): never look at these while working on the extractors. */
export const heldOut = (e: { index: number }) => e.index % 3 === 2;
