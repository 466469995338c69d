import type { OcrPreview } from '@evdra/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api';
import { vehicleKeys } from '../../lib/vehicle-list';
import { type RecordKind, recordKeys, useRecordMutations } from './api';
import { OCR_KIND } from './receipt/upload';
import type { ReminderRecord } from './reminderToggle';

/**
 * The record in the dialog, if any: a new one, one being edited, or a receipt's preview waiting to
 * be confirmed (spec §4 'Confirm OCR Data': nothing is saved before confirm).
 */
export type Editing<T> =
  | { mode: 'add' }
  | { mode: 'edit'; record: T }
  | { mode: 'ocr'; preview: OcrPreview; vehicleId: number }
  | null;

/**
 * The add/edit dialog state and the card actions of a record page. Delete asks `confirmDelete`
 * first; a failed delete or toggle shows as `actionError` (translated by `failure`).
 */
export function useRecordActions<T extends { id: number }>(
  kind: RecordKind,
  { confirmDelete, failure }: { confirmDelete: string; failure: (err: unknown) => string },
) {
  const { create, update, remove, put, toggleReminder } = useRecordMutations<T>(kind);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await action();
    } catch (err) {
      setActionError(failure(err));
    }
  };

  return {
    kind,
    editing,
    /** The dialog makes a new record (by hand or from a receipt): the vehicle can be chosen. */
    adding: editing?.mode === 'add' || editing?.mode === 'ocr',
    actionError,
    startAdd: () => setEditing({ mode: 'add' }),
    startEdit: (record: T) => setEditing({ mode: 'edit', record }),
    /** Opens the dialog in 'Confirm OCR Data' mode with the receipt's fields filled in. */
    startConfirm: (preview: OcrPreview, vehicleId: number) => setEditing({ mode: 'ocr', preview, vehicleId }),
    close: () => setEditing(null),
    /** Creates (with the submission's idempotency key) or updates the edited record; throws on failure. */
    save: async (body: unknown, idempotencyKey: (body: unknown) => string) => {
      if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.record.id, body });
      else if (editing?.mode === 'ocr') {
        // POST /api/{kind}-ocr/confirm: the same checks and side effects as a normal create.
        await api(`/api/${OCR_KIND[kind]}-ocr/confirm`, {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': idempotencyKey(body) },
        });
        await queryClient.invalidateQueries({ queryKey: recordKeys.kind(kind) });
        if (kind === 'fuel') await queryClient.invalidateQueries({ queryKey: vehicleKeys.all });
      } else await create.mutateAsync({ body, idempotencyKey: idempotencyKey(body) });
      setEditing(null);
    },
    remove: async (record: T) => {
      if (!window.confirm(confirmDelete)) return;
      await run(() => remove.mutateAsync(record.id));
    },
    /** Flips a reminder; offline it is queued and shown at once like any edit. */
    toggleReminder: (record: T & { reminderEnabled: boolean }) =>
      run(() => toggleReminder.mutateAsync(record as unknown as ReminderRecord)),
    /** The kind's extra PUTs (e.g. a revision's manual reminder date). */
    put,
  };
}

export type RecordActions<T extends { id: number }> = ReturnType<typeof useRecordActions<T>>;
