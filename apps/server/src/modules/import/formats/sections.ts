import { normalize } from '../locale.js';
import type { CsvFile, CsvRow } from '../read.js';

/** A section of a multi-section export (Fuelio, Drivvo): its title, header row and rows. */
export type Section = { title: string; header: CsvRow; rows: CsvRow[] };

const TITLE = /^##\s*(.+)$/;

/** True when a first cell opens a section (`## Log`, `##Refuelling`). */
export const isSectionTitle = (cells: string[]) =>
  TITLE.test(cells[0] ?? '') && cells.slice(1).every((c) => !c);

/** Splits a file at its `##` title rows; each section's first row is its header. */
export function sections(file: CsvFile): Section[] {
  const out: Section[] = [];
  let current: { title: string; rows: CsvRow[] } | undefined;
  const close = () => {
    const [header, ...rows] = current?.rows ?? [];
    if (current && header) out.push({ title: current.title, header, rows });
  };
  for (const row of file.rows) {
    const m = isSectionTitle(row.cells) ? TITLE.exec(row.cells[0] ?? '') : null;
    if (m) {
      close();
      current = { title: normalize(m[1] ?? ''), rows: [] };
    } else current?.rows.push(row);
  }
  close();
  return out;
}
