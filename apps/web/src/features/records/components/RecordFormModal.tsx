import { type ReactNode, useState } from 'react';
import type { DefaultValues, FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { useZodForm, type ZodForm } from '../../../lib/forms';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { RECORD_SCHEMAS, type RecordSchemaName } from '../recordSchemas';
import type { FieldDef, RecordSchema } from './recordFields';

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

/** The dialog with its schema named (RecordEditor loads this module lazily). */
export default function RecordFormDialog({
  schema,
  ...props
}: Omit<RecordFormModalProps<RecordSchema>, 'schema' | 'initial'> & {
  schema: RecordSchemaName;
  initial: object;
}) {
  return <RecordFormModal schema={RECORD_SCHEMAS[schema] as RecordSchema} {...props} />;
}
