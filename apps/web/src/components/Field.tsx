import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';

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

/** What a labelled text-valued control takes besides its element's own attributes. */
interface ValueFieldProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  id?: string;
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> &
  ValueFieldProps;

export function TextField({ label, value, onValueChange, error, hint, id, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint}>
      <input
        {...rest}
        id={inputId}
        className="input"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, error, hint)}
      />
    </FieldShell>
  );
}

interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  error?: string;
  disabled?: boolean;
  name?: string;
  id?: string;
}

/** Checkbox with its label on the right and its error below. */
export function CheckboxField({
  label,
  checked,
  onCheckedChange,
  error,
  disabled,
  name,
  id,
}: CheckboxFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={`field field--checkbox${error ? ' field--invalid' : ''}`}>
      <div className="checkbox">
        <input
          type="checkbox"
          id={inputId}
          name={name}
          checked={checked}
          disabled={disabled}
          onChange={(e) => onCheckedChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
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

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'id'> &
  ValueFieldProps & {
    /** The `<option>`s. */
    children: ReactNode;
  };

/** A labelled select; other attributes (name, aria-*) go to the `<select>`. */
export function SelectField({
  label,
  value,
  onValueChange,
  error,
  hint,
  id,
  children,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <FieldShell id={selectId} label={label} error={error} hint={hint}>
      <select
        id={selectId}
        className="input"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        {...rest}
      >
        {children}
      </select>
    </FieldShell>
  );
}
