import type { VehicleDocument } from '@evdra/domain';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { PageLoading } from '../../../components/PageLoading';
import { errorText } from '../../../lib/api';
import { useCountry, useDeleteDocument, useDocumentPages, useDocumentVehicle } from '../api';
import { DocumentCard } from '../components/DocumentCard';
import { DocumentForm } from '../components/DocumentForm';
import '../documents.css';
import { LoadMore } from '../../../components/LoadMore';

/** One car's papers: list, add (owner and editors), edit, delete (owner only). */
export default function VehicleDocumentsPage() {
  const { t } = useTranslation();
  const vehicleId = Number(useParams().vehicleId);
  const list = useDocumentPages(vehicleId);
  const docs = list.data?.pages.flatMap((p) => p.items);
  const vehicle = useDocumentVehicle(vehicleId);
  const remove = useDeleteDocument(vehicleId);
  const country = useCountry();
  const [editing, setEditing] = useState<VehicleDocument | null | undefined>(undefined);
  const name = vehicle.data ? `${vehicle.data.make} ${vehicle.data.model}` : '';
  const canWrite = !!vehicle.data && vehicle.data.access !== 'VIEWER';
  const canDelete = vehicle.data?.access === 'OWNER';

  const onDelete = async (d: VehicleDocument) => {
    if (!window.confirm(t('documents.confirmDelete', { title: d.title }))) return;
    await remove
      .mutateAsync(d.id)
      .catch((err) => window.alert(t('records.error', { message: errorText(err) })));
  };

  return (
    <PageCard
      title={name ? t('documents.titleOf', { name }) : t('documents.title')}
      actions={
        canWrite ? (
          <button type="button" className="btn btn--primary" onClick={() => setEditing(null)}>
            <Plus size={16} aria-hidden="true" />
            {t('documents.add')}
          </button>
        ) : null
      }
    >
      <p className="field__hint">{t('documents.intro')}</p>
      {list.isPending ? <PageLoading /> : null}
      {list.isError ? (
        <Alert tone="error">{t('records.error', { message: errorText(list.error) })}</Alert>
      ) : null}
      {docs && docs.length === 0 ? <p className="muted">{t('documents.empty')}</p> : null}
      {docs?.length ? (
        <ul className="documents" aria-label={t('documents.title')}>
          {docs.map((d) => (
            <DocumentCard key={d.id} doc={d} country={country}>
              {canWrite ? (
                <div className="form__actions">
                  <EditDeleteButtons
                    editLabel={`${t('common.edit')} ${d.title}`}
                    deleteLabel={`${t('common.delete')} ${d.title}`}
                    onEdit={() => setEditing(d)}
                    onDelete={() => void onDelete(d)}
                    deleteDisabled={!canDelete}
                  />
                </div>
              ) : null}
            </DocumentCard>
          ))}
        </ul>
      ) : null}
      <LoadMore list={list} />
      {editing !== undefined ? (
        <DocumentForm
          vehicleId={vehicleId}
          country={country}
          editing={editing}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </PageCard>
  );
}
