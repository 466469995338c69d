import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import {
  type FieldError,
  type FieldPath,
  type FieldValues,
  get,
  type Path,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from './api';
import { parseNumber } from './format';
import { useMoneyAndUnits } from './units';

/*
 * Forms are built from the zod schemas of packages/domain (the server's own rules):
 *
 *   const form = useZodForm(VehicleInput, { defaultValues });
 *   <form onSubmit={form.handleSubmit(save)} noValidate>
 *     <TextField label={t('vehicles.make')} {...form.field('make')} />
 *     <TextField label={t('vehicles.year')} type="number" {...form.field('year', 'number')} />
 *   ...
 *   catch (err) { if (!form.showServerErrors(err)) setFailure(…) }
 *
 * Messages are translated from the zod issue (see `translateIssue`): `forms.fields.<field>.<kind>`
 * when the field has its own text (e.g. 'Make is required.'), else `forms.issues.<kind>`.
 */

/** What went wrong with a value, as a translation key suffix. */
export type IssueKind =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'min'
  | 'moreThan'
  | 'max'
  | 'integer'
  | 'number'
  | 'email'
  | 'date'
  | 'pattern'
  | 'choice'
  | 'custom'
  | 'invalid';

/** Extra values the form's texts interpolate (e.g. `{ yearMax: 2027 }`). */
export type MessageParams = Record<string, string | number>;

/** Per-form texts for `<field>.<kind>` (e.g. `{ 'password.required': 'admin.passwordRequired' }`). */
export type MessageOverrides = Partial<Record<string, string>>;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export function issueKind(issue: z.core.$ZodIssue, value: unknown): IssueKind {
  if (isEmpty(value)) return 'required';
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? 'tooShort' : issue.inclusive === false ? 'moreThan' : 'min';
    case 'too_big':
      return issue.origin === 'string' ? 'tooLong' : 'max';
    case 'invalid_type':
      return issue.expected === 'int' ? 'integer' : issue.expected === 'number' ? 'number' : 'invalid';
    case 'invalid_format':
      if (issue.format === 'email') return 'email';
      return 'pattern' in issue && /\\d\{4\}-/.test(String(issue.pattern)) ? 'date' : 'pattern';
    case 'invalid_value':
      return 'choice';
    case 'custom':
      return 'custom';
    default:
      return 'invalid';
  }
}

/** The message of one zod issue in the user's language; `values` is what was parsed. */
export function translateIssue(
  unionIssue: z.core.$ZodIssue,
  values: unknown,
  t: TFunction,
  overrides: MessageOverrides = {},
  params: MessageParams = {},
): string {
  // A value that fits no branch of a union: explain the branch it came closest to.
  const branch =
    unionIssue.code === 'invalid_union'
      ? unionIssue.errors.reduce((a, b) => (b.length < a.length ? b : a), unionIssue.errors[0] ?? [])[0]
      : undefined;
  const issue = branch ? { ...branch, path: [...unionIssue.path, ...branch.path] } : unionIssue;
  const path = issue.path.map(String);
  const kind = issueKind(issue, path.length ? get(values, path.join('.')) : values);
  const field = path.at(-1) ?? '';
  const keys = [`forms.fields.${field}.${kind}`, `forms.issues.${kind}`];
  const override = overrides[`${field}.${kind}`];
  if (override) keys.unshift(override);
  const bounds = {
    min: 'minimum' in issue ? Number(issue.minimum) : undefined,
    max: 'maximum' in issue ? Number(issue.maximum) : undefined,
  };
  // A rule with no translated text of its own (a custom refinement) keeps the domain's English text.
  return t(keys, { ...params, ...bounds, defaultValue: issue.message });
}

/** `schema` with every issue's message translated (the parsed output is unchanged). */
export function translated<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  t: TFunction,
  overrides?: MessageOverrides,
  params?: MessageParams,
) {
  return z
    .custom<z.input<S>>(() => true)
    .transform((values, ctx) => {
      const result = schema.safeParse(values);
      if (result.success) return result.data as z.output<S>;
      for (const issue of result.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: issue.path,
          message: translateIssue(issue, values, t, overrides, params),
        });
      return z.NEVER;
    });
}

/** A typed number input's value: '' → undefined, '4,5' → 4.5, junk → NaN (zod then says why). */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  const n = parseNumber(String(v ?? ''));
  return n === null ? undefined : n;
}

export type ZodForm<S extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<
  z.input<S>,
  unknown,
  z.output<S>
> & {
  /** Registration plus the field's error, for the Field components: `{...form.field('make')}`. */
  field: (
    name: FieldPath<z.input<S>>,
    as?: 'number',
  ) => ReturnType<UseFormReturn<z.input<S>>['register']> & { error?: string };
  /**
   * Puts a failed request's field `details` (and the given `codes`, e.g. USERNAME_TAKEN → username)
   * next to their fields; true if any field got one. What was typed stays.
   */
  showServerErrors: (err: unknown, codes?: Partial<Record<string, FieldPath<z.input<S>>>>) => boolean;
};

/** react-hook-form over a domain zod schema, with translated messages. */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> & {
    messages?: MessageOverrides;
    params?: MessageParams;
  } = {},
): ZodForm<S> {
  const { t } = useTranslation();
  const { messages, params, ...formOptions } = options;
  // A distance is typed in the reader's unit: its texts name it ('a whole number of mi').
  const { distanceUnit } = useMoneyAndUnits();
  const overrides = JSON.stringify([messages ?? {}, { distance: distanceUnit, ...params }]);
  const resolver = useMemo(
    // Synchronous: the domain schemas have no async rules, and a sync resolver settles within the click.
    () =>
      zodResolver(
        translated(schema, t, ...(JSON.parse(overrides) as [MessageOverrides, MessageParams])),
        undefined,
        {
          mode: 'sync',
        },
      ),
    [schema, t, overrides],
  );
  const form = useForm<z.input<S>, unknown, z.output<S>>({ ...formOptions, resolver });

  const field: ZodForm<S>['field'] = (name, as) => ({
    ...form.register(name, as === 'number' ? { setValueAs: toNumber } : undefined),
    error: (get(form.formState.errors, name) as FieldError | undefined)?.message,
  });

  const showServerErrors: ZodForm<S>['showServerErrors'] = (err, codes = {}) => {
    if (!(err instanceof ApiError)) return false;
    const known = new Set(Object.keys(form.getValues()));
    let shown = false;
    for (const d of err.details) {
      if (!known.has(d.field)) continue;
      form.setError(d.field as Path<z.input<S>>, {
        type: 'server',
        message: d.message || t(`errors.${err.code}`),
      });
      shown = true;
    }
    const byCode = codes[err.code];
    if (byCode && !get(form.formState.errors, byCode)) {
      form.setError(byCode, { type: 'server', message: t(`errors.${err.code}`) });
      shown = true;
    }
    return shown;
  };

  return { ...form, field, showServerErrors };
}
