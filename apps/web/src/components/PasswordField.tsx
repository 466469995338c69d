import { Eye, EyeOff } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ariaFor, FieldShell } from './Field';

type PasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  onValueChange?: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/** Password input with a show/hide toggle button; takes `{...form.field('password')}`. */
export function PasswordField({ label, error, hint, onValueChange, onChange, ...rest }: PasswordFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="input-group">
        <input
          {...rest}
          id={id}
          className="input"
          type={visible ? 'text' : 'password'}
          onChange={onValueChange ? (e) => onValueChange(e.target.value) : onChange}
          {...ariaFor(id, error, hint)}
        />
        <button
          type="button"
          className="input-group__button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={visible}
        >
          {visible ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
        </button>
      </div>
    </FieldShell>
  );
}
