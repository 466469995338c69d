import type { ReactNode } from 'react';

export interface Column<R> {
  label: string;
  /** Right-aligned, tabular figures (class `num`). */
  numeric?: boolean;
  cell: (row: R) => ReactNode;
}

/**
 * A table with a (visually hidden) caption. With `rowHeaders` the first column names each row
 * (`<th scope="row">`). Below 900 px the global `.table` styles stack each row as a card, every
 * cell repeating its column's label (`data-label`).
 */
export function DataTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  rowHeaders = false,
  className,
}: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
  rowHeaders?: boolean;
  /** Extra class on the table (e.g. `table--records`). */
  className?: string;
}) {
  return (
    <div className="table-wrap">
      <table className={`table${className ? ` ${className}` : ''}`}>
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
              {columns.map((c, i) => {
                const Cell = rowHeaders && i === 0 ? 'th' : 'td';
                return (
                  <Cell
                    key={c.label}
                    scope={Cell === 'th' ? 'row' : undefined}
                    className={c.numeric ? 'num' : undefined}
                    data-label={c.label}
                  >
                    {c.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
