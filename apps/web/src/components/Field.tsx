import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/*
 * Labelled controls. Each takes either a react-hook-form registration (`{...form.field('make')}`
 * from lib/forms, which also brings `error`) or a controlled `value` + `onValueChange`.
 */

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** Label above the control, the error (role=alert) right under it. */
export function FieldShell({ id, label, error, hint, children }: FieldShellProps) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

/** The `aria-invalid` / `aria-describedby` pair of a control. */
export function ariaFor(id: string, error?: string, hint?: ReactNode) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, error, hint) };
}

/** What every labelled control takes besides its element's own attributes. */
interface LabelledProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> &
  LabelledProps & { onValueChange?: (value: string) => void; ref?: Ref<HTMLInputElement> };

export function TextField({ label, onValueChange, error, hint, id, onChange, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint}>
      <input
        {...rest}
        id={inputId}
        className="input"
        onChange={onValueChange ? (e) => onValueChange(e.target.value) : onChange}
        {...ariaFor(inputId, error, hint)}
      />
    </FieldShell>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> &
  LabelledProps & { ref?: Ref<HTMLTextAreaElement> };

export function TextAreaField({ label, error, hint, id, rows = 3, ...rest }: TextAreaFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint}>
      <textarea {...rest} id={inputId} className="input" rows={rows} {...ariaFor(inputId, error, hint)} />
    </FieldShell>
  );
}

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> &
  Omit<LabelledProps, 'hint'> & {
    onCheckedChange?: (checked: boolean) => void;
    ref?: Ref<HTMLInputElement>;
  };

/** Checkbox with its label on the right and its error below. */
export function CheckboxField({ label, onCheckedChange, error, id, onChange, ...rest }: CheckboxFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={`field field--checkbox${error ? ' field--invalid' : ''}`}>
      <div className="checkbox">
        <input
          {...rest}
          type="checkbox"
          id={inputId}
          onChange={onCheckedChange ? (e) => onCheckedChange(e.target.checked) : onChange}
          {...ariaFor(inputId, error)}
        />
        <label htmlFor={inputId}>{label}</label>
      </div>
      {error ? (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> &
  LabelledProps & {
    onValueChange?: (value: string) => void;
    ref?: Ref<HTMLSelectElement>;
    /** The `<option>`s. */
    children: ReactNode;
  };

/** A labelled select, wired like a text field (`aria-invalid`, `aria-describedby`). */
export function SelectField({
  label,
  onValueChange,
  error,
  hint,
  id,
  onChange,
  children,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <FieldShell id={selectId} label={label} error={error} hint={hint}>
      <select
        {...rest}
        id={selectId}
        className="input"
        onChange={onValueChange ? (e) => onValueChange(e.target.value) : onChange}
        {...ariaFor(selectId, error, hint)}
      >
        {children}
      </select>
    </FieldShell>
  );
}
