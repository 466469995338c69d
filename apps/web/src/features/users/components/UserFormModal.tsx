import { ROLES, USER_STATUSES, type User, type UserStatus } from '@evdra/domain';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField, SelectField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { PasswordField } from '../../../components/PasswordField';
import { ApiError, errorText } from '../../../lib/api';
import type { FieldErrors } from '../../../lib/validation';
import { type AdminUserInput, useSaveAdminUser } from '../api';

interface UserFormModalProps {
  /** The user being edited, or null to add one. */
  user: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
}

const FIELDS = new Set(['username', 'email', 'password', 'role', 'status', 'gdprConsent']);

/** Add/edit user dialog. Stays open, with what was typed, when saving fails. */
export function UserFormModal({ user, onClose, onSaved }: UserFormModalProps) {
  const { t } = useTranslation();
  const save = useSaveAdminUser();
  const isNew = user === null;
  const [form, setForm] = useState<Required<AdminUserInput>>({
    username: user?.username ?? '',
    email: user?.email ?? '',
    password: '',
    role: user?.role ?? 'USER',
    status: user?.status ?? 'Active',
    gdprConsent: user?.gdprConsent ?? false,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const set = <K extends keyof AdminUserInput>(key: K, value: AdminUserInput[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const next: FieldErrors = {
      username: form.username.trim() ? undefined : t('admin.usernameRequired'),
      email: form.email.trim() ? undefined : t('admin.emailRequired'),
      password: isNew && !form.password ? t('admin.passwordRequired') : undefined,
    };
    setErrors(next);
    if (next.username || next.email || next.password) return;

    const body: AdminUserInput = {
      username: form.username.trim(),
      email: form.email.trim(),
      role: form.role,
      status: form.status,
      gdprConsent: form.gdprConsent,
      ...(isNew ? { password: form.password } : {}),
    };
    try {
      const saved = await save.mutateAsync({ id: user?.id, body });
      onSaved(saved);
    } catch (err) {
      const fieldErrors: FieldErrors = {};
      if (err instanceof ApiError) {
        for (const d of err.details) {
          if (FIELDS.has(d.field)) fieldErrors[d.field] = d.message || t(`errors.${err.code}`);
        }
        if (err.code === 'USERNAME_TAKEN') fieldErrors.username ??= t('errors.USERNAME_TAKEN');
        if (err.code === 'EMAIL_TAKEN') fieldErrors.email ??= t('errors.EMAIL_TAKEN');
      }
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length === 0) setFailure(t('admin.error', { message: errorText(err) }));
    }
  };

  return (
    <Modal title={isNew ? t('admin.addTitle') : t('admin.editTitle')} onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('admin.username')}
          name="username"
          autoComplete="off"
          value={form.username}
          onValueChange={(v) => set('username', v)}
          error={errors.username}
          data-autofocus
        />
        <TextField
          label={t('admin.email')}
          name="email"
          type="email"
          autoComplete="off"
          value={form.email}
          onValueChange={(v) => set('email', v)}
          error={errors.email}
        />
        {isNew ? (
          <PasswordField
            label={t('admin.password')}
            name="password"
            autoComplete="new-password"
            value={form.password}
            onValueChange={(v) => set('password', v)}
            error={errors.password}
          />
        ) : null}
        <div className="form__row">
          <SelectField
            label={t('admin.role')}
            value={form.role}
            onValueChange={(v) => set('role', v as AdminUserInput['role'])}
            error={errors.role}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('admin.status')}
            value={form.status}
            onValueChange={(v) => set('status', v as UserStatus | '')}
            error={errors.status}
          >
            <option value="">{t('admin.statusBlank')}</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.statuses.${s}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <CheckboxField
          label={t('admin.gdprConsent')}
          name="gdprConsent"
          checked={form.gdprConsent}
          onCheckedChange={(c) => set('gdprConsent', c)}
          error={errors.gdprConsent}
        />
        <FormActions failure={failure} busy={save.isPending} onCancel={onClose} />
      </form>
    </Modal>
  );
}
