import type { Vehicle } from '@evdra/domain';
import { ArrowLeft, CarFront, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { type Column, DataTable } from '../../../components/DataTable';
import { PageLoading } from '../../../components/PageLoading';
import { errorText as apiErrorText } from '../../../lib/api';
import { FIRST_CARDS, FIRST_TABLE_ROWS, useProgressiveLength } from '../../../lib/progressive-list';
import { useStoredUser } from '../../../lib/session';
import type { RecordScope, Row } from '../api';
import { ReceiptButton } from '../receipt/ReceiptButton';
import { usePendingReceipts } from '../receipt/usePendingReceipts';
import type { RecordActions } from '../useRecordActions';
import { useWideScreen } from '../useWideScreen';
import { loadRecordFormModal, RecordEditor, type RecordForm } from './RecordEditor';

interface RecordsLayoutProps<T extends { id: number }> {
  scope: RecordScope<T>;
  /** 'insurance' | 'expenses' | 'fuel' | 'revisions': the translation section. */
  section: string;
  /** Add button label (e.g. 'Add Insurance', 'Add Manually'); shown only to owners. */
  addLabel: string;
  /** Add opens the dialog; a failed card action (delete, toggle) shows under the toolbar. */
  actions: RecordActions<T>;
  /** The add/edit dialog (rendered even when the list is empty). */
  form: RecordForm<T>;
  errorText: (err: unknown) => string;
  toolbar?: ReactNode;
  /**
   * The list as table columns (the first one names each row): shown instead of the cards from
   * 1024 px up, where a long list reads better as rows to compare down a column.
   */
  columns?: Column<Row<T>>[];
  /**
   * One record's card (`<li>`), below 1024 px or without `columns`. A function, so that only the
   * cards on screen are built: a list of 60 built every card (~900 translations) for the 4 it showed.
   */
  card: (row: Row<T>) => ReactNode;
}

/** The vehicles the logged-in user can add records to: owned, or shared with them as an editor. */
export function ownedVehicles<T>(scope: RecordScope<T>): Vehicle[] {
  return scope.vehicles.filter((v) => scope.isOwner(v));
}

/** Header, Back, owner-only Add / Upload Receipt, loading, errors and the not-found state. */
export function RecordsLayout<T extends { id: number }>({
  scope,
  section,
  addLabel,
  actions,
  form,
  errorText,
  toolbar,
  columns,
  card,
}: RecordsLayoutProps<T>) {
  const { t } = useTranslation();
  const wide = useWideScreen();
  const [ocrError, setOcrError] = useState<string | null>(null);
  const [kept, setKept] = useState(false);
  const table = !!columns && wide;
  const shown = useProgressiveLength(scope.rows.length, table ? FIRST_TABLE_ROWS : FIRST_CARDS);
  const ocrFailed = (err: unknown) => {
    // Spec §8: each screen's own alert; insurance and expenses also show the error.
    window.alert(t(`ocr.failed.${section}`));
    if (section === 'insurance') setOcrError(apiErrorText(err));
    if (section === 'expenses') setOcrError(t('ocr.errorLine', { message: apiErrorText(err) }));
  };
  // Receipts picked offline are read once online, one at a time, when no dialog is open.
  const receipts = usePendingReceipts(
    actions.kind,
    actions.editing === null && !scope.notFound,
    (preview, vehicleId) => {
      setKept(false);
      actions.startConfirm(preview, vehicleId);
    },
    ocrFailed,
  );
  const back = (
    <Link to="/vehicles" className="btn btn--secondary">
      <ArrowLeft size={18} aria-hidden="true" />
      {t('records.back')}
    </Link>
  );

  if (scope.notFound) {
    return (
      <PageCard title={t('records.notFoundTitle')}>
        <div className="empty-state">
          <CarFront size={40} aria-hidden="true" />
          <p>{t('records.notFoundBody')}</p>
          <Link to="/vehicles" className="btn btn--primary">
            <ArrowLeft size={18} aria-hidden="true" />
            {t('records.backToVehicles')}
          </Link>
        </div>
      </PageCard>
    );
  }

  // Until the vehicle(s) are known, the title, Add and the toolbar would change as they arrive and
  // push the page down (layout shift): one loading bar instead, then the page at once.
  if (scope.isLoading && scope.vehicles.length === 0 && !scope.error) return <PageLoading />;

  const title = scope.single
    ? scope.vehicle
      ? t(`${section}.titleFor`, { make: scope.vehicle.make, model: scope.vehicle.model })
      : t(`${section}.title`)
    : t(`${section}.titleAll`);
  const canAdd = scope.single ? scope.isOwner(scope.vehicle) : ownedVehicles(scope).length > 0;
  // A receipt is read for this vehicle (all-vehicles mode: the first own one; the form can change it).
  const receiptVehicle = scope.single ? scope.vehicle : ownedVehicles(scope)[0];

  return (
    <PageCard title={title} actions={back}>
      {canAdd ? (
        <div className="records-toolbar">
          <button
            type="button"
            className="btn btn--primary"
            onClick={actions.startAdd}
            // The dialog's code starts loading as the finger lands (it is not part of the list).
            onPointerDown={preloadDialog}
            onFocus={preloadDialog}
          >
            <Plus size={18} aria-hidden="true" />
            {addLabel}
          </button>
          {receiptVehicle ? (
            <ReceiptButton
              kind={actions.kind}
              vehicleId={receiptVehicle.id}
              onStart={() => {
                setOcrError(null);
                setKept(false);
              }}
              onPreview={(preview) => actions.startConfirm(preview, receiptVehicle.id)}
              onFailure={ocrFailed}
              onOffline={async (file) => {
                await receipts.keep(receiptVehicle.id, file);
                setKept(true);
              }}
            />
          ) : null}
        </div>
      ) : null}
      {receipts.count > 0 || receipts.reading ? (
        <p className="muted" role="status">
          {receipts.reading
            ? t('ocr.readingKept')
            : `${kept ? `${t('ocr.keptOffline')} ` : ''}${t('ocr.receiptsWaiting', { count: receipts.count })}`}
        </p>
      ) : null}
      {toolbar}
      {actions.actionError ? <Alert tone="error">{actions.actionError}</Alert> : null}
      {ocrError ? <Alert tone="error">{ocrError}</Alert> : null}
      {scope.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {scope.error ? <Alert tone="error">{errorText(scope.error)}</Alert> : null}
      {!scope.isLoading && !scope.error && scope.rows.length === 0 ? (
        <div className="empty-state">
          <p className="muted">{t(`${section}.empty`)}</p>
          {canAdd ? <p className="muted">{t(`${section}.emptyHint`)}</p> : null}
        </div>
      ) : null}
      {scope.rows.length > 0 && table ? (
        <DataTable
          caption={title}
          columns={columns}
          rows={scope.rows.slice(0, shown)}
          rowKey={(r) => r.record.id}
          rowHeaders
          className="table--records"
        />
      ) : null}
      {scope.rows.length > 0 && !table ? (
        <ul className="record-list">{scope.rows.slice(0, shown).map(card)}</ul>
      ) : null}
      {/* Once every loaded row is rendered: while the first few stand alone, the end is in view. */}
      {scope.hasMore && shown >= scope.rows.length ? <LoadMore scope={scope} /> : null}
      <RecordEditor actions={actions} form={form} failureText={errorText} />
    </PageCard>
  );
}

const preloadDialog = () => void loadRecordFormModal();

/**
 * The end of a paged list: the next page loads when this scrolls into view, or on the button
 * (keyboards, and browsers without IntersectionObserver).
 */
function LoadMore<T>({ scope }: { scope: RecordScope<T> }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const { loadMore } = scope;
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: '400px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [loadMore]);
  return (
    <div ref={ref} className="load-more">
      <button type="button" className="btn btn--secondary" onClick={loadMore} disabled={scope.loadingMore}>
        {scope.loadingMore ? t('common.loading') : t('forms.loadMore')}
      </button>
    </div>
  );
}

/** The vehicle's name shown on each record in all-vehicles mode. */
export function VehicleTag({ vehicle }: { vehicle: Vehicle | undefined }) {
  if (!vehicle) return null;
  return (
    <span className="vehicle-tag">
      <CarFront size={14} aria-hidden="true" />
      {vehicle.make} {vehicle.model}
    </span>
  );
}

/**
 * "by {user}" on a record of a shared vehicle: who wrote it, when that is someone else than the
 * owner reading their own car (a grantee sees it on every record).
 */
export function CreatedBy({ row }: { row: Row<{ createdBy?: string | null }> }) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const by = row.record.createdBy;
  if (!by || !row.vehicle) return null;
  if (by === user?.username && (row.vehicle.access ?? 'OWNER') === 'OWNER') return null;
  return <span className="record-by">{t('sharing.by', { user: by })}</span>;
}

/** The table's Vehicle column, in all-vehicles mode only (one vehicle's page names it in the title). */
export function vehicleColumn<T>(scope: RecordScope<T>, label: string): Column<Row<T>>[] {
  return scope.single
    ? []
    : [{ label, cell: ({ vehicle }) => (vehicle ? `${vehicle.make} ${vehicle.model}` : '') }];
}
