import { ExpenseBody, FuelBody, InsuranceBody, RevisionBody } from '@evdra/domain';

/**
 * Each record page's form schema, by name. Only the add/edit dialog imports this (lazily): the
 * list pages name their schema and never load zod for their first screen.
 */
export const RECORD_SCHEMAS = {
  /** Spec §5: an empty price per litre or odometer is sent as null. */
  fuel: FuelBody.transform((b) => ({
    ...b,
    pricePerLiter: b.pricePerLiter ?? null,
    odometer: b.odometer ?? null,
    // A two-fuel vehicle's trip distance (issue 51): emptied on an edit is sent as null (not known);
    // a single-fuel vehicle's form has no such field and sends none.
    ...('distanceOnThisFuel' in b ? { distanceOnThisFuel: b.distanceOnThisFuel ?? null } : {}),
  })),
  expenses: ExpenseBody,
  insurance: InsuranceBody,
  revision: RevisionBody,
};

export type RecordSchemaName = keyof typeof RECORD_SCHEMAS;
