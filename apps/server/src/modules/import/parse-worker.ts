import { parentPort } from 'node:worker_threads';
import type { CurrencyCode, FuelType, ImportMapping } from '@evdra/domain';
import { AppError } from '../../lib/errors.js';
import type { ExistingKeys } from './keys.js';
import { parseImport } from './parse.js';
import { previewPlan, type Reading } from './plan.js';
import { ImportTooLarge } from './read.js';

/**
 * The import's reading thread (parse-thread.ts starts it): unzips, decodes and parses one upload
 * at a time, off the server's event loop; for a preview, also weighs the records against the
 * vehicle's (plan.ts), so only the figures and a sample go back. Long lists go back in slices, so
 * the server's thread takes them in a few milliseconds at a time instead of one long copy.
 */
export type ParseRequest = {
  id: number;
  bytes: Uint8Array;
  fuelType: FuelType;
  /** The vehicle's second fuel (issue 51). */
  secondaryFuelType?: FuelType | null;
  mapping?: ImportMapping;
  /** The importer's currency: amounts whose currency neither the file nor `mapping` names are in it. */
  currency: CurrencyCode;
  /** For a preview: the vehicle's duplicate keys, odometer readings and owner's currency. */
  against?: { existing: ExistingKeys; readings: Reading[]; ownerCurrency?: CurrencyCode };
};
export type ParseReply =
  | { id: number; list: string; items: unknown[] }
  | { id: number; done: Record<string, unknown> }
  | { id: number; failed: FailedParse };
/** An error as it crosses threads (a class does not): enough to throw the same answer again. */
export type FailedParse = {
  statusCode?: number;
  code?: AppError['code'];
  message: string;
  details?: unknown;
  limit?: ImportTooLarge['limit'];
};

/** Records per message: each costs the server's thread about a millisecond to take in. */
const SLICE = 2000;

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread');

port.on('message', ({ id, bytes, fuelType, secondaryFuelType, mapping, currency, against }: ParseRequest) => {
  let result: Record<string, unknown>;
  try {
    const parsed = parseImport(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
      fuelType,
      mapping,
      currency,
      secondaryFuelType ?? null,
    );
    result = against
      ? previewPlan(parsed, against.existing, against.readings, against.ownerCurrency)
      : parsed;
  } catch (err) {
    port.postMessage({ id, failed: failure(err) } satisfies ParseReply);
    return;
  }
  const done: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (!Array.isArray(value) || value.length <= SLICE) done[key] = value;
    else
      for (let i = 0; i < value.length; i += SLICE)
        port.postMessage({ id, list: key, items: value.slice(i, i + SLICE) } satisfies ParseReply);
  }
  port.postMessage({ id, done } satisfies ParseReply);
});

function failure(err: unknown): FailedParse {
  if (err instanceof ImportTooLarge)
    return { statusCode: err.statusCode, code: err.code, message: err.message, limit: err.limit };
  if (err instanceof AppError)
    return { statusCode: err.statusCode, code: err.code, message: err.message, details: err.details };
  return { message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
