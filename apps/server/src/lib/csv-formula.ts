/**
 * Spreadsheet formulas in CSV cells (OWASP "CSV injection"): Excel and LibreOffice run a cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so every text cell the app
 * writes that begins so gets a single quote in front (`=HYPERLINK(…)` → `'=HYPERLINK(…)`).
 *
 * A text that already begins with quotes and then one of those characters (`'=x`) gets one more
 * quote too, so the guard can be undone exactly: `unguardFormula` takes one quote off every cell
 * that begins with quotes and then a formula character, and nothing off any other.
 */
const GUARDED = /^'*[=+\-@\t\r]/;
const UNGUARD = /^'+[=+\-@\t\r]/;

/** A text cell as written to a CSV: quoted in front when a spreadsheet would read a formula. */
export const guardFormula = (text: string) => (GUARDED.test(text) ? `'${text}` : text);

/** A cell of this app's own export as it was typed: the guard's quote taken off again. */
export const unguardFormula = (cell: string) => (UNGUARD.test(cell) ? cell.slice(1) : cell);
