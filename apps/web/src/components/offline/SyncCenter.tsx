import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onDataChanged, resolveIssue, startSyncEngine, useSyncState } from '../../lib/offline/engine';
import type { StoredIssue } from '../../lib/offline/types';
import { Modal } from '../Modal';
import './offline.css';

/** Fields never worth comparing in a conflict. */
const HIDDEN = new Set([
  'id',
  'version',
  'createdAt',
  'updatedAt',
  'ownerId',
  'ownerUsername',
  'photoUrl',
  'aiScore',
  'aiScoreReason',
  'vehicleId',
  'pendingSync',
]);

/** Translation key of a field's label (the forms' own labels), by field name. */
const LABELS: Record<string, string> = {
  make: 'vehicles.make',
  model: 'vehicles.model',
  year: 'vehicles.year',
  fuelType: 'vehicles.fuelType',
  registrationNumber: 'vehicles.registrationNumber',
  engineSize: 'vehicles.engineSizeL',
  odometer: 'vehicles.odometerKm',
  aiEvaluationConsent: 'vehicles.aiConsentShort',
  date: 'records.date',
  description: 'records.description',
  liters: 'fuel.litres',
  fuelPrice: 'fuel.totalPaid',
  pricePerLiter: 'fuel.pricePerLitre',
  fullTank: 'fuel.fullTank',
  missedPrevious: 'fuel.missedPrevious',
};

/** A field's label in the user's language (the field name when no form shows it). */
function label(field: string, t: (k: string, o?: Record<string, unknown>) => string): string {
  return t(LABELS[field] ?? `offline.fields.${field}`, { defaultValue: field });
}

/** A refused write's value as the forms show it: fuel and expense types translated. */
function showValue(field: string, value: unknown, t: (k: string, o?: Record<string, unknown>) => string) {
  if (typeof value === 'string' && field === 'fuelType')
    return t(`fuelTypes.${value}`, { defaultValue: value });
  if (typeof value === 'string' && field === 'expenseType')
    return t(`expenseTypes.${value}`, { defaultValue: value });
  return show(value);
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  return String(value);
}

function title(issue: StoredIssue, t: (k: string, o?: Record<string, unknown>) => string): string {
  const p = issue.entry.payload ?? issue.server ?? {};
  const name =
    issue.entry.kind === 'vehicle'
      ? `${show(p.make)} ${show(p.model)}`
      : show((p as Record<string, unknown>).date ?? (p as Record<string, unknown>).provider);
  return t('offline.item', { kind: t(`offline.kinds.${issue.entry.kind}`), name });
}

/**
 * Why a queued write was refused. A car's owner may have changed or ended the user's access while
 * they were offline (issue 22): 403 (now a viewer) and 404 (no longer shared) say so plainly, and
 * the entry's values stay on screen until dismissed, so nothing typed is lost silently.
 */
function failureText(issue: StoredIssue, t: (k: string, o?: Record<string, unknown>) => string): string {
  const item = title(issue, t);
  if (issue.code === 'FORBIDDEN') return t('offline.accessReadOnly', { item });
  if (issue.code === 'NOT_FOUND' && issue.entry.kind !== 'vehicle') return t('offline.accessEnded', { item });
  return t('offline.failed', { item, message: issue.message });
}

/** The user sees both versions of a row changed elsewhere and chooses which one stays. */
function ConflictDialog({ issue }: { issue: StoredIssue }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const mine = issue.entry.payload ?? {};
  const theirs = issue.server ?? {};
  const fields = Object.keys({ ...mine }).filter((k) => !HIDDEN.has(k));
  const choose = async (keepMine: boolean) => {
    setBusy(true);
    try {
      await resolveIssue(issue, keepMine);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('offline.conflictTitle')} onClose={() => void choose(false)}>
      <p>{t('offline.conflictBody', { item: title(issue, t) })}</p>
      {issue.entry.type === 'delete' ? (
        <p>{t('offline.conflictDelete')}</p>
      ) : (
        <div className="conflict-table-wrap">
          <table className="conflict-table">
            <thead>
              <tr>
                <th scope="col">{t('offline.field')}</th>
                <th scope="col">{t('offline.yours')}</th>
                <th scope="col">{t('offline.theirs')}</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((f) => {
                const differs = show(mine[f]) !== show(theirs[f]);
                return (
                  <tr key={f} className={differs ? 'conflict-table__diff' : undefined}>
                    <th scope="row">{label(f, t)}</th>
                    <td>{show(mine[f])}</td>
                    <td>{show(theirs[f])}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="form__actions">
        <button
          type="button"
          className="btn btn--secondary"
          disabled={busy}
          onClick={() => void choose(false)}
          data-autofocus
        >
          {t('offline.keepTheirs')}
        </button>
        <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void choose(true)}>
          {issue.entry.type === 'delete' ? t('offline.deleteAnyway') : t('offline.keepMine')}
        </button>
      </div>
    </Modal>
  );
}

/**
 * Starts the sync engine, refetches the screens whenever the queue or the server data changes,
 * and shows what sync could not do: a conflict dialog (one at a time) and refused writes.
 */
export function SyncCenter() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { issues } = useSyncState();

  useEffect(() => {
    startSyncEngine();
    return onDataChanged(() => void queryClient.invalidateQueries());
  }, [queryClient]);

  const conflict = issues.find((i) => i.kind === 'conflict');
  const failed = issues.filter((i) => i.kind === 'failed');

  return (
    <>
      {failed.length > 0 ? (
        <div className="sync-failures" role="alert">
          {failed.map((issue) => (
            <div key={issue.seq} className="alert alert--error sync-failure">
              <p>{failureText(issue, t)}</p>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => void resolveIssue(issue, false)}
              >
                {t('offline.dismiss')}
              </button>
              {issue.entry.payload && (issue.code === 'FORBIDDEN' || issue.code === 'NOT_FOUND') ? (
                <details className="sync-failure__details">
                  <summary>{t('offline.whatWasNotSaved')}</summary>
                  <dl className="facts">
                    {Object.entries(issue.entry.payload)
                      // Empty fields were not typed: listing them would only hide what was.
                      .filter(
                        ([key, value]) => key !== 'vehicleId' && key !== 'version' && show(value) !== '—',
                      )
                      .map(([key, value]) => (
                        <div key={key}>
                          <dt>{label(key, t)}</dt>
                          <dd>{showValue(key, value, t)}</dd>
                        </div>
                      ))}
                  </dl>
                </details>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
      {conflict ? <ConflictDialog key={conflict.seq} issue={conflict} /> : null}
    </>
  );
}
