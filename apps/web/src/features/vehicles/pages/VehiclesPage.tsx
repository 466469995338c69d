import type { Vehicle } from '@evdra/domain';
import type { QueryClient } from '@tanstack/react-query';
import { Plus, Upload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { useFilterPanel } from '../../../components/FilterPanel';
import { Modal } from '../../../components/Modal';
import { errorText } from '../../../lib/api';
import { FIRST_CARDS, useProgressiveLength } from '../../../lib/progressive-list';
import { useStoredUser } from '../../../lib/session';
import { useDeleteVehicle, useVehicles, vehiclesQuery } from '../api';
import { LeaveShareDialog } from '../components/LeaveShareDialog';
import { VehicleCard } from '../components/VehicleCard';
import { filterVehicles } from '../filter';

// The dialogs (and the form schemas they carry) load when first opened, not with the list.
const ImportModal = lazy(() => import('../components/ImportModal').then((m) => ({ default: m.ImportModal })));
const ShareDialog = lazy(() => import('../components/ShareDialog').then((m) => ({ default: m.ShareDialog })));
const VehicleFormModal = lazy(() =>
  import('../components/VehicleFormModal').then((m) => ({ default: m.VehicleFormModal })),
);

type Editing = { mode: 'add'; thenImport?: boolean } | { mode: 'edit'; vehicle: Vehicle } | null;

/** The first data of the page, fetched as soon as this chunk arrives (app/routes.tsx). */
export function prefetch(client: QueryClient): Promise<void> {
  return client.prefetchQuery(vehiclesQuery());
}

export default function VehiclesPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isAdmin = user?.role === 'ADMIN';
  const list = useVehicles();
  const remove = useDeleteVehicle();
  const { filter, ...filtering } = useFilterPanel('vehicles');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Vehicle | null>(null);
  const [sharing, setSharing] = useState<Vehicle | null>(null);
  const [importing, setImporting] = useState<Vehicle | null>(null);
  const [leaving, setLeaving] = useState<Vehicle | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const vehicles = list.data?.vehicles ?? [];
  const shown = filterVehicles(vehicles, filter, (ft) => t(`fuelTypes.${ft}`));
  const shownCards = useProgressiveLength(shown.length, FIRST_CARDS);

  const onConfirmDelete = async () => {
    if (!deleting) return;
    const target = deleting;
    setDeleting(null);
    setActionError(null);
    try {
      await remove.mutateAsync(target.id);
    } catch (err) {
      setActionError(t('vehicles.error', { message: errorText(err) }));
    }
  };

  return (
    <PageCard
      title={t('vehicles.title')}
      actions={
        <>
          {filtering.button}
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              setActionError(null);
              setEditing({ mode: 'add' });
            }}
          >
            <Plus size={18} aria-hidden="true" />
            {t('vehicles.addNew')}
          </button>
        </>
      }
    >
      {list.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {list.isError ? (
        <Alert tone="error">{t('vehicles.error', { message: errorText(list.error) })}</Alert>
      ) : null}
      {list.data?.offline ? <p className="offline-note">{t('vehicles.offlineData')}</p> : null}
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      {filtering.active ? (
        <p className="muted filter-summary">
          {t('vehicles.filterSummary', { shown: shown.length, total: vehicles.length })}{' '}
          <button type="button" className="link-button" onClick={filtering.clear}>
            {t('vehicles.clear')}
          </button>
        </p>
      ) : null}

      {list.isSuccess && vehicles.length === 0 ? (
        <>
          <p className="muted">{t('vehicles.empty')}</p>
          <section className="import-invite" aria-labelledby="import-invite-title">
            <h2 id="import-invite-title">{t('vehicles.movingTitle')}</h2>
            <p>{t('vehicles.movingBody')}</p>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => {
                setActionError(null);
                setEditing({ mode: 'add', thenImport: true });
              }}
            >
              <Upload size={18} aria-hidden="true" />
              {t('vehicles.movingAction')}
            </button>
          </section>
        </>
      ) : null}
      {vehicles.length > 0 && shown.length === 0 ? <p className="muted">{t('vehicles.noMatch')}</p> : null}

      <div className="vehicle-grid">
        {shown.slice(0, shownCards).map((v) => (
          <VehicleCard
            key={v.id}
            vehicle={v}
            isAdmin={isAdmin}
            onEdit={() => {
              setActionError(null);
              setEditing({ mode: 'edit', vehicle: v });
            }}
            onDelete={() => setDeleting(v)}
            // A car created offline (negative id) is shared once the server has it.
            onShare={v.id > 0 ? () => setSharing(v) : undefined}
            onImport={() => setImporting(v)}
            onLeave={() => {
              setActionError(null);
              setLeaving(v);
            }}
          />
        ))}
      </div>

      {filtering.panel}

      <Suspense fallback={null}>
        {editing ? (
          <VehicleFormModal
            vehicle={editing.mode === 'edit' ? editing.vehicle : null}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              if (editing.mode === 'add' && editing.thenImport) setImporting(saved);
              setEditing(null);
            }}
            onCreateError={setActionError}
          />
        ) : null}

        {sharing ? <ShareDialog vehicle={sharing} onClose={() => setSharing(null)} /> : null}
        {importing ? <ImportModal vehicle={importing} onClose={() => setImporting(null)} /> : null}
      </Suspense>
      {leaving && user ? (
        <LeaveShareDialog
          vehicle={leaving}
          userId={user.id}
          onClose={() => setLeaving(null)}
          onError={setActionError}
        />
      ) : null}

      {deleting ? (
        <Modal title={t('vehicles.deleteTitle')} onClose={() => setDeleting(null)}>
          <p>{t('vehicles.deleteMessage', { name: `${deleting.make} ${deleting.model}` })}</p>
          <div className="form__actions">
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => setDeleting(null)}
              data-autofocus
            >
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn--danger" onClick={() => void onConfirmDelete()}>
              {t('vehicles.yesDelete')}
            </button>
          </div>
        </Modal>
      ) : null}
    </PageCard>
  );
}
