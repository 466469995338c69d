import type { CurrencyCode, Vehicle } from '@evdra/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import type { DefaultValues, FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { currencySign } from '../../../lib/format';
import { useZodForm, type ZodForm } from '../../../lib/forms';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { currencyOf, useMoneyAndUnits } from '../../../lib/units';
import { type VehicleList, vehicleKeys } from '../../../lib/vehicle-list';
import { RECORD_SCHEMAS, type RecordSchemaName } from '../recordSchemas';
import { CurrencyFields, rememberRate } from './CurrencyFields';
import { measureSign, shownToStored, storedToShown } from './measures';
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
  /** A receipt's preview: an amount in another currency is also shown in the reader's. */
  showConverted?: boolean;
}

function Control<S extends RecordSchema>({
  def,
  form,
  autoFocus,
  hintNode,
  readerCurrency,
  ownerCurrency,
  paidField,
}: {
  def: FieldDef;
  form: ZodForm<S>;
  autoFocus: boolean;
  readerCurrency: CurrencyCode;
  /** The vehicle owner's currency: an opened record's stored rate is to it. */
  ownerCurrency?: CurrencyCode;
  /** The amount shown converted beside a foreign currency (a receipt's preview). */
  paidField?: string;
  /** Shown instead of the plain `def.hint` (a field to check). */
  hintNode?: ReactNode;
}) {
  const hint = hintNode ?? def.hint;
  const name = def.name as FieldPath<z.input<S>>;
  if (def.type === 'currency')
    return (
      <CurrencyFields
        form={form}
        label={def.label}
        readerCurrency={readerCurrency}
        ownerCurrency={ownerCurrency}
        check={hintNode}
        paidField={paidField}
      />
    );
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
          readerCurrency={readerCurrency}
          ownerCurrency={ownerCurrency}
          paidField={paidField}
        />
      </div>
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
  showConverted = false,
}: RecordFormModalProps<S>) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const idempotencyKey = useIdempotencyKey();
  const units = useMoneyAndUnits();
  // The form holds what the reader types: their units, the record's currency (new: the reader's).
  const [shown] = useState(() => {
    const values = { ...(initial as Record<string, unknown>) };
    if (fields.some((f) => f.type === 'currency')) {
      values.currency = currencyOf(values, units.currency);
      if (values.exchangeRate === null) values.exchangeRate = undefined;
      if (values.rateDate === null) values.rateDate = undefined;
    }
    return storedToShown(fields, values, units) as DefaultValues<z.input<S>>;
  });
  const form = useZodForm(schema, { defaultValues: shown });
  const [failure, setFailure] = useState<string | null>(null);
  const values = form.watch() as Record<string, unknown>;
  const ownerCurrency = useOwnerCurrency(values.vehicleId);
  const sign = currencySign(currencyOf(values, units.currency), lng);
  // A label that follows what is typed (kWh for a charge) and names the unit or the currency.
  const labelled = (d: FieldDef): FieldDef => {
    const base = d.labelFor ? d.labelFor(values) : d.label;
    const unit = measureSign(d, units, sign);
    return {
      ...d,
      labelFor: undefined,
      options: d.optionsFor ? d.optionsFor(values) : d.options,
      label: unit ? t('units.withSign', { label: base, sign: unit }) : base,
    };
  };
  // A select whose options follow another field (a fill's fuel, its vehicle): a value no longer
  // offered becomes the first option (the vehicle's primary fuel).
  const followed = fields
    .filter((d) => d.optionsFor)
    .map((d) => {
      const options = d.optionsFor?.(values) ?? [];
      const v = values[d.name];
      return { name: d.name, first: options[0]?.value, stale: !options.some((o) => o.value === v) };
    });
  const staleKey = followed.map((f) => (f.stale ? `${f.name}=${f.first}` : '')).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: staleKey says what changed.
  useEffect(() => {
    for (const f of followed)
      if (f.stale && f.first !== undefined)
        form.setValue(f.name as FieldPath<z.input<S>>, f.first as never, { shouldDirty: true });
  }, [staleKey]);
  const visible = fields.filter((d) => !d.shownWhen || d.shownWhen(values));

  const submit = async (typed: z.output<S>) => {
    setFailure(null);
    const body = shownToStored(fields, typed as Record<string, unknown>, units);
    if (fields.some((f) => f.type === 'currency')) {
      if (body.currency === units.currency) {
        // In the reader's own currency a record needs no rate.
        body.exchangeRate = undefined;
        body.rateSource = undefined;
        body.rateDate = undefined;
      } else if (body.rateSource === 'MANUAL' && typeof body.exchangeRate === 'number')
        rememberRate(String(body.currency), units.currency, body.exchangeRate);
    }
    try {
      await onSubmit(body as z.output<S>, idempotencyKey);
    } catch (err) {
      if (!form.showServerErrors(err)) setFailure(failureText(err));
    }
  };

  // The amount paid: the form's money field ("Total paid", "Amount", "Price").
  const paidField = showConverted ? fields.find((f) => f.measure === 'money')?.name : undefined;
  const rendered: React.ReactNode[] = [];
  for (let i = 0; i < fields.length; i++) {
    const def = fields[i] as FieldDef;
    if (!visible.includes(def)) continue;
    const control = (d: FieldDef, idx: number) => (
      <Control
        key={d.name}
        def={marks[d.name] ? { ...labelled(d), hint: marks[d.name], marked: true } : labelled(d)}
        form={form}
        autoFocus={idx === 0}
        readerCurrency={units.currency}
        ownerCurrency={ownerCurrency}
        paidField={paidField}
      />
    );
    // A pair only with the very next field, when it shows (else each stands alone).
    const next = fields[i + 1] && visible.includes(fields[i + 1] as FieldDef) ? fields[i + 1] : undefined;
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

/**
 * The currency of the record's vehicle's owner, as the vehicle answer says it (ownerCurrency), from the
 * vehicle or the list the page has loaded; undefined when neither is at hand.
 */
function useOwnerCurrency(vehicleId: unknown): CurrencyCode | undefined {
  const queryClient = useQueryClient();
  const id = Number(vehicleId);
  if (!Number.isInteger(id)) return undefined;
  return (
    queryClient.getQueryData<Vehicle>(vehicleKeys.one(id))?.ownerCurrency ??
    queryClient.getQueryData<VehicleList>(vehicleKeys.list)?.vehicles.find((v) => v.id === id)?.ownerCurrency
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
