// Without zod: values a page's first screen needs (a select's options, a threshold) without the
// schemas. The web build keeps this file out of the schemas' chunk (apps/web/vite.config.ts).

export const FUEL_TYPES = ['PETROL', 'DIESEL', 'GPL', 'ELECTRIC'] as const;

/** Fuel is not an expense type: fuel has its own records. */
export const EXPENSE_TYPES = [
  'Maintenance',
  'Repair',
  'Tyres',
  'Parking',
  'Tolls',
  'Tax',
  'Wash',
  'Accessories',
  'Other',
] as const;

/** A field whose confidence is below this is marked for checking in the confirm form. */
export const OCR_LOW_CONFIDENCE = 0.75;
