import Papa from 'papaparse';
import { AppError } from '../../lib/errors.js';
import { inflateEntry, type ZipEntry, ZipTooLarge, ZipUnreadable, zipEntries } from '../../lib/zip.js';
import { type ImportLimit, importLimitText } from './messages.js';

/** One CSV file of an upload (a ZIP may hold several: LubeLogger exports one per record type). */
export type CsvFile = { name: string; rows: CsvRow[] };
/** A parsed line: its 1-based line number in the file and its cells, trimmed. */
export type CsvRow = { line: number; cells: string[] };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** What one upload may hold (issue 49): refused with 413 beyond, before the work they would cost. */
export const IMPORT_LIMITS = {
  /** Entries of a ZIP, whatever they are. */
  zipEntries: 50,
  /** Bytes of a ZIP's entries once inflated, in all (as declared, and as inflated). */
  zipInflatedBytes: 100_000_000,
  /** Data rows (below each file's header row) of all the upload's CSVs together. */
  rows: 200_000,
};

/** An upload over one of IMPORT_LIMITS: 413, as a file over 20 MB is, the file named as the field at fault. */
export class ImportTooLarge extends AppError {
  constructor(
    readonly limit: ImportLimit,
    message = importLimitText('en', limit),
  ) {
    super(413, 'PAYLOAD_TOO_LARGE', message, [{ field: 'file', message }]);
  }
}

export const notCsv = () =>
  new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'This file is not a CSV file (or a ZIP holding one). Export your history as CSV and try again.',
  );
export const noRows = () =>
  new AppError(422, 'UNREADABLE_IMPORT', 'No records could be read from this file.');

/** The entries of a ZIP an import reads: CSV or text files, not macOS's resource forks. */
const isCsvEntry = (e: ZipEntry) => /\.(csv|txt)$/i.test(e.name) && !e.name.startsWith('__MACOSX/');

/**
 * The CSV files of an upload: the file itself, or every `.csv` inside a ZIP. Refuses (415) bytes that
 * are not text (an image, a PDF, a spreadsheet), and (413) a ZIP over IMPORT_LIMITS, from its
 * directory before anything is inflated, or as soon as an entry inflates past the size it declared;
 * and CSVs with more than IMPORT_LIMITS.rows data rows in all, as soon as the reader meets one more.
 */
export function readUpload(bytes: Buffer, name = 'upload.csv'): CsvFile[] {
  if (!isZip(bytes)) return [parseCsv(decodeText(bytes), name)];
  const zip = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  try {
    const entries = zipEntries(zip, ZIP_LIMITS)
      .filter(isCsvEntry)
      .sort((a, b) => a.name.localeCompare(b.name));
    if (entries.length === 0) throw notCsv();
    let rowsLeft = IMPORT_LIMITS.rows;
    return entries.map((e) => {
      // One entry inflated at a time, and let go once read.
      const file = parseCsv(decodeText(inflateEntry(zip, e)), e.name, rowsLeft);
      rowsLeft -= dataRows(file);
      return file;
    });
  } catch (err) {
    if (err instanceof ZipTooLarge) throw new ImportTooLarge(ZIP_LIMIT[err.limit]);
    if (err instanceof ZipUnreadable) throw notCsv();
    throw err;
  }
}

/**
 * Refuses (413) a ZIP whose directory alone is over IMPORT_LIMITS. Nothing is inflated, so the
 * server checks this before an upload waits for the import's thread; a damaged ZIP passes here
 * and is answered 415 by readUpload.
 */
export function refuseOversizedZip(bytes: Uint8Array) {
  if (!isZip(bytes)) return;
  try {
    zipEntries(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), ZIP_LIMITS);
  } catch (err) {
    if (err instanceof ZipTooLarge) throw new ImportTooLarge(ZIP_LIMIT[err.limit]);
  }
}

const isZip = (bytes: Uint8Array) => ZIP_MAGIC.every((b, i) => bytes[i] === b);
const ZIP_LIMITS = { maxEntries: IMPORT_LIMITS.zipEntries, maxInflatedBytes: IMPORT_LIMITS.zipInflatedBytes };
const ZIP_LIMIT = { entries: 'ZIP_ENTRIES', inflated: 'ZIP_INFLATED', undeclared: 'ZIP_UNDECLARED' } as const;
const dataRows = (file: CsvFile) => Math.max(0, file.rows.length - 1);

/** UTF-8 (BOM dropped) or UTF-16 with a BOM; anything holding NUL or control bytes is not a CSV. */
export function decodeText(bytes: Buffer): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = bytes.subarray(2).toString('utf16le');
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    text = Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  else text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A text file has no NUL and few other control characters (tab, CR, LF aside).
  const sample = text.slice(0, 8192);
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 9 || (code > 13 && code < 32)) controls++;
  }
  if (sample.includes('\u0000') || controls > sample.length / 100 || sample.includes('\ufffd\ufffd'))
    throw notCsv();
  return text;
}

/**
 * Drivvo repeats a header with a digit after its closing quote (`"Full tank" 2`), which strict CSV
 * readers reject: the digit moves inside the quotes (`"Full tank 2"`) before parsing.
 */
const QUOTE_THEN_DIGIT = /(^|[,;\t])"([^"\r\n]*)"[ \t]*(\d+)(?=[ \t]*(?:[,;\t]|\r?\n|$))/gm;

/**
 * Parses CSV text with papaparse: delimiter detected (`,` `;` tab `|`), CRLF or LF, blank lines
 * dropped. Refuses (413) a file with more than `maxRows` data rows, as soon as it meets the next one.
 */
export function parseCsv(text: string, name: string, maxRows = IMPORT_LIMITS.rows): CsvFile {
  const fixed = text.replace(QUOTE_THEN_DIGIT, '$1"$2 $3"');
  // papaparse guesses the delimiter from the first lines, blank ones left out (a trailing blank line
  // would otherwise spoil the guess); the whole file is then read with it, blank lines kept for line numbers.
  const { delimiter } = Papa.parse<string[]>(fixed, {
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
    preview: 50,
  }).meta;
  const rows: CsvRow[] = [];
  let line = 1;
  // Row by row (step), so a file over the limit stops being read at its first row too many.
  Papa.parse<string[]>(fixed, {
    delimiter: delimiter || ',',
    skipEmptyLines: false,
    step: ({ data: raw }, parser) => {
      const cells = raw.map((c) => (c ?? '').trim());
      const current = line;
      line += 1 + raw.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
      if (cells.every((c) => c === '')) return;
      if (rows.length > maxRows) {
        parser.abort();
        throw new ImportTooLarge('ROWS');
      }
      rows.push({ line: current, cells });
    },
  });
  return { name, rows };
}
