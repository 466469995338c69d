import type { Vehicle } from '@evdra/domain';
import { type ReactNode, useState } from 'react';
import type { DefaultValues, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { useZodForm, type ZodForm } from '../../../lib/forms';
import { useIdempotencyKey } from '../../../lib/idempotency';
import type { RecordActions } from '../useRecordActions';
import { ocrMarks } from './ocrMarks';

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

interface RecordFormModalProps<S extends RecordSchema> {
  title: string;
  fields: FieldDef[];
  schema: S;
  initial: DefaultValues<z.input<S>>;
  /** Saves; throws (ApiError) on failure. `idempotencyKey(body)` gives the key for a create's body. */
  onSubmit: (body: z.output<S>, idempotencyKey: (body: unknown) => string) => Promise<void>;
  /** The text shown for a failure that is not about a field. */
  failureText: (err: unknown) => string;
  onClose: () => void;
  /** Fields to check (from a receipt): name → why, shown under the field. */
  marks?: Record<string, string>;
  /** Shown above the form (a receipt's warnings). */
  notice?: ReactNode;
}

function Control<S extends RecordSchema>({
  def,
  form,
  autoFocus,
  hintNode,
}: {
  def: FieldDef;
  form: ZodForm<S>;
  autoFocus: boolean;
  /** Shown instead of the plain `def.hint` (a field to check). */
  hintNode?: ReactNode;
}) {
  const hint = hintNode ?? def.hint;
  const name = def.name as FieldPath<z.input<S>>;
  const focus = autoFocus ? { 'data-autofocus': true } : {};
  if (def.marked)
    // Highlighted, and said in words under the field (aria-describedby points at it): not colour alone.
    return (
      <div className="field--check" data-ocr-check={def.name}>
        <Control
          def={{ ...def, marked: false }}
          hintNode={
            <>
              <span className="field__check-icon" aria-hidden="true">
                ⚠
              </span>{' '}
              {def.hint}
            </>
          }
          form={form}
          autoFocus={autoFocus}
        />
      </div>
    );
  if (def.labelFor)
    return (
      <Control
        def={{ ...def, label: def.labelFor(form.watch() as Record<string, unknown>), labelFor: undefined }}
        hintNode={hintNode}
        form={form}
        autoFocus={autoFocus}
      />
    );
  if (def.type === 'checkbox') return <CheckboxField label={def.label} {...form.field(name)} />;
  if (def.type === 'select')
    return (
      <SelectField
        label={def.label}
        hint={hint}
        {...form.field(name, name === 'vehicleId' ? 'number' : undefined)}
        {...focus}
      >
        {def.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
    );
  if (def.type === 'textarea')
    return <TextAreaField label={def.label} hint={hint} {...form.field(name)} {...focus} />;
  return (
    <TextField
      label={def.label}
      type={def.type}
      step={def.step}
      inputMode={def.type === 'number' ? 'decimal' : undefined}
      hint={hint}
      {...form.field(name, def.type === 'number' ? 'number' : undefined)}
      {...focus}
    />
  );
}

/**
 * Add/edit dialog for a record (insurance, expense, fuel entry, revision), validated by the domain
 * schema. Field errors (the schema's and the server's 400 details) show next to their fields;
 * nothing typed is lost on failure.
 */
export function RecordFormModal<S extends RecordSchema>({
  title,
  fields,
  schema,
  initial,
  onSubmit,
  failureText,
  onClose,
  marks = {},
  notice,
}: RecordFormModalProps<S>) {
  const idempotencyKey = useIdempotencyKey();
  const form = useZodForm(schema, { defaultValues: initial });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (body: z.output<S>) => {
    setFailure(null);
    try {
      await onSubmit(body, idempotencyKey);
    } catch (err) {
      if (!form.showServerErrors(err)) setFailure(failureText(err));
    }
  };

  const rendered: React.ReactNode[] = [];
  for (let i = 0; i < fields.length; i++) {
    const def = fields[i] as FieldDef;
    const control = (d: FieldDef, idx: number) => (
      <Control
        key={d.name}
        def={marks[d.name] ? { ...d, hint: marks[d.name], marked: true } : d}
        form={form}
        autoFocus={idx === 0}
      />
    );
    const next = fields[i + 1];
    if (def.pairWithNext && next) {
      rendered.push(
        <div className="form__row" key={`${def.name}-row`}>
          {control(def, i)}
          {control(next, i + 1)}
        </div>,
      );
      i++;
    } else rendered.push(control(def, i));
  }

  return (
    <Modal title={title} onClose={onClose}>
      {notice}
      <form className="form" onSubmit={form.handleSubmit(submit)} noValidate>
        {rendered}
        <FormActions failure={failure} busy={form.formState.isSubmitting} onCancel={onClose} />
      </form>
    </Modal>
  );
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

/** What a record page's add/edit dialog shows and sends. */
export interface RecordForm<T, S extends RecordSchema = RecordSchema> {
  addTitle: string;
  editTitle: string;
  fields: FieldDef[];
  /** The request body's schema (e.g. InsuranceBody): validates the form and shapes what is sent. */
  schema: S;
  /** The form's starting values: `record` when editing, `null` when adding. */
  initial: (record: T | null) => DefaultValues<z.input<S>>;
}

/** The add/edit dialog of a record page, open while `actions.editing` is set. */
export function RecordEditor<T extends { id: number }, S extends RecordSchema>({
  actions,
  form,
  failureText,
}: {
  actions: RecordActions<T>;
  form: RecordForm<T, S>;
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
      <RecordFormModal
        title={t('ocr.confirmTitle')}
        fields={form.fields}
        schema={form.schema}
        initial={values as DefaultValues<z.input<S>>}
        onSubmit={(body, idempotencyKey) => actions.save(body, idempotencyKey)}
        failureText={failureText}
        onClose={actions.close}
        marks={marks}
        notice={notice}
      />
    );
  }
  return (
    <RecordFormModal
      title={editing.mode === 'add' ? form.addTitle : form.editTitle}
      fields={form.fields}
      schema={form.schema}
      initial={form.initial(editing.mode === 'edit' ? editing.record : null)}
      onSubmit={(body, idempotencyKey) => actions.save(body, idempotencyKey)}
      failureText={failureText}
      onClose={actions.close}
    />
  );
}
