import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

export interface CostColumn<R> {
  label: string;
  /** Right-aligned (class `num`). */
  numeric?: boolean;
  cell: (row: R) => ReactNode;
}

/** A row's cost per category and in total. */
export interface Costs {
  fuel: number;
  expenses: number;
  insurance: number;
  revisions: number;
  total: number;
}

/** The Fuel, Expenses, Insurance, Revisions and (bold) Total columns, in euros. */
export function costColumns<R>(
  t: TFunction,
  money: (value: number) => string,
  costs: (row: R) => Costs,
): CostColumn<R>[] {
  return [
    ...(['fuel', 'expenses', 'insurance', 'revisions'] as const).map((key) => ({
      label: t(`analytics.${key}`),
      numeric: true,
      cell: (row: R) => money(costs(row)[key]),
    })),
    {
      label: t('analytics.total'),
      numeric: true,
      cell: (row: R) => <strong>{money(costs(row).total)}</strong>,
    },
  ];
}

/** A cost table; each cell repeats its column's label (`data-label`) for the stacked phone layout. */
export function CostTable<R>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: CostColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.label} className={c.numeric ? 'num' : undefined} data-label={c.label}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
