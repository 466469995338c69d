import type { CostTotals, CurrencyCode } from '@evdra/domain';
import type { ChartData, ChartOptions } from 'chart.js';
import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import { Bar, Line, Pie } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { type ChartTheme, cartesianOptions, pieOptions, seriesColor, useChartTheme } from '../charts';

/** The four cost categories, in chart order, with their totals' field. */
export const CATEGORIES = [
  { key: 'fuel', field: 'totalFuelCost' },
  { key: 'expenses', field: 'totalExpensesCost' },
  { key: 'insurance', field: 'totalInsuranceCost' },
  { key: 'revisions', field: 'totalRevisionCost' },
] as const satisfies readonly { key: string; field: keyof CostTotals }[];

type ChartKind = 'bar' | 'line' | 'pie';
type ChartValues = (number | null)[];

const CHARTS = { bar: Bar, line: Line, pie: Pie };

interface ChartFrameProps<K extends ChartKind> {
  type: K;
  /** The chart's accessible name (it is an image). */
  label: string;
  small?: boolean;
  /** Fixed height in px (e.g. horizontal bars growing with their count). */
  height?: number;
  options: ChartOptions<K>;
  data: ChartData<K, ChartValues, string>;
}

/** A chart drawn as an image named `label`, inside its sized box. */
function ChartFrame<K extends ChartKind>({ type, label, small, height, options, data }: ChartFrameProps<K>) {
  // Bar, Line and Pie take the same props for their own kind; a union of them cannot be called as one.
  const Chart = CHARTS[type] as unknown as ComponentType<{
    role: string;
    'aria-label': string;
    options: ChartOptions<K>;
    data: ChartData<K, ChartValues, string>;
  }>;
  return (
    <div className={`chart-box${small ? ' chart-box--small' : ''}`} style={height ? { height } : undefined}>
      <Chart role="img" aria-label={label} options={options} data={data} />
    </div>
  );
}

/** Total cost per month, oldest to newest. */
export function LineChart({ labels, values, label }: { labels: string[]; values: number[]; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng, currency } = useFormat();
  const color = seriesColor(theme, 0);
  return (
    <ChartFrame
      type="line"
      label={label}
      options={cartesianOptions<'line'>(theme, money, { legend: false, lng, currency })}
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
  );
}

/** One bar group per label, one dataset per cost category (stacked or side by side). */
export function CategoryBarChart({
  labels,
  rows,
  label,
  stacked = false,
  small = false,
  currency: answerCurrency,
}: {
  labels: string[];
  rows: CostTotals[];
  label: string;
  stacked?: boolean;
  small?: boolean;
  /** The answer's currency (an admin's totals are in the instance's); the reader's when not given. */
  currency?: CurrencyCode;
}) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const f = useFormat();
  const lng = f.lng;
  const currency = answerCurrency ?? f.currency;
  const money = (v: number) => f.money(v, currency);
  return (
    <ChartFrame
      type="bar"
      label={label}
      small={small}
      options={cartesianOptions<'bar'>(theme, money, { stacked, lng, currency })}
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
  );
}

/** One month's totals as one dataset of four values, named and coloured by category. */
function categoryData(row: CostTotals, t: TFunction, theme: ChartTheme) {
  return {
    labels: CATEGORIES.map((c) => t(`analytics.${c.key}`)),
    dataset: {
      label: t('analytics.totalCost'),
      data: CATEGORIES.map((c) => row[c.field]),
      backgroundColor: CATEGORIES.map((_, i) => seriesColor(theme, i)),
    },
  };
}

/** One month's cost per category as four bars (no legend: the axis names them). */
export function MonthBarChart({ row, label }: { row: CostTotals; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money, lng, currency } = useFormat();
  const { labels, dataset } = categoryData(row, t, theme);
  return (
    <ChartFrame
      type="bar"
      label={label}
      small
      options={cartesianOptions<'bar'>(theme, money, { legend: false, lng, currency })}
      data={{
        labels,
        datasets: [{ ...dataset, borderRadius: 4 }],
      }}
    />
  );
}

/** One month's cost split per category. */
export function MonthPieChart({ row, label }: { row: CostTotals; label: string }) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const { money } = useFormat();
  const { labels, dataset } = categoryData(row, t, theme);
  return (
    <ChartFrame
      type="pie"
      label={label}
      small
      options={pieOptions(theme, money)}
      data={{
        labels,
        datasets: [{ ...dataset, borderColor: theme.surface, borderWidth: 2 }],
      }}
    />
  );
}

