/**
 * Stand-in for react-chartjs-2 in component tests (jsdom has no canvas): each chart renders its
 * data as a list named like the canvas, one item per dataset value ("{dataset}: {label} = {value}").
 * Use with `vi.mock('react-chartjs-2', () => import('…/test/chartMock'))`.
 */
interface MockChartProps {
  'aria-label'?: string;
  data: { labels?: unknown[]; datasets: { label?: string; data: unknown[] }[] };
}

function MockChart({ 'aria-label': label, data }: MockChartProps) {
  return (
    <ul aria-label={label} data-testid="chart">
      {data.datasets
        .flatMap((ds) =>
          ds.data.map((value, i) => `${ds.label ?? ''}: ${String(data.labels?.[i] ?? i)} = ${String(value)}`),
        )
        .map((text) => (
          <li key={text}>{text}</li>
        ))}
    </ul>
  );
}

export const Bar = MockChart;
export const Line = MockChart;
export const Pie = MockChart;
