/** What a generated receipt is: its lines as printed and the true values (the label). */
import type { Lang } from './format.js';

export type Kind = 'fuel' | 'expense' | 'revision' | 'insurance';
export type Label = Record<string, string | number | boolean | null>;
export type Receipt = { kind: Kind; lang: Lang; format: 'slip' | 'a4'; lines: Line[]; label: Label };
export type Line = {
  text: string;
  align?: 'left' | 'center' | 'right';
  bold?: boolean;
  /** Font size relative to the body text. */
  scale?: number;
  /** A value printed at the right edge, on the same line as `text`. */
  pair?: string;
  /** A table row: cells starting at `at` (fractions of the text width); cells after the first are right-aligned unless `leftAll`. */
  cols?: string[];
  at?: number[];
  leftAll?: boolean;
  /** A4 section heading: bold on a grey band. */
  heading?: boolean;
  /** A dashed separator. */
  rule?: boolean;
};
