import { OCR_LOW_CONFIDENCE, type OcrPreview, type OcrWarning } from '@evdra/domain';
import type { TFunction } from 'i18next';

/** The little of a form field this needs (RecordFormModal's FieldDef fits). */
interface FieldLike {
  name: string;
  type: string;
  options?: { value: string }[];
  optionsFor?: (values: Record<string, unknown>) => { value: string }[];
  shownWhen?: (values: Record<string, unknown>) => boolean;
}

export interface OcrMarks {
  /** The receipt's values over the form's defaults. */
  values: Record<string, unknown>;
  /** Field name → why it should be checked (shown under the field, in the user's language). */
  marks: Record<string, string>;
  /** Warnings about no field of the form (shown above it). */
  general: OcrWarning[];
}

/**
 * What the 'Confirm OCR Data' form shows for a preview: a field a warning names gets the warning's
 * own text (already in the user's saved language: "Litres × price per litre … does not match…"), a
 * field read with low confidence says how sure the reading was, a field not found says so.
 */
export function ocrMarks(
  preview: OcrPreview,
  fields: FieldLike[],
  defaults: Record<string, unknown>,
  t: TFunction,
): OcrMarks {
  const values: Record<string, unknown> = { ...defaults };
  const marks: Record<string, string> = {};
  const record = preview as unknown as Record<string, unknown>;
  const inForm = new Set(fields.map((f) => f.name));
  const why = new Map<string, string[]>();
  for (const w of preview.warnings)
    if (w.field && inForm.has(w.field)) why.set(w.field, [...(why.get(w.field) ?? []), w.message]);
  for (const f of fields) {
    if (!(f.name in preview.confidence)) continue;
    const v = record[f.name];
    const confidence = preview.confidence[f.name] ?? 0;
    // A select takes only what it offers: a receipt's fuel that is not one of the vehicle's
    // (issue 51) leaves the vehicle's primary fuel, marked for checking when the picker shows.
    const offered = f.optionsFor ? f.optionsFor(values) : f.options;
    const refused =
      f.type === 'select' && offered && v !== null && v !== undefined && !offered.some((o) => o.value === v);
    const shown = !f.shownWhen || f.shownWhen(values);
    if (v !== null && v !== undefined && !refused) values[f.name] = v;
    if (!shown) continue;
    const warned = why.get(f.name);
    // A currency the receipt does not print is the user's own, as for a record typed by hand.
    if (f.type === 'currency' && confidence === 0 && !warned) continue;
    if (refused) marks[f.name] = t('ocr.otherFuel', { fuel: t(`fuelTypes.${String(v)}`) });
    else if (warned) marks[f.name] = warned.join(' ');
    else if (v === null || v === undefined) {
      if (f.type !== 'checkbox') marks[f.name] = t('ocr.notFound');
    } else if (confidence < OCR_LOW_CONFIDENCE)
      marks[f.name] = t('ocr.lowConfidence', { percent: Math.round(confidence * 100) });
  }
  // The rate the receipt prints (a card slip abroad) goes with the currency it is for: the currency
  // field's own rate, kept by the form as the receipt's (RECEIPT) until the currency is changed.
  if (
    fields.some((f) => f.type === 'currency') &&
    typeof preview.exchangeRate === 'number' &&
    values.currency === preview.currency
  ) {
    values.exchangeRate = preview.exchangeRate;
    values.rateSource = preview.rateSource ?? 'RECEIPT';
  }
  const general = preview.warnings.filter((w) => !w.field || !inForm.has(w.field));
  return { values, marks, general };
}
