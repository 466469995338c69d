import { z } from 'zod';
import { FuelType, Language } from './enums.js';
import { Currency, RateSource } from './money-schemas.js';
import { ExpenseBody, ExpenseType, FuelBody, InsuranceBody, RevisionBody } from './records.js';

/** Receipt scanning (spec §4 "Receipt flow", §7 *-ocr calls). */
export const OCR_KINDS = ['fuel', 'expense', 'revision', 'insurance'] as const;
export type OcrKind = (typeof OCR_KINDS)[number];

/** Largest receipt accepted (413 beyond). */
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;

export const OCR_WARNING_CODES = [
  'TOTAL_MISMATCH',
  'DATE_IN_FUTURE',
  'ODOMETER_BELOW_LAST',
  'END_BEFORE_START',
  'DERIVED',
  'NOTHING_FOUND',
  'VAT_MISMATCH',
  'INSTALMENTS_MISMATCH',
  'TERM_MISMATCH',
] as const;
export const OcrWarning = z.object({
  field: z.string(),
  code: z.enum(OCR_WARNING_CODES),
  /** In the user's saved language. */
  message: z.string(),
});
export type OcrWarning = z.infer<typeof OcrWarning>;

const meta = {
  /**
   * The currency printed on the receipt ("250,00 LEI" → RON, "£32.40" → GBP), beside the amount paid
   * first; a receipt that prints none proposes the user's own, with confidence 0.
   */
  currency: Currency,
  /**
   * The exchange rate the receipt prints (a card slip abroad: "1 EUR = 4,9750 RON") when its currency
   * is not the user's: one unit of the receipt's currency in the user's, as a record's `exchangeRate`
   * (inverted when printed the other way), with `rateSource` RECEIPT. Absent otherwise: the form
   * proposes the day's reference rate.
   */
  exchangeRate: z.number().positive().optional(),
  /** RECEIPT whenever `exchangeRate` is there (the record keeps where its rate came from). */
  rateSource: RateSource.optional(),
  /** Per extracted field, 0–1. */
  confidence: z.record(z.string(), z.number().min(0).max(1)),
  warnings: z.array(OcrWarning),
  /** The language the receipt is written in. */
  language: Language,
  /** 'pdf-text' when a PDF's text layer was read directly. */
  source: z.enum(['ocr', 'pdf-text']),
};
const date = z.string().nullable();
const num = z.number().nullable();

/** A field not found on the receipt is null, never a guess. */
export const FuelOcrPreview = z.object({
  date,
  liters: num,
  fuelPrice: num,
  pricePerLiter: num,
  odometer: z.number().int().nullable(),
  fuelType: FuelType.nullable(),
  ...meta,
});
export type FuelOcrPreview = z.infer<typeof FuelOcrPreview>;
export const ExpenseOcrPreview = z.object({
  date,
  amount: num,
  expenseType: ExpenseType.nullable(),
  description: z.string().nullable(),
  ...meta,
});
export type ExpenseOcrPreview = z.infer<typeof ExpenseOcrPreview>;
export const RevisionOcrPreview = z.object({
  date,
  km: z.number().int().nullable(),
  price: num,
  description: z.string().nullable(),
  ...meta,
});
export type RevisionOcrPreview = z.infer<typeof RevisionOcrPreview>;
export const InsuranceOcrPreview = z.object({
  provider: z.string().nullable(),
  policyNumber: z.string().nullable(),
  coverageType: z.string().nullable(),
  startDate: date,
  endDate: date,
  price: num,
  reminderEnabled: z.boolean(),
  ...meta,
});
export type InsuranceOcrPreview = z.infer<typeof InsuranceOcrPreview>;

/**
 * POST /api/inspection-ocr/preview/{vehicleId} (issue 52): an ITP / ITV certificate's expiry, read
 * after its label; null when no labelled date is found. Saves nothing (the document form fills it).
 */
export const InspectionOcrPreview = z.object({
  expiresOn: date,
  confidence: z.record(z.string(), z.number().min(0).max(1)),
  language: Language,
  source: z.enum(['ocr', 'pdf-text']),
});
export type InspectionOcrPreview = z.infer<typeof InspectionOcrPreview>;

export type OcrPreview = FuelOcrPreview | ExpenseOcrPreview | RevisionOcrPreview | InsuranceOcrPreview;

/** Confirm bodies: exactly the normal create bodies (the record's fields plus vehicleId). */
export const OcrConfirmBodies = {
  fuel: FuelBody,
  expense: ExpenseBody,
  revision: RevisionBody,
  insurance: InsuranceBody,
} as const;
