import type { TFunction } from 'i18next';
import type { Column } from '../../../components/DataTable';

export type CostColumn<R> = Column<R>;
export { DataTable as CostTable } from '../../../components/DataTable';

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
