import { lazy, Suspense } from 'react';
import type { DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { RECORD_SCHEMAS, RecordSchemaName } from '../recordSchemas';
import type { RecordActions } from '../useRecordActions';
import { ocrMarks } from './ocrMarks';
import type { FieldDef } from './recordFields';

type RecordSchemas = typeof RECORD_SCHEMAS;

/**
 * The dialog and its schemas (zod, react-hook-form) load when a dialog first opens, or as a finger
 * lands on Add (RecordsLayout): a list page's first screen has no form.
 */
export const loadRecordFormModal = () => import('./RecordFormModal');
const RecordFormModal = lazy(loadRecordFormModal);

/** What a record page's add/edit dialog shows and sends. */
export interface RecordForm<T, K extends RecordSchemaName = RecordSchemaName> {
  addTitle: string;
  editTitle: string;
  fields: FieldDef[];
  /** The request body's schema, by name (recordSchemas.ts): validates the form and shapes what is sent. */
  schema: K;
  /** The form's starting values: `record` when editing, `null` when adding. */
  initial: (record: T | null) => DefaultValues<z.input<RecordSchemas[K]>>;
}

/** The add/edit dialog of a record page, open while `actions.editing` is set. */
export function RecordEditor<T extends { id: number }, K extends RecordSchemaName>({
  actions,
  form,
  failureText,
}: {
  actions: RecordActions<T>;
  form: RecordForm<T, K>;
  failureText: (err: unknown) => string;
}) {
  const { t } = useTranslation();
  const { editing } = actions;
  if (!editing) return null;
  if (editing.mode === 'ocr') {
    // 'Confirm OCR Data': the receipt's fields over the add form's defaults; each field to check
    // says why under it (the warning naming it, a low-confidence reading, not found).
    const { preview, vehicleId } = editing;
    const { values, marks, general } = ocrMarks(
      preview,
      form.fields,
      { ...form.initial(null), vehicleId },
      t,
    );
    const checks = Object.keys(marks).length;
    const notice =
      general.length || checks ? (
        <div className="alert alert--warning ocr-warnings" role="status">
          <strong>{t('ocr.warningsTitle')}</strong>
          <ul>
            {general.map((w) => (
              <li key={`${w.code}-${w.field}`}>{w.message}</li>
            ))}
            {checks ? <li>{t('ocr.fieldsMarked', { count: checks })}</li> : null}
          </ul>
        </div>
      ) : null;
    return (
      <Suspense fallback={null}>
        <RecordFormModal
          title={t('ocr.confirmTitle')}
          fields={form.fields}
          schema={form.schema}
          initial={values}
          onSubmit={(body, idempotencyKey) => actions.save(body, idempotencyKey)}
          failureText={failureText}
          onClose={actions.close}
          marks={marks}
          notice={notice}
          showConverted
        />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={null}>
      <RecordFormModal
        title={editing.mode === 'add' ? form.addTitle : form.editTitle}
        fields={form.fields}
        schema={form.schema}
        initial={form.initial(editing.mode === 'edit' ? editing.record : null)}
        onSubmit={(body, idempotencyKey) => actions.save(body, idempotencyKey)}
        failureText={failureText}
        onClose={actions.close}
      />
    </Suspense>
  );
}
