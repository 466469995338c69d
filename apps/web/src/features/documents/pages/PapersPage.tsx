import type { VehicleDocument } from '@evdra/domain';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { PageLoading } from '../../../components/PageLoading';
import { errorText } from '../../../lib/api';
import { keepPapers, latestOfEachType, papersOfflineOn } from '../../../lib/offline/papers';
import { keepPapersShell } from '../../../lib/offline/papers-shell';
import { getStoredUser } from '../../../lib/session';
import { prefetchAllPapers, useAllPapers, useCountry } from '../api';
import { DocumentCard } from '../components/DocumentCard';
import '../documents.css';

/** Previews shown at once on Papers; the rest load as they scroll into view. */
const EAGER_PREVIEWS = 4;

/** The first data of the page, fetched as soon as this chunk arrives (app/routes.tsx). */
export function prefetch(client: QueryClient): Promise<void> {
  return prefetchAllPapers(client);
}

/**
 * "Papers": every car's documents, the latest of each type first with its first page, for a roadside
 * check. Reached from the home screen in one tap (a document opens with the second); kept on the
 * device for use with no signal (lib/offline/papers.ts) unless the setting is off.
 */
export default function PapersPage() {
  const { t } = useTranslation();
  const country = useCountry();
  const { vehicles, list, docs } = useAllPapers();
  const intro = useRef<HTMLParagraphElement>(null);
  // Only with the car list itself here: before it, there are no lists yet (not "no papers"), and
  // keeping nothing would forget every kept page (what emptied the wallet on a flaky signal).
  const loaded =
    vehicles.data && docs.every((q) => q.data) ? docs.map((q) => q.data as VehicleDocument[]) : null;
  const key = loaded ? JSON.stringify(loaded.map((l) => l.map((d) => [d.id, d.version]))) : '';

  // Once every list is here: keep the latest of each type on the device, and this first screen for
  // the next open's shell (lib/offline/papers-shell.ts).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the lists' content
  useEffect(() => {
    if (!loaded) return;
    void keepPapers(list.map((v, i) => ({ vehicleId: v.id, docs: loaded[i] ?? [] }))).catch(() => undefined);
    const user = getStoredUser();
    const page = intro.current?.closest('.page-card');
    if (user && page && papersOfflineOn()) keepPapersShell(user.id, page, EAGER_PREVIEWS);
  }, [key]);

  return (
    <PageCard title={t('documents.papers')}>
      <p className="field__hint" ref={intro}>
        {t('documents.papersIntro')}
      </p>
      {vehicles.isPending ? <PageLoading /> : null}
      {vehicles.isError ? (
        <Alert tone="error">{t('records.error', { message: errorText(vehicles.error) })}</Alert>
      ) : null}
      {vehicles.data && list.length === 0 ? <p className="muted">{t('documents.noVehicles')}</p> : null}
      {list.map((v, i) => {
        // The first car's first cards are on the first screen (a phone shows about four).
        const eagerCards = i === 0 ? EAGER_PREVIEWS : 0;
        const q = docs[i];
        const all = q?.data ?? [];
        const latest = new Set(latestOfEachType(all).map((d) => d.id));
        const ordered = [...all].sort((a, b) => Number(latest.has(b.id)) - Number(latest.has(a.id)));
        return (
          <section key={v.id} className="papers__vehicle" aria-labelledby={`papers-${v.id}`}>
            <h2 id={`papers-${v.id}`} className="papers__name">
              {v.make} {v.model} <span className="muted">{v.registrationNumber}</span>
            </h2>
            {q?.isPending ? <PageLoading /> : null}
            {q?.isError ? (
              <Alert tone="error">{t('records.error', { message: errorText(q.error) })}</Alert>
            ) : null}
            {q?.data && all.length === 0 ? <p className="muted">{t('documents.empty')}</p> : null}
            {ordered.length ? (
              <ul className="documents" aria-label={t('documents.titleOf', { name: `${v.make} ${v.model}` })}>
                {ordered.map((d, k) => (
                  <DocumentCard key={d.id} doc={d} country={country} eager={k < eagerCards} />
                ))}
              </ul>
            ) : null}
            <Link to={`/documents/${v.id}`} className="chip-link">
              {v.access === 'VIEWER' ? t('documents.manageView') : t('documents.manage')}
            </Link>
          </section>
        );
      })}
    </PageCard>
  );
}
