import { Eye, EyeOff } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy, FieldShell } from './Field';

interface PasswordFieldProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  autoComplete?: string;
  name?: string;
}

/** Password input with a show/hide toggle button. */
export function PasswordField({
  label,
  value,
  onValueChange,
  error,
  hint,
  autoComplete,
  name,
}: PasswordFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="input-group">
        <input
          id={id}
          name={name}
          className="input"
          type={visible ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
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
