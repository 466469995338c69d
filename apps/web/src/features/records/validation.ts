import type { TFunction } from 'i18next';
import { parseNumber } from '../../lib/format';

type V = string | boolean | undefined;
const str = (v: V) => (typeof v === 'string' ? v : '');

/** Translated client-side checks mirroring the domain schemas (the server checks again). */
export function makeChecks(t: TFunction) {
  const required = (v: V) => (str(v).trim() ? undefined : t('records.validation.required'));
  return {
    required,
    date: (v: V) =>
      !str(v)
        ? t('records.validation.required')
        : /^\d{4}-\d{2}-\d{2}$/.test(str(v))
          ? undefined
          : t('records.validation.date'),
    /** Amount ≥ 0, required. */
    money: (v: V) => {
      const n = parseNumber(str(v));
      if (n === null) return t('records.validation.required');
      return Number.isNaN(n) || n < 0 ? t('records.validation.nonNegative') : undefined;
    },
    /** > 0, required. */
    positive: (v: V) => {
      const n = parseNumber(str(v));
      if (n === null) return t('records.validation.required');
      return Number.isNaN(n) || n <= 0 ? t('records.validation.positive') : undefined;
    },
    /** Whole number ≥ 0; optional unless `needed`. */
    wholeKm: (v: V, needed = false) => {
      const n = parseNumber(str(v));
      if (n === null) return needed ? t('records.validation.required') : undefined;
      return Number.isInteger(n) && n >= 0 ? undefined : t('records.validation.wholeKm');
    },
    /** Optional number ≥ 0. */
    optionalNonNegative: (v: V) => {
      const n = parseNumber(str(v));
      if (n === null) return undefined;
      return Number.isNaN(n) || n < 0 ? t('records.validation.nonNegative') : undefined;
    },
    maxLength: (v: V, max: number) =>
      str(v).trim().length > max ? t('records.validation.tooLong', { max }) : undefined,
  };
}

/** Number from a form value ('' → null). */
export const num = (v: V): number | null => parseNumber(str(v));
