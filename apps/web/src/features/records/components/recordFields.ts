import type { Vehicle } from '@evdra/domain';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';

export type Measure = 'distance' | 'volume' | 'pricePerVolume' | 'money';

/** A record form's schema: the domain's create body (its output is what is sent). */
export type RecordSchema = z.ZodType<FieldValues, FieldValues>;

export interface FieldDef {
  name: string;
  label: string;
  /** A label that follows what is typed (a charge's kWh instead of litres). */
  labelFor?: (values: Record<string, unknown>) => string;
  /** `currency`: the record's currency, and its exchange rate when it is not the reader's. */
  type: 'text' | 'date' | 'number' | 'select' | 'checkbox' | 'textarea' | 'currency';
  /**
   * What a number measures: typed in the reader's units (or the record's currency) and stored metric
   * (measures.ts); the label then names the unit: `Odometer (mi)`, `Total paid (lei)`.
   */
  measure?: Measure;
  options?: { value: string; label: string }[];
  /**
   * A select's options that follow what is typed (a fill's fuels follow its vehicle's; issue 51). A
   * value not among them is replaced by the first.
   */
  optionsFor?: (values: Record<string, unknown>) => { value: string; label: string }[];
  /** Shown only when this holds (a fill's fuel picker only for a vehicle with two fuels). */
  shownWhen?: (values: Record<string, unknown>) => boolean;
  step?: string;
  hint?: string;
  /** Lay this field out next to the following one (two columns from 480 px). */
  pairWithNext?: boolean;
  /** Marked for checking (a receipt field read with low confidence). */
  marked?: boolean;
}

/** The leading `Vehicle` select of an add dialog in all-vehicles mode (`show`): the user's own vehicles. */
export function vehicleChoice(show: boolean, label: string, vehicles: Vehicle[]): FieldDef[] {
  if (!show) return [];
  return [
    {
      name: 'vehicleId',
      label,
      type: 'select',
      options: vehicles.map((v) => ({ value: String(v.id), label: `${v.make} ${v.model}` })),
    },
  ];
}

/**
 * A record's currency and rate as a form starts from them (the dialog fills a new record's currency
 * with the reader's, and proposes a rate when it is another).
 */
export function recordMoney(r: object | null): Record<string, unknown> {
  if (!r) return {};
  const m = r as {
    currency?: string;
    exchangeRate?: number | null;
    rateDate?: string | null;
    rateSource?: string;
  };
  return {
    currency: m.currency,
    exchangeRate: m.exchangeRate ?? undefined,
    rateDate: m.rateDate ?? undefined,
    rateSource: m.rateSource,
  };
}
