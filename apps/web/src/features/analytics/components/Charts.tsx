import type { CostTotals } from '@evdra/domain';
import { Bar, Line, Pie } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { cartesianOptions, pieOptions, seriesColor, useChartTheme } from '../charts';

/** The four cost categories, in chart order, with their totals' field. */
export const CATEGORIES = [
  { key: 'fuel', field: 'totalFuelCost' },
  { key: 'expenses', field: 'totalExpensesCost' },
  { key: 'insurance', field: 'totalInsuranceCost' },
  { key: 'revisions', field: 'totalRevisionCost' },
] as const satisfies readonly { key: string; field: keyof CostTotals }[];

interface BoxProps {
  label: string;
  small?: boolean;
  /** Fixed height in px (e.g. horizontal bars growing with their count). */
  height?: number;
}

function boxProps({ small, height }: BoxProps) {
  return {
    className: `chart-box${small ? ' chart-box--small' : ''}`,
    style: height ? { height } : undefined,
  };
}

/** Total cost per month, oldest to newest. */
export function LineChart({ labels, values, label }: { labels: string[]; values: number[]; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng } = useFormat();
  const color = seriesColor(theme, 0);
  return (
    <div {...boxProps({ label })}>
      <Line
        role="img"
        aria-label={label}
        options={cartesianOptions<'line'>(theme, money, { legend: false, lng })}
        data={{
          labels,
          datasets: [
            {
              label: t('analytics.totalCost'),
              data: values,
              borderColor: color,
              backgroundColor: color,
              pointRadius: 3,
              tension: 0.25,
            },
          ],
        }}
      />
    </div>
  );
}

/** One bar group per label, one dataset per cost category (stacked or side by side). */
export function CategoryBarChart({
  labels,
  rows,
  label,
  stacked = false,
  small = false,
}: {
  labels: string[];
  rows: CostTotals[];
  label: string;
  stacked?: boolean;
  small?: boolean;
}) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng } = useFormat();
  return (
    <div {...boxProps({ label, small })}>
      <Bar
        role="img"
        aria-label={label}
        options={cartesianOptions<'bar'>(theme, money, { stacked, lng })}
        data={{
          labels,
          datasets: CATEGORIES.map((c, i) => ({
            label: t(`analytics.${c.key}`),
            data: rows.map((r) => r[c.field]),
            backgroundColor: seriesColor(theme, i),
            borderRadius: 4,
          })),
        }}
      />
    </div>
  );
}

/** One month's cost per category as four bars (no legend: the axis names them). */
export function MonthBarChart({ row, label }: { row: CostTotals; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng } = useFormat();
  return (
    <div {...boxProps({ label, small: true })}>
      <Bar
        role="img"
        aria-label={label}
        options={cartesianOptions<'bar'>(theme, money, { legend: false, lng })}
        data={{
          labels: CATEGORIES.map((c) => t(`analytics.${c.key}`)),
          datasets: [
            {
              label: t('analytics.totalCost'),
              data: CATEGORIES.map((c) => row[c.field]),
              backgroundColor: CATEGORIES.map((_, i) => seriesColor(theme, i)),
              borderRadius: 4,
            },
          ],
        }}
      />
    </div>
  );
}

/** One month's cost split per category. */
export function MonthPieChart({ row, label }: { row: CostTotals; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money } = useFormat();
  return (
    <div {...boxProps({ label, small: true })}>
      <Pie
        role="img"
        aria-label={label}
        options={pieOptions(theme, money)}
        data={{
          labels: CATEGORIES.map((c) => t(`analytics.${c.key}`)),
          datasets: [
            {
              label: t('analytics.totalCost'),
              data: CATEGORIES.map((c) => row[c.field]),
              backgroundColor: CATEGORIES.map((_, i) => seriesColor(theme, i)),
              borderColor: theme.surface,
              borderWidth: 2,
            },
          ],
        }}
      />
    </div>
  );
}

export interface Series {
  label: string;
  values: (number | null)[];
}

/** Stacked bars with one dataset per series (user analytics: one per vehicle), legible on a phone. */
export function SeriesBarChart({
  labels,
  series,
  label,
}: {
  labels: string[];
  series: Series[];
  label: string;
}) {
  const theme = useChartTheme();
  const { money, lng } = useFormat();
  return (
    <div {...boxProps({ label })}>
      <Bar
        role="img"
        aria-label={label}
        options={cartesianOptions<'bar'>(theme, money, { stacked: true, lng })}
        data={{
          labels,
          datasets: series.map((s, i) => ({
            label: s.label,
            data: s.values,
            backgroundColor: seriesColor(theme, i),
            borderRadius: 4,
          })),
        }}
      />
    </div>
  );
}

/** Horizontal bars of one total per name (admin: per owner, per vehicle); grows with the count. */
export function TotalsBarChart({
  labels,
  values,
  label,
  colorIndex = 0,
}: {
  labels: string[];
  values: number[];
  label: string;
  colorIndex?: number;
}) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng } = useFormat();
  const height = Math.max(180, 48 + labels.length * 36);
  return (
    <div {...boxProps({ label, height })}>
      <Bar
        role="img"
        aria-label={label}
        options={cartesianOptions<'bar'>(theme, money, { horizontal: true, legend: false, lng })}
        data={{
          labels,
          datasets: [
            {
              label: t('analytics.totalCost'),
              data: values,
              backgroundColor: seriesColor(theme, colorIndex),
              borderRadius: 4,
              maxBarThickness: 28,
            },
          ],
        }}
      />
    </div>
  );
}
