import type { User } from '@evdra/domain';
import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { SearchBox } from '../../../components/SearchBox';
import { errorText } from '../../../lib/api';
import { useAdminUsers, useDeleteAdminUser } from '../api';
import { UserFormModal } from '../components/UserFormModal';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

type Editing = { mode: 'add' } | { mode: 'edit'; user: User } | null;

export default function AdminUsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const users = useAdminUsers(q);
  const remove = useDeleteAdminUser();
  const [editing, setEditing] = useState<Editing>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onDelete = async (user: User) => {
    if (!window.confirm(t('admin.confirmDelete'))) return;
    setActionError(null);
    setNotice(null);
    try {
      await remove.mutateAsync(user.id);
      setNotice(t('admin.deleted', { username: user.username }));
    } catch (err) {
      setActionError(t('admin.error', { message: errorText(err) }));
    }
  };

  const list = users.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <PageCard
      title={t('admin.title')}
      actions={
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            setNotice(null);
            setEditing({ mode: 'add' });
          }}
        >
          <Plus size={18} aria-hidden="true" />
          {t('admin.addUser')}
        </button>
      }
    >
      <SearchBox
        label={t('admin.search')}
        placeholder={t('admin.searchPlaceholder')}
        value={search}
        onValueChange={setSearch}
      />
      {users.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {users.isError ? (
        <Alert tone="error">{t('admin.error', { message: errorText(users.error) })}</Alert>
      ) : null}
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}

      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('admin.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.username')}</th>
              <th scope="col">{t('admin.email')}</th>
              <th scope="col">{t('admin.role')}</th>
              <th scope="col">{t('admin.status')}</th>
              <th scope="col">{t('admin.gdprConsent')}</th>
              <th scope="col">{t('admin.vehicles')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('admin.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((u) => (
              <tr key={u.id}>
                <td data-label={t('admin.username')}>{u.username}</td>
                <td data-label={t('admin.email')}>{u.email}</td>
                <td data-label={t('admin.role')}>{u.role}</td>
                <td data-label={t('admin.status')}>{t(`admin.statuses.${u.status || 'Active'}`)}</td>
                <td data-label={t('admin.gdprConsent')}>
                  {u.gdprConsent ? t('common.yes') : t('common.no')}
                </td>
                <td data-label={t('admin.vehicles')}>
                  {u.vehicles.length === 0 ? '—' : u.vehicles.map((v) => `${v.make} ${v.model}`).join(', ')}
                </td>
                <td className="table__actions">
                  <EditDeleteButtons
                    editLabel={t('admin.editUser', { username: u.username })}
                    deleteLabel={t('admin.deleteUser', { username: u.username })}
                    onEdit={() => {
                      setNotice(null);
                      setEditing({ mode: 'edit', user: u });
                    }}
                    onDelete={() => void onDelete(u)}
                    deleteDisabled={remove.isPending}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {users.hasNextPage ? (
        <div className="load-more">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void users.fetchNextPage()}
            disabled={users.isFetchingNextPage}
          >
            {users.isFetchingNextPage ? t('common.loading') : t('forms.loadMore')}
          </button>
        </div>
      ) : null}
      {users.isSuccess && list.length === 0 ? <p className="muted">{t('admin.noUsers')}</p> : null}

      {editing ? (
        <UserFormModal
          user={editing.mode === 'edit' ? editing.user : null}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setNotice(t('admin.saved', { username: saved.username }));
          }}
        />
      ) : null}
    </PageCard>
  );
}
