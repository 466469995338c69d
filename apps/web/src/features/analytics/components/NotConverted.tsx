import type { CurrencyCode } from '@evdra/domain';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';

/**
 * Costs left in their own currency because no rate to the answer's is known (issue 50): listed under
 * the answer's total in their currency, never added to it.
 */
export function NotConverted({
  apart,
  currency,
}: {
  apart: { label?: string; currency: CurrencyCode; total: number }[];
  currency: CurrencyCode;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  if (apart.length === 0) return null;
  return (
    <p className="muted">
      {t('analytics.notConverted', { currency })}:{' '}
      {apart.map((a) => `${a.label ? `${a.label} ` : ''}${f.money(a.total, a.currency)}`).join(' · ')}
    </p>
  );
}
