import { SHARE_ROLES, type ShareRole, type Vehicle } from '@evdra/domain';
import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { SelectField, TextField } from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { ApiError, errorText } from '../../../lib/api';
import { useShareMutations, useShares } from '../shares';
import './sharing.css';

/** The owner's share dialog: who has the car and as what; add by username or email, change, remove. */
export function ShareDialog({ vehicle, onClose }: { vehicle: Vehicle; onClose: () => void }) {
  const { t } = useTranslation();
  const shares = useShares(vehicle.id);
  const { add, setRole, remove } = useShareMutations(vehicle.id);
  const [username, setUsername] = useState('');
  const [role, setNewRole] = useState<ShareRole>('EDITOR');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const name = `${vehicle.make} ${vehicle.model}`;

  const addFailed = (err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return t('sharing.errors.unknownUser');
    if (err instanceof ApiError && err.status === 409) return t('sharing.errors.alreadyShared');
    if (err instanceof ApiError && err.status === 400 && err.code === 'VALIDATION_FAILED')
      return t('sharing.errors.self');
    return errorText(err);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const who = username.trim();
    if (!who) {
      setFieldError(t('sharing.errors.required'));
      return;
    }
    setFieldError(undefined);
    try {
      await add.mutateAsync({ username: who, role });
      setUsername('');
    } catch (err) {
      setFieldError(addFailed(err));
    }
  };

  const change = async (userId: number, next: ShareRole) => {
    setError(null);
    try {
      await setRole.mutateAsync({ userId, role: next });
    } catch (err) {
      setError(errorText(err));
    }
  };

  const revoke = async (userId: number) => {
    setError(null);
    try {
      await remove.mutateAsync(userId);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const roleOptions = SHARE_ROLES.map((r) => (
    <option key={r} value={r}>
      {t(`sharing.roles.${r}`)}
    </option>
  ));

  return (
    <Modal title={t('sharing.title', { name })} onClose={onClose}>
      <p className="muted">{t('sharing.explain')}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {shares.isError ? <Alert tone="error">{errorText(shares.error)}</Alert> : null}
      {shares.data && shares.data.length === 0 ? <p className="muted">{t('sharing.none')}</p> : null}
      {shares.data && shares.data.length > 0 ? (
        <ul className="share-list" aria-label={t('sharing.people')}>
          {shares.data.map((s) => (
            <li key={s.userId} className="share-list__item">
              <span className="share-list__name">{s.username}</span>
              <select
                className="input share-list__role"
                aria-label={t('sharing.roleOf', { user: s.username })}
                value={s.role}
                onChange={(e) => void change(s.userId, e.target.value as ShareRole)}
                disabled={setRole.isPending}
              >
                {roleOptions}
              </select>
              <button
                type="button"
                className="btn btn--danger btn--small"
                onClick={() => void revoke(s.userId)}
                disabled={remove.isPending}
              >
                {t('sharing.removeNamed', { user: s.username })}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form className="share-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('sharing.usernameOrEmail')}
          value={username}
          onValueChange={setUsername}
          error={fieldError}
          autoComplete="off"
          data-autofocus
        />
        <SelectField label={t('sharing.role')} value={role} onValueChange={(v) => setNewRole(v as ShareRole)}>
          {roleOptions}
        </SelectField>
        <button type="submit" className="btn btn--primary" disabled={add.isPending} aria-busy={add.isPending}>
          <UserPlus size={16} aria-hidden="true" />
          {add.isPending ? t('sharing.sharing') : t('sharing.add')}
        </button>
      </form>
      <div className="form__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
