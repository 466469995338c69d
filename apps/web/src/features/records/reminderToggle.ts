import { InsuranceUpdateBody, RevisionUpdateBody } from '@evdra/domain';

/** A record with a reminder switch (insurance, revision), as listed. */
export type ReminderRecord = { id: number; reminderEnabled: boolean; version?: number } & Record<
  string,
  unknown
>;

const UPDATE_BODY: Partial<Record<string, typeof RevisionUpdateBody | typeof InsuranceUpdateBody>> = {
  insurance: InsuranceUpdateBody,
  revision: RevisionUpdateBody,
};

/**
 * The queued form of a reminder toggle: an edit of the whole record (PUT {base}/{id} takes every
 * field) with the switch flipped, based on the version shown. Null when the kind has no switch or
 * the row is not a valid record (then only the direct call is tried).
 */
export function reminderToggleEdit(
  kind: string,
  record: ReminderRecord,
): { targetId: number; payload: Record<string, unknown>; baseVersion: number | null } | null {
  const schema = UPDATE_BODY[kind];
  // Without vehicleId: the record stays where it is (and one on a vehicle created offline has none
  // the server knows yet).
  const parsed = schema?.safeParse({
    ...record,
    vehicleId: undefined,
    reminderEnabled: !record.reminderEnabled,
  });
  if (!parsed?.success) return null;
  // Only the fields that have a value (zod keeps `vehicleId: undefined`, which would blank the row).
  const payload = Object.fromEntries(
    Object.entries(parsed.data).filter(([k, v]) => v !== undefined && k !== 'version'),
  );
  return {
    targetId: record.id,
    payload,
    baseVersion: typeof record.version === 'number' ? record.version : null,
  };
}