export interface Series {
  label: string;
  values: (number | null)[];
  /** Said after each value's amount in its tooltip (a fuel's quantity: "170.00 L"). */
  details?: (string | null)[];
}

/** Stacked bars with one dataset per series (user analytics: one per vehicle), legible on a phone. */
export function SeriesBarChart({
  labels,
  series,
  label,
  currency: answerCurrency,
}: {
  labels: string[];
  series: Series[];
  label: string;
  /** The answer's currency; the reader's when not given. */
  currency?: CurrencyCode;
}) {
  const theme = useChartTheme();
  const f = useFormat();
  const currency = answerCurrency ?? f.currency;
  const money = (v: number) => f.money(v, currency);
  const base = cartesianOptions<'bar'>(theme, money, { stacked: true, lng: f.lng, currency });
  const options = series.some((s) => s.details)
    ? ({
        ...base,
        plugins: {
          ...base.plugins,
          tooltip: {
            callbacks: {
              label: (ctx: {
                datasetIndex: number;
                dataIndex: number;
                dataset: { label?: string };
                parsed: { y: number | null };
              }) => {
                const detail = series[ctx.datasetIndex]?.details?.[ctx.dataIndex];
                const amount = `${ctx.dataset.label ?? ''}: ${money(ctx.parsed.y ?? 0)}`;
                return detail ? `${amount} · ${detail}` : amount;
              },
            },
          },
        },
      } as unknown as ChartOptions<'bar'>)
    : base;
  return (
    <ChartFrame
      type="bar"
      label={label}
      options={options}
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
  );
}

/** Horizontal bars of one total per name (admin: per owner, per vehicle); grows with the count. */
export function TotalsBarChart({
  labels,
  values,
  label,
  colorIndex = 0,
  currency: answerCurrency,
}: {
  labels: string[];
  values: number[];
  label: string;
  colorIndex?: number;
  /** The answer's currency (an admin's totals are in the instance's); the reader's when not given. */
  currency?: CurrencyCode;
}) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const f = useFormat();
  const lng = f.lng;
  const currency = answerCurrency ?? f.currency;
  const money = (v: number) => f.money(v, currency);
  const height = Math.max(180, 48 + labels.length * 36);
  return (
    <ChartFrame
      type="bar"
      label={label}
      height={height}
      options={cartesianOptions<'bar'>(theme, money, { horizontal: true, legend: false, lng, currency })}
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
  );
}

/**
 * Consumption over time, one line per fuel (issue 51): `series` each a fuel's name and its figures
 * (null where none closed), read with `format` (the figure and its unit: "9.8 L/100 km").
 */
export function FuelLinesChart({
  labels,
  series,
  label,
}: {
  labels: string[];
  series: { name: string; values: (number | null)[]; format: (v: number) => string }[];
  label: string;
}) {
  const theme = useChartTheme();
  const { money, lng, currency } = useFormat();
  const base = cartesianOptions<'line'>(theme, money, { legend: true, lng, currency });
  const byName = new Map(series.map((s) => [s.name, s.format]));
  const options = {
    ...base,
    scales: {
      ...base.scales,
      y: {
        ...base.scales?.y,
        ticks: { color: theme.muted, callback: (v: number | string) => Number(v).toLocaleString(lng) },
      },
    },
    plugins: {
      ...base.plugins,
      tooltip: {
        callbacks: {
          label: (ctx: { dataset: { label?: string }; parsed: { y: number | null } }) => {
            const name = ctx.dataset.label ?? '';
            const value = ctx.parsed.y;
            return `${name}: ${value === null ? '—' : (byName.get(name)?.(value) ?? String(value))}`;
          },
        },
      },
    },
  } as unknown as ChartOptions<'line'>;
  return (
    <ChartFrame
      type="line"
      label={label}
      options={options}
      data={{
        labels,
        datasets: series.map((s, i) => ({
          label: s.name,
          data: s.values,
          borderColor: seriesColor(theme, i),
          backgroundColor: seriesColor(theme, i),
          pointRadius: 3,
          spanGaps: true,
          tension: 0.25,
        })),
      }}
    />
  );
}
