/** The draft a receipt's reading produces: field values, a confidence each, and warnings. */
export type OcrKind = 'fuel' | 'expense' | 'revision' | 'insurance';
export type FieldValue = string | number | boolean | null;
export type WarningCode =
  | 'TOTAL_MISMATCH'
  | 'DATE_IN_FUTURE'
  | 'ODOMETER_BELOW_LAST'
  | 'END_BEFORE_START'
  | 'DERIVED'
  | 'NOTHING_FOUND'
  | 'VAT_MISMATCH'
  | 'INSTALMENTS_MISMATCH'
  | 'TERM_MISMATCH';
export type RawWarning = { field: string; code: WarningCode; params?: Record<string, string | number> };
export type Extraction = {
  fields: Record<string, FieldValue>;
  confidence: Record<string, number>;
  warnings: RawWarning[];
};

export const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

export class Result {
  fields: Record<string, FieldValue> = {};
  confidence: Record<string, number> = {};
  warnings: RawWarning[] = [];
  set(field: string, value: FieldValue | undefined, confidence: number) {
    this.fields[field] = value ?? null;
    this.confidence[field] =
      value === null || value === undefined ? 0 : round(Math.max(0, Math.min(1, confidence)), 2);
  }
  done(): Extraction {
    return { fields: this.fields, confidence: this.confidence, warnings: this.warnings };
  }
}
