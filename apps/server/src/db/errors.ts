import { UniqueViolation } from '../lib/errors.js';

/** Name of the unique constraint or index a write violated, if that is why it failed. */
export function uniqueViolation(err: unknown): string | undefined {
  for (
    let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e instanceof UniqueViolation) return e.constraint;
    if (e.code === '23505') return e.constraint ?? '';
  }
  return undefined;
}

/** Awaits a repo's write, reporting a unique-constraint violation as the domain's UniqueViolation. */
export async function uniqueChecked<T>(write: PromiseLike<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint !== undefined && !(err instanceof UniqueViolation))
      throw new UniqueViolation(constraint, { cause: err });
    throw err;
  }
}

/** The SQLSTATE of a database error, looking through wrappers (Drizzle's DrizzleQueryError). */
export function sqlState(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e) return e.code;
  }
  return undefined;
}

/**
 * Database errors a client's input can cause, as the answer they deserve: a value PostgreSQL cannot
 * take (class 22: out of range, bad date, NUL byte, bad encoding) is the request's fault, not ours.
 */
export function clientFaultOf(err: unknown): { status: number; message: string } | undefined {
  const state = sqlState(err);
  if (!state) return undefined;
  if (state.startsWith('22')) return { status: 400, message: 'A value is out of range or not valid.' };
  if (state === '23505') return { status: 409, message: 'This conflicts with an existing entry.' };
  if (state === '54001') return { status: 400, message: 'The request is nested too deeply.' };
  return undefined;
}

/** Network failures on the way to the database (Node's codes). */
const LINK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres' own words for a connection that ended, never came, or stopped answering. */
const LINK_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed)/;

/**
 * True when a request failed because the database cannot be reached right now (down, restarting,
 * out of connections, too slow to answer), not because of the request: the answer is 503 with
 * Retry-After, and the same request succeeds once the database is back. SQLSTATE class 08
 * (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
 * connections).
 */
export function databaseUnavailable(err: unknown): boolean {
  const state = sqlState(err);
  if (state && (state.startsWith('08') || /^57P0[123]$/.test(state) || state === '53300')) return true;
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined,
      i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    // An outbound HTTP call that failed (push, LLM) is not the database.
    if (isFetchFailure(e)) return false;
    if (typeof e.code === 'string' && LINK_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && LINK_MESSAGES.test(e.message)) return true;
    // Node's AggregateError when every address of a host refused (IPv6 and IPv4 localhost).
    if (Array.isArray(e.errors) && e.errors.some((inner) => databaseUnavailable(inner))) return true;
  }
  return false;
}

const isFetchFailure = (err: unknown) => err instanceof TypeError && err.message === 'fetch failed';
