import { documentTypeLabel } from '@evdra/domain';
import type { QueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Alert, PageCard } from '../../../components/Card';
import { PageLoading } from '../../../components/PageLoading';
import { errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { isLanguage } from '../../../lib/i18n';
import { documentsQuery, useCountry, useDocuments } from '../api';
import '../documents.css';

/** The first data of the page, fetched as soon as this chunk arrives (app/routes.tsx). */
export function prefetch(client: QueryClient, params: Record<string, string | undefined>): Promise<void> {
  return client.prefetchQuery(documentsQuery(Number(params.vehicleId)));
}

/** One document, every page at full width (a PDF opens in the browser's viewer), to show at a check. */
export default function DocumentPage() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const params = useParams();
  const vehicleId = Number(params.vehicleId);
  const docId = Number(params.docId);
  const list = useDocuments(vehicleId);
  const country = useCountry();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const doc = list.data?.find((d) => d.id === docId);
  // The first page's address is known from the route: a list that says it is a photo (?image=1) has it
  // asked for at once, not after the documents (a roadside check counts every round trip).
  const [search] = useSearchParams();
  const pages =
    doc?.pages ??
    (list.isPending && search.get('image') === '1'
      ? [
          {
            page: 1,
            name: '',
            contentType: 'image/jpeg',
            size: 0,
            url: `/api/vehicles/${vehicleId}/documents/${docId}/file`,
          },
        ]
      : []);
  return (
    <PageCard title={doc?.title ?? t('documents.title')}>
      {list.isPending ? <PageLoading /> : null}
      {list.isError ? (
        <Alert tone="error">{t('records.error', { message: errorText(list.error) })}</Alert>
      ) : null}
      {list.data && !doc ? <Alert tone="error">{t('documents.notFound')}</Alert> : null}
      <div className="document__pages">
        {pages.map((p) =>
          p.contentType === 'application/pdf' ? (
            <a key={p.page} className="document__pdf" href={p.url} target="_blank" rel="noreferrer">
              {/* The first page as drawn at upload: seen at once, even where the browser shows no PDF. */}
              {p.page === 1 && doc?.previewUrl ? (
                <img
                  src={doc.previewUrl}
                  alt={t('documents.pageAlt', { page: p.page, title: doc.title })}
                  width={320}
                />
              ) : null}
              <span className="btn btn--secondary">{t('documents.openPdf', { name: p.name })}</span>
            </a>
          ) : (
            <img
              key={p.page}
              className="document__page"
              src={p.url}
              alt={t('documents.pageAlt', { page: p.page, title: doc?.title ?? '' })}
              onError={
                doc
                  ? undefined
                  : (e) => {
                      e.currentTarget.hidden = true;
                    }
              }
            />
          ),
        )}
      </div>

      {doc ? (
        <>
          <p>
            {documentTypeLabel(doc.type, country, lang)}
            {doc.number ? ` · ${doc.number}` : ''}
            {doc.issuedOn || doc.expiresOn
              ? ` · ${doc.issuedOn ? fmt.date(doc.issuedOn) : ''} – ${doc.expiresOn ? fmt.date(doc.expiresOn) : ''}`
              : ''}
          </p>
          {doc.notes ? <p className="muted">{doc.notes}</p> : null}
          <div className="form__actions">
            {doc.pages.map((p) => (
              <a
                key={p.page}
                className="btn btn--secondary btn--small"
                href={`${p.url}${p.url.includes('?') ? '&' : '?'}download=true`}
              >
                <Download size={16} aria-hidden="true" />
                {p.name}
              </a>
            ))}
            <Link className="btn btn--secondary btn--small" to={`/documents/${vehicleId}`}>
              {t('documents.manage')}
            </Link>
          </div>
        </>
      ) : null}
    </PageCard>
  );
}
