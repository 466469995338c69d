import { OCR_LOW_CONFIDENCE, type Vehicle } from '@evdra/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField, describedBy, FieldShell, SelectField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { ApiError } from '../../../lib/api';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { type FieldErrors, hasErrors } from '../../../lib/validation';
import type { RecordActions } from '../useRecordActions';

export type FormValues = Record<string, string | boolean>;

export interface FieldDef {
  name: string;
  label: string;
  type: 'text' | 'date' | 'number' | 'select' | 'checkbox' | 'textarea';
  options?: { value: string; label: string }[];
  step?: string;
  hint?: string;
  /** Lay this field out next to the following one (two columns from 480 px). */
  pairWithNext?: boolean;
  /** Marked for checking (a receipt field read with low confidence). */
  marked?: boolean;
}

interface RecordFormModalProps {
  title: string;
  fields: FieldDef[];
  initial: FormValues;
  validate: (values: FormValues) => FieldErrors;
  /** Saves; throws (ApiError) on failure. `idempotencyKey(body)` gives the key for a create's body. */
  onSubmit: (values: FormValues, idempotencyKey: (body: unknown) => string) => Promise<void>;
  /** The text shown for a failure that is not about a field. */
  failureText: (err: unknown) => string;
  onClose: () => void;
  /** Fields to check (read from a receipt with low confidence): name → hint shown by the field. */
  marks?: Record<string, string>;
  /** Shown above the form (a receipt's warnings). */
  notice?: React.ReactNode;
}

function Control({
  def,
  value,
  error,
  onChange,
  autoFocus,
}: {
  def: FieldDef;
  value: string | boolean;
  error?: string;
  onChange: (v: string | boolean) => void;
  autoFocus: boolean;
}) {
  const id = useId();
  const focus = autoFocus ? { 'data-autofocus': true } : {};
  if (def.marked)
    return (
      <div className="field--check" data-ocr-check={def.name}>
        <Control
          def={{ ...def, marked: false }}
          value={value}
          error={error}
          onChange={onChange}
          autoFocus={autoFocus}
        />
      </div>
    );
  if (def.type === 'checkbox')
    return (
      <CheckboxField
        label={def.label}
        name={def.name}
        checked={value === true}
        onCheckedChange={onChange}
        error={error}
      />
    );
  if (def.type === 'select')
    return (
      <SelectField
        id={id}
        label={def.label}
        name={def.name}
        value={String(value)}
        onValueChange={onChange}
        error={error}
        hint={def.hint}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, def.hint)}
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
    return (
      <FieldShell id={id} label={def.label} error={error} hint={def.hint}>
        <textarea
          id={id}
          name={def.name}
          className="input"
          rows={3}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, def.hint)}
          {...focus}
        />
      </FieldShell>
    );
  return (
    <TextField
      label={def.label}
      name={def.name}
      type={def.type}
      step={def.step}
      inputMode={def.type === 'number' ? 'decimal' : undefined}
      value={String(value)}
      onValueChange={onChange}
      error={error}
      hint={def.hint}
      {...focus}
    />
  );
}

/**
 * Add/edit dialog for a record (insurance, expense, fuel entry, revision). Field errors (client
 * checks and the server's 400 details) show next to their fields; nothing typed is lost on failure.
 */
export function RecordFormModal({
  title,
  fields,
  initial,
  validate,
  onSubmit,
  failureText,
  onClose,
  marks = {},
  notice,
}: RecordFormModalProps) {
  const idempotencyKey = useIdempotencyKey();
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const names = new Set(fields.map((f) => f.name));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const next = validate(values);
    setErrors(next);
    if (hasErrors(next)) return;
    setBusy(true);
    try {
      await onSubmit(values, idempotencyKey);
    } catch (err) {
      const fieldErrors: FieldErrors = {};
      if (err instanceof ApiError) {
        for (const d of err.details) if (names.has(d.field) && d.message) fieldErrors[d.field] = d.message;
      }
      setErrors(fieldErrors);
      if (!hasErrors(fieldErrors)) setFailure(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  const rendered: React.ReactNode[] = [];
  for (let i = 0; i < fields.length; i++) {
    const def = fields[i] as FieldDef;
    const control = (d: FieldDef, idx: number) => (
      <Control
        key={d.name}
        def={marks[d.name] ? { ...d, hint: marks[d.name], marked: true } : d}
        value={values[d.name] ?? ''}
        error={errors[d.name]}
        autoFocus={idx === 0}
        onChange={(v) => setValues((prev) => ({ ...prev, [d.name]: v }))}
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
      <form className="form" onSubmit={submit} noValidate>
        {rendered}
        <FormActions failure={failure} busy={busy} onCancel={onClose} />
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
export interface RecordForm<T> {
  addTitle: string;
  editTitle: string;
  fields: FieldDef[];
  /** The form's starting values: `record` when editing, `null` when adding. */
  initial: (record: T | null) => FormValues;
  validate: (values: FormValues) => FieldErrors;
  /** The request body for the submitted values. */
  toBody: (values: FormValues) => unknown;
}

/** The add/edit dialog of a record page, open while `actions.editing` is set. */
export function RecordEditor<T extends { id: number }>({
  actions,
  form,
  failureText,
}: {
  actions: RecordActions<T>;
  form: RecordForm<T>;
  failureText: (err: unknown) => string;
}) {
  const { t } = useTranslation();
  const { editing } = actions;
  if (!editing) return null;
  if (editing.mode === 'ocr') {
    const { preview, vehicleId } = editing;
    const base = form.initial(null);
    const values: FormValues = { ...base, vehicleId: String(vehicleId) };
    const marks: Record<string, string> = {};
    const record = preview as unknown as Record<string, unknown>;
    for (const f of form.fields) {
      const v = record[f.name];
      if (v !== null && v !== undefined && f.name in preview.confidence) {
        values[f.name] = typeof v === 'boolean' ? v : String(v);
        if ((preview.confidence[f.name] ?? 0) < OCR_LOW_CONFIDENCE) marks[f.name] = t('ocr.check');
      } else if (f.name in preview.confidence && f.type !== 'checkbox') marks[f.name] = t('ocr.notFound');
    }
    for (const w of preview.warnings) if (w.field && !marks[w.field]) marks[w.field] = t('ocr.check');
    const notice = preview.warnings.length ? (
      <div className="alert alert--warning ocr-warnings" role="status">
        <strong>{t('ocr.warningsTitle')}</strong>
        <ul>
          {preview.warnings.map((w) => (
            <li key={`${w.code}-${w.field}`}>{w.message}</li>
          ))}
        </ul>
      </div>
    ) : null;
    return (
      <RecordFormModal
        title={t('ocr.confirmTitle')}
        fields={form.fields}
        initial={values}
        validate={form.validate}
        onSubmit={(v, idempotencyKey) => actions.save(form.toBody(v), idempotencyKey)}
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
      initial={form.initial(editing.mode === 'edit' ? editing.record : null)}
      validate={form.validate}
      onSubmit={(values, idempotencyKey) => actions.save(form.toBody(values), idempotencyKey)}
      failureText={failureText}
      onClose={actions.close}
    />
  );
}
