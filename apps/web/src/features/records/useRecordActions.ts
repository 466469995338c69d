import { useState } from 'react';
import { type RecordKind, useRecordMutations } from './api';

/** The record being edited in the add/edit dialog, if any. */
export type Editing<T> = { mode: 'add' } | { mode: 'edit'; record: T } | null;

/**
 * The add/edit dialog state and the card actions of a record page. Delete asks `confirmDelete`
 * first; a failed delete or toggle shows as `actionError` (translated by `failure`).
 */
export function useRecordActions<T extends { id: number }>(
  kind: RecordKind,
  { confirmDelete, failure }: { confirmDelete: string; failure: (err: unknown) => string },
) {
  const { create, update, remove, put } = useRecordMutations<T>(kind);
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
    editing,
    adding: editing?.mode === 'add',
    actionError,
    startAdd: () => setEditing({ mode: 'add' }),
    startEdit: (record: T) => setEditing({ mode: 'edit', record }),
    close: () => setEditing(null),
    /** Creates (with the submission's idempotency key) or updates the edited record; throws on failure. */
    save: async (body: unknown, idempotencyKey: (body: unknown) => string) => {
      if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.record.id, body });
      else await create.mutateAsync({ body, idempotencyKey: idempotencyKey(body) });
      setEditing(null);
    },
    remove: async (record: T) => {
      if (!window.confirm(confirmDelete)) return;
      await run(() => remove.mutateAsync(record.id));
    },
    toggleReminder: (record: T) => run(() => put.mutateAsync({ path: `${record.id}/toggle-reminder` })),
    /** The kind's extra PUTs (e.g. a revision's manual reminder date). */
    put,
  };
}

export type RecordActions<T extends { id: number }> = ReturnType<typeof useRecordActions<T>>;
