import { parentPort } from 'node:worker_threads';
import type { FuelType, ImportMapping } from '@evdra/domain';
import { AppError } from '../../lib/errors.js';
import type { Parsed } from './collect.js';
import { parseImport } from './parse.js';
import { ImportTooLarge } from './read.js';

/**
 * The import's reading thread (parse-thread.ts starts it): unzips, decodes and parses one upload
 * at a time, off the server's event loop. Answers the records in slices, so the server's thread
 * takes them in a few milliseconds at a time instead of one long copy.
 */
export type ParseRequest = { id: number; bytes: Uint8Array; fuelType: FuelType; mapping?: ImportMapping };
export type ParseListKey = (typeof LISTS)[number];
export type ParseReply =
  | { id: number; list: ParseListKey; items: unknown[] }
  | { id: number; done: Omit<Parsed, ParseListKey> }
  | { id: number; failed: FailedParse };
/** An error as it crosses threads (a class does not): enough to throw the same answer again. */
export type FailedParse = {
  statusCode?: number;
  code?: AppError['code'];
  message: string;
  details?: unknown;
  limit?: ImportTooLarge['limit'];
};

const LISTS = ['fuel', 'expenses', 'revisions', 'insurance', 'warnings', 'errors'] as const;
/** Records per message: each costs the server's thread about a millisecond to take in. */
const SLICE = 2000;

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread');

port.on('message', ({ id, bytes, fuelType, mapping }: ParseRequest) => {
  let parsed: Parsed;
  try {
    parsed = parseImport(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), fuelType, mapping);
  } catch (err) {
    port.postMessage({ id, failed: failure(err) } satisfies ParseReply);
    return;
  }
  const { fuel, expenses, revisions, insurance, warnings, errors, ...rest } = parsed;
  const lists: Record<ParseListKey, unknown[]> = { fuel, expenses, revisions, insurance, warnings, errors };
  for (const list of LISTS)
    for (let i = 0; i < lists[list].length; i += SLICE)
      port.postMessage({ id, list, items: lists[list].slice(i, i + SLICE) } satisfies ParseReply);
  port.postMessage({ id, done: rest } satisfies ParseReply);
});

function failure(err: unknown): FailedParse {
  if (err instanceof ImportTooLarge)
    return { statusCode: err.statusCode, code: err.code, message: err.message, limit: err.limit };
  if (err instanceof AppError)
    return { statusCode: err.statusCode, code: err.code, message: err.message, details: err.details };
  return { message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
