import type { CurrencyCode } from '@evdra/domain';
import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
  type TooltipItem,
} from 'chart.js';
import { useEffect, useState } from 'react';
import { formatMoneyWhole } from '../../lib/format';

// Only what the analytics screens draw (bar, line, pie), so the rest of chart.js is tree-shaken.
// This module is imported by the lazy analytics pages only: chart.js stays out of the initial bundle.
ChartJS.register(
  CategoryScale,
  LinearScale,
  BarElement,
  LineElement,
  PointElement,
  ArcElement,
  Tooltip,
  Legend,
);

export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  /** Series colours (--chart-1 … --chart-6). */
  series: string[];
}

const FALLBACK_SERIES = ['#1f56c3', '#c2410c', '#15803d', '#9333ea', '#0e7490', '#b91c1c'];

function readTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--color-text', '#1a1f27'),
    muted: v('--color-muted', '#56606e'),
    grid: v('--chart-grid', 'rgba(16, 24, 40, 0.1)'),
    surface: v('--color-surface', '#ffffff'),
    series: FALLBACK_SERIES.map((c, i) => v(`--chart-${i + 1}`, c)),
  };
}

/**
 * Chart colours from the body's CSS custom properties; a new theme (hence a chart update) whenever
 * the `dark-mode` body class is toggled.
 */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    setTheme(readTheme());
    const observer = new MutationObserver(() => setTheme(readTheme()));
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/** The colour of the n-th series (vehicles cycle through the palette). */
export const seriesColor = (theme: ChartTheme, i: number) => theme.series[i % theme.series.length] as string;

type Money = (value: number) => string;

/** Bar or line chart options: responsive inside a sized box, themed axes, tooltips in the reader's currency. */
export function cartesianOptions<T extends 'bar' | 'line'>(
  theme: ChartTheme,
  money: Money,
  {
    stacked = false,
    horizontal = false,
    legend = true,
    lng = 'en',
    currency = 'EUR',
  }: {
    stacked?: boolean;
    horizontal?: boolean;
    legend?: boolean;
    lng?: string;
    currency?: CurrencyCode;
  } = {},
): ChartOptions<T> {
  // Axis ticks in whole units of the currency (compact on a phone); tooltips keep two decimals.
  const valueAxis = {
    stacked,
    beginAtZero: true,
    ticks: {
      color: theme.muted,
      callback: (v: number | string) => formatMoneyWhole(Number(v), lng, currency),
    },
    grid: { color: theme.grid },
    border: { color: theme.grid },
  };
  // Long names (admin: "Make Model · owner") are shortened on the axis; the tooltip shows them whole.
  const maxLabel = typeof window !== 'undefined' && window.innerWidth < 600 ? 14 : 30;
  const categoryAxis = {
    stacked,
    ticks: {
      color: theme.muted,
      autoSkip: true,
      maxRotation: 45,
      callback(this: { getLabelForValue: (v: number) => string }, value: number | string) {
        const label = String(this.getLabelForValue(Number(value)));
        return label.length > maxLabel ? `${label.slice(0, maxLabel - 1)}…` : label;
      },
    },
    grid: { display: false },
    border: { color: theme.grid },
  };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    indexAxis: horizontal ? 'y' : 'x',
    interaction: { mode: 'nearest', intersect: false },
    plugins: {
      legend: { display: legend, labels: { color: theme.text, boxWidth: 14 } },
      tooltip: {
        callbacks: {
          label: (ctx: { dataset: { label?: string }; parsed: unknown }) => {
            const parsed = ctx.parsed as { x: number; y: number };
            const value = horizontal ? parsed.x : parsed.y;
            return `${ctx.dataset.label ?? ''}: ${money(value ?? 0)}`;
          },
        },
      },
    },
    scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
    // One builder for both chart types; chart.js's per-type option unions do not overlap statically.
  } as unknown as ChartOptions<T>;
}

export function pieOptions(theme: ChartTheme, money: Money): ChartOptions<'pie'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: {
      legend: { position: 'bottom', labels: { color: theme.text, boxWidth: 12 } },
      tooltip: {
        callbacks: { label: (ctx: TooltipItem<'pie'>) => `${ctx.label}: ${money(Number(ctx.parsed))}` },
      },
    },
  };
}
