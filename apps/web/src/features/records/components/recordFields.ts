import type { Vehicle } from '@evdra/domain';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/** A record form's schema: the domain's create body (its output is what is sent). */
export type RecordSchema = z.ZodType<FieldValues, FieldValues>;

export interface FieldDef {
  name: string;
  label: string;
  /** A label that follows what is typed (a charge's kWh instead of litres). */
  labelFor?: (values: Record<string, unknown>) => string;
  type: 'text' | 'date' | 'number' | 'select' | 'checkbox' | 'textarea';
  options?: { value: string; label: string }[];
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
