import type { ReportLink } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, FileDown, Link2, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { CheckboxField } from '../../../components/Field';
import { api, errorText, refreshSession } from '../../../lib/api';
import { useFormat } from '../../../lib/format';

const linksKey = (vehicleId: number) => ['report-links', vehicleId] as const;

/** Fetches the PDF with the session (renewed once on 401) and saves it under the server's file name. */
async function downloadPdf(vehicleId: number, lang: string, pages: boolean) {
  const url = `/api/vehicles/${vehicleId}/report.pdf?lang=${encodeURIComponent(lang)}${pages ? '&pages=1' : ''}`;
  let res = await fetch(url, { credentials: 'same-origin' });
  if (res.status === 401 && (await refreshSession())) res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `report-${vehicleId}.pdf`;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * The vehicle's history report: download the PDF in the UI language (anyone who sees the car) and,
 * for its owner, share links (made with an expiry, copied, listed, revoked).
 */
export function ReportPanel({ vehicleId, owner }: { vehicleId: number; owner: boolean }) {
  const { t, i18n } = useTranslation();
  const f = useFormat();
  const qc = useQueryClient();
  const daysId = useId();
  const lang = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string>();
  const [days, setDays] = useState('14');
  const [copied, setCopied] = useState<string>();
  // The owner's choice to append each (non-private) document's first page (issue 52).
  const [pages, setPages] = useState(false);

  const links = useQuery({
    queryKey: linksKey(vehicleId),
    queryFn: ({ signal }) => api<ReportLink[]>(`/api/vehicles/${vehicleId}/report-links`, { signal }),
    enabled: owner,
  });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(url);
    } catch {
      setCopied(undefined);
    }
  };
  const create = useMutation({
    mutationFn: () =>
      api<{ url: string; token: string; expiresAt: string }>(`/api/vehicles/${vehicleId}/report-links`, {
        method: 'POST',
        body: { expiresInDays: Number(days) },
      }),
    onSuccess: async (link) => {
      setError(undefined);
      await qc.invalidateQueries({ queryKey: linksKey(vehicleId) });
      await copy(link.url);
    },
    onError: (err) => setError(errorText(err)),
  });
  const revoke = useMutation({
    mutationFn: (token: string) =>
      api(`/api/vehicles/${vehicleId}/report-links/${encodeURIComponent(token)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: linksKey(vehicleId) }),
    onError: (err) => setError(errorText(err)),
  });

  const download = async () => {
    setDownloading(true);
    setError(undefined);
    try {
      await downloadPdf(vehicleId, lang, owner && pages);
    } catch (err) {
      setError(t('report.downloadFailed', { message: errorText(err) }));
    } finally {
      setDownloading(false);
    }
  };

  const validDays = /^\d+$/.test(days) && Number(days) >= 1 && Number(days) <= 90;
  return (
    <section className="report-panel" aria-label={t('report.title')}>
      <div className="report-panel__row">
        <h2 className="report-panel__title">{t('report.title')}</h2>
        <button type="button" className="btn btn--small" onClick={download} disabled={downloading}>
          <FileDown size={16} aria-hidden="true" />
          {downloading ? t('report.downloading') : t('report.download')}
        </button>
      </div>
      {owner ? (
        <CheckboxField label={t('report.firstPages')} checked={pages} onCheckedChange={setPages} />
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {owner ? (
        <div className="report-panel__share">
          <h3 className="report-panel__subtitle">{t('report.share')}</h3>
          <form
            className="report-panel__form"
            onSubmit={(e) => {
              e.preventDefault();
              if (validDays) create.mutate();
            }}
          >
            <div className="field">
              <label className="field__label" htmlFor={daysId}>
                {t('report.days')}
              </label>
              <input
                id={daysId}
                className="input"
                type="number"
                min={1}
                max={90}
                inputMode="numeric"
                value={days}
                aria-invalid={!validDays}
                onChange={(e) => setDays(e.target.value)}
              />
            </div>
            <button
              type="submit"
              className="btn btn--secondary btn--small"
              disabled={!validDays || create.isPending}
            >
              <Link2 size={16} aria-hidden="true" />
              {t('report.create')}
            </button>
          </form>
          {!validDays ? <p className="muted">{t('report.daysHint')}</p> : null}
          {copied ? (
            <p className="muted" role="status">
              {t('report.copied')}
            </p>
          ) : null}
          {links.data && links.data.length === 0 ? <p className="muted">{t('report.none')}</p> : null}
          {links.data && links.data.length > 0 ? (
            <ul className="report-panel__links">
              {links.data.map((l) => (
                <li key={l.token}>
                  <a href={l.url} target="_blank" rel="noopener noreferrer" className="report-panel__url">
                    {l.url}
                  </a>
                  <span className="muted">
                    {l.listingId !== null ? `${t('report.listing')} · ` : ''}
                    {t('report.expires', { date: f.date(l.expiresAt) })}
                  </span>
                  <span className="report-panel__actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--small"
                      onClick={() => copy(l.url)}
                    >
                      <Copy size={14} aria-hidden="true" />
                      {t('report.copy')}
                    </button>
                    <button
                      type="button"
                      className="btn btn--secondary btn--small"
                      onClick={() => revoke.mutate(l.token)}
                      disabled={revoke.isPending}
                    >
                      <Trash2 size={14} aria-hidden="true" />
                      {t('report.revoke')}
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
