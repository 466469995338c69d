import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import { AppError } from '../../lib/errors.js';

/** One CSV file of an upload (a ZIP may hold several: LubeLogger exports one per record type). */
export type CsvFile = { name: string; rows: CsvRow[] };
/** A parsed line: its 1-based line number in the file and its cells, trimmed. */
export type CsvRow = { line: number; cells: string[] };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export const notCsv = () =>
  new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'This file is not a CSV file (or a ZIP holding one). Export your history as CSV and try again.',
  );
export const noRows = () =>
  new AppError(422, 'UNREADABLE_IMPORT', 'No records could be read from this file.');

/**
 * The CSV files of an upload: the file itself, or every `.csv` inside a ZIP. Refuses (415) bytes that
 * are not text (an image, a PDF, a spreadsheet).
 */
export function readUpload(bytes: Buffer, name = 'upload.csv'): CsvFile[] {
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), {
        filter: (f) =>
          /\.(csv|txt)$/i.test(f.name) && !f.name.startsWith('__MACOSX/') && f.originalSize < 64 << 20,
      });
    } catch {
      throw notCsv();
    }
    const files = Object.entries(entries)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([entry, data]) => parseCsv(decodeText(Buffer.from(data)), entry));
    if (files.length === 0) throw notCsv();
    return files;
  }
  return [parseCsv(decodeText(bytes), name)];
}

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

/** Parses CSV text with papaparse: delimiter detected (`,` `;` tab `|`), CRLF or LF, blank lines dropped. */
export function parseCsv(text: string, name: string): CsvFile {
  const fixed = text.replace(QUOTE_THEN_DIGIT, '$1"$2 $3"');
  // papaparse guesses the delimiter from the first lines, blank ones left out (a trailing blank line
  // would otherwise spoil the guess); the whole file is then read with it, blank lines kept for line numbers.
  const { delimiter } = Papa.parse<string[]>(fixed, {
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
    preview: 50,
  }).meta;
  const result = Papa.parse<string[]>(fixed, { delimiter: delimiter || ',', skipEmptyLines: false });
  const rows: CsvRow[] = [];
  let line = 1;
  for (const raw of result.data) {
    const cells = raw.map((c) => (c ?? '').trim());
    const current = line;
    line += 1 + raw.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
    if (cells.every((c) => c === '')) continue;
    rows.push({ line: current, cells });
  }
  return { name, rows };
}
