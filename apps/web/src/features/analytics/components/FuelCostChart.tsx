import { type AnalyticsRow, type CurrencyCode, monthLabel } from '@evdra/domain';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { ownUnit } from '../../../lib/fuels';
import { fuelSeries } from '../rows';
import { AnalyticsSection } from './AnalyticsSection';
import { SeriesBarChart } from './Charts';
import { FuelTotals } from './FuelTotals';

/**
 * The user's and admin's fuel cost split by fuel (issue 51): one bar series per fuel over `months`,
 * named with the fuel's own unit ("LPG (L)", "CNG (kg)", "Electric (kWh)"), each month's quantity
 * in its tooltip, and each fuel's quantity, cost and fills in all below. Nothing when the rows hold
 * one fuel only (the fuel cost is already the vehicle chart's).
 */
export function FuelCostChart({
  id,
  rows,
  months,
  currency,
}: {
  id: string;
  rows: AnalyticsRow[];
  /** 'YYYY-MM-01', oldest first (monthsOf). */
  months: string[];
  currency: CurrencyCode;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const fuels = fuelSeries(rows, months);
  if (fuels.length < 2) return null;
  const title = t('analytics.fuelCostChart');
  return (
    <AnalyticsSection id={id} title={title}>
      <SeriesBarChart
        label={title}
        currency={currency}
        labels={months.map(monthLabel)}
        series={fuels.map((s) => ({
          label: t('analytics.fuelWithUnit', {
            fuel: t(`fuelTypes.${s.fuelType}`),
            unit: f.volumeSign(ownUnit(s.fuelType)),
          }),
          values: s.costs,
          details: s.quantities.map((q) => (q === null ? null : f.volume(q, ownUnit(s.fuelType)))),
        }))}
      />
      <FuelTotals fuels={fuels} currency={currency} />
    </AnalyticsSection>
  );
}
