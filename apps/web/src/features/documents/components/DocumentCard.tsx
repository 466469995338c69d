import { type Country, documentTypeLabel, type VehicleDocument } from '@evdra/domain';
import { FileText } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { todayIso, useFormat } from '../../../lib/format';
import { isLanguage } from '../../../lib/i18n';

/**
 * One document in a list: its first page's preview (a PDF's marked PDF; a PDF sign when its page could
 * not be drawn), type, number, validity.
 */
export function DocumentCard({
  doc,
  country,
  eager = false,
  children,
}: {
  doc: VehicleDocument;
  country: Country;
  /** On the first screen: its preview is asked for at once, not when the browser finds it in view. */
  eager?: boolean;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const label = documentTypeLabel(doc.type, country, lang);
  const expired = !!doc.expiresOn && doc.expiresOn < todayIso();
  const isPdf = doc.pages[0]?.contentType === 'application/pdf';
  return (
    <li className="documents__item card">
      <Link
        to={`/papers/${doc.vehicleId}/${doc.id}${doc.pages[0]?.contentType.startsWith('image/') ? '?image=1' : ''}`}
        className="documents__open"
        aria-label={t('documents.open', { title: doc.title })}
      >
        {doc.previewUrl ? (
          <span className="documents__thumb">
            <img
              className="documents__preview"
              src={doc.previewUrl}
              alt=""
              width={96}
              height={96}
              loading={eager ? 'eager' : 'lazy'}
            />
            {isPdf ? (
              <span className="documents__badge" aria-hidden="true">
                PDF
              </span>
            ) : null}
          </span>
        ) : (
          <span className="documents__preview documents__preview--pdf" aria-hidden="true">
            <FileText size={40} />
            PDF
          </span>
        )}
      </Link>
      <div className="documents__body">
        <h3 className="documents__title">{doc.title}</h3>
        <p className="muted">
          {label}
          {doc.number ? ` · ${doc.number}` : ''}
        </p>
        {doc.expiresOn ? (
          <p className={expired ? 'text-danger' : undefined}>
            {expired
              ? t('documents.expiredOn', { date: fmt.date(doc.expiresOn) })
              : t('documents.validUntil', { date: fmt.date(doc.expiresOn) })}
          </p>
        ) : null}
        {doc.private ? <p className="muted">{t('documents.privateBadge')}</p> : null}
        {children}
      </div>
    </li>
  );
}
