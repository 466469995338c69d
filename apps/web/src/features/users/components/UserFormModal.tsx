import { AdminUpdateUserBody, Password, ROLES, USER_STATUSES, type User } from '@evdra/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CheckboxField, SelectField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { PasswordField } from '../../../components/PasswordField';
import { errorText } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { useSaveAdminUser } from '../api';

interface UserFormModalProps {
  /** The user being edited, or null to add one. */
  user: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
}

/** The admin's user fields; the password is only asked (and then required) for a new user. */
const UserForm = AdminUpdateUserBody.extend({
  password: z.union([Password, z.literal('')]),
  gdprConsent: z.boolean(),
});
const NewUserForm = UserForm.refine((v) => v.password !== '', { path: ['password'] });

/** Add/edit user dialog. Stays open, with what was typed, when saving fails. */
export function UserFormModal({ user, onClose, onSaved }: UserFormModalProps) {
  const { t } = useTranslation();
  const save = useSaveAdminUser();
  const isNew = user === null;
  const form = useZodForm(isNew ? NewUserForm : UserForm, {
    defaultValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      password: '',
      role: user?.role ?? 'USER',
      status: user?.status ?? 'Active',
      gdprConsent: user?.gdprConsent ?? false,
    },
    messages: { 'password.required': 'forms.newUserPassword' },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async ({ password, ...rest }: z.output<typeof UserForm>) => {
    setFailure(null);
    try {
      const saved = await save.mutateAsync({ id: user?.id, body: isNew ? { ...rest, password } : rest });
      onSaved(saved);
    } catch (err) {
      if (!form.showServerErrors(err, { USERNAME_TAKEN: 'username', EMAIL_TAKEN: 'email' }))
        setFailure(t('admin.error', { message: errorText(err) }));
    }
  };

  return (
    <Modal title={isNew ? t('admin.addTitle') : t('admin.editTitle')} onClose={onClose}>
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <TextField
          label={t('admin.username')}
          autoComplete="off"
          data-autofocus
          {...form.field('username')}
        />
        <TextField label={t('admin.email')} type="email" autoComplete="off" {...form.field('email')} />
        {isNew ? (
          <PasswordField
            label={t('admin.password')}
            autoComplete="new-password"
            {...form.field('password')}
          />
        ) : null}
        <div className="form__row">
          <SelectField label={t('admin.role')} {...form.field('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('admin.status')} {...form.field('status')}>
            <option value="">{t('admin.statusBlank')}</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.statuses.${s}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <CheckboxField label={t('admin.gdprConsent')} {...form.field('gdprConsent')} />
        <FormActions failure={failure} busy={save.isPending} onCancel={onClose} />
      </form>
    </Modal>
  );
}
