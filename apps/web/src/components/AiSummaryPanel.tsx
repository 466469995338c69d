import { useQuery } from '@tanstack/react-query';
import { EyeOff, RefreshCw, Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api';
import { Markdown } from './Markdown';
import './ai.css';

interface AiSummaryPanelProps {
  /** `/ai-feedback/vehicle/{id}/performance` or `/fuel`: answers text/plain. */
  path: string;
  /** The spec §8 text shown when the summary cannot be loaded. */
  failureText: string;
}

/**
 * The AI summary (spec §4): hidden → loading → shown, with Refresh and Hide. Only rendered by the
 * pages when the vehicle has AI consent.
 */
export function AiSummaryPanel({ path, failureText }: AiSummaryPanelProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const summary = useQuery({
    queryKey: ['ai-summary', path],
    queryFn: ({ signal }) => api<string>(path, { signal, headers: { Accept: 'text/plain' } }),
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const busy = summary.isFetching;

  if (!open) {
    return (
      <div className="ai-summary ai-summary--hidden">
        <button
          type="button"
          className="btn btn--secondary"
          aria-expanded="false"
          aria-controls={panelId}
          onClick={() => setOpen(true)}
        >
          <Sparkles size={18} aria-hidden="true" />
          {t('ai.summary.show')}
        </button>
      </div>
    );
  }
  return (
    <section className="ai-summary" id={panelId} aria-label={t('ai.summary.title')} aria-busy={busy}>
      <header className="ai-summary__header">
        <h2 className="ai-summary__title">
          <Sparkles size={18} aria-hidden="true" />
          {t('ai.summary.title')}
        </h2>
        <div className="ai-summary__actions">
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => void summary.refetch()}
            disabled={busy}
          >
            <RefreshCw size={16} aria-hidden="true" className={busy ? 'spin' : undefined} />
            {t('ai.summary.refresh')}
          </button>
          <button type="button" className="btn btn--secondary btn--small" onClick={() => setOpen(false)}>
            <EyeOff size={16} aria-hidden="true" />
            {t('ai.summary.hide')}
          </button>
        </div>
      </header>
      {busy ? (
        <div className="ai-summary__loading" role="status">
          <div className="loading-bar" aria-hidden="true" />
          <span className="muted">{t('ai.summary.loading')}</span>
        </div>
      ) : summary.isError ? (
        <p className="alert alert--error" role="alert">
          {failureText}
        </p>
      ) : summary.data !== undefined ? (
        <Markdown text={summary.data} />
      ) : null}
    </section>
  );
}
