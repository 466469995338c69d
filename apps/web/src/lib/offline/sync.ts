import {
  addIssue,
  claimEntry,
  clearSendingFlags,
  type Effect,
  finishEntry,
  followUp,
  listEntries,
  putEntry,
} from './queue';
import { API_BASE, type QueueEntry, type StoredEntry } from './types';

/** The request side of the sync engine: `api()` in the app, a fake in unit tests. */
export type Send = (
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> },
) => Promise<unknown>;

/** The parts of an `ApiError` the engine looks at (status 0 = no answer). */
interface ErrorLike {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  rawDetails?: unknown;
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;

/** 1 s, 2 s, 4 s … up to 60 s, with up to 20 % jitter so tabs and devices spread out. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + 0.2 * random()));
}

export type Outcome = 'retry' | 'conflict' | 'failed' | 'gone';

/**
 * What to do with an entry the server did not accept:
 * - no answer, 5xx, 408, 429, a 401 the refresh could not fix, or the server still working on the
 *   first request with this Idempotency-Key (409 CONFLICT on a create): keep it, retry later;
 * - 409 on an update or delete: someone changed the row meanwhile, the user chooses;
 * - 404 on a delete: already gone, done;
 * - any other 4xx: it can never succeed: drop it and tell the user.
 */
export function classify(entry: Pick<StoredEntry, 'type'>, err: unknown): Outcome {
  const e = (err ?? {}) as ErrorLike;
  const status = typeof e.status === 'number' ? e.status : 0;
  if (status === 0 || status >= 500 || status === 408 || status === 429 || status === 401) return 'retry';
  if (status === 409 && entry.type === 'create') return 'retry';
  if (status === 409) return 'conflict';
  if (status === 404 && entry.type === 'delete') return 'gone';
  return 'failed';
}

export interface RunResult {
  sent: number;
  /** Epoch ms of the next retry when the run stopped on a retryable failure. */
  retryAt: number | null;
  conflicts: number;
  failed: number;
}

function requestFor(entry: StoredEntry): {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
} {
  const base = API_BASE[entry.kind];
  if (entry.type === 'create')
    return {
      method: 'POST',
      path: base,
      body: entry.payload,
      headers: { 'Idempotency-Key': entry.idempotencyKey },
    };
  if (entry.type === 'update') {
    // Vehicles always need a version; records send one when the edit was based on a loaded row.
    const body =
      entry.kind === 'vehicle'
        ? { ...entry.payload, version: entry.baseVersion ?? 0 }
        : entry.baseVersion !== null
          ? { ...entry.payload, version: entry.baseVersion }
          : entry.payload;
    return { method: 'PUT', path: `${base}/${entry.targetId}`, body };
  }
  return { method: 'DELETE', path: `${base}/${entry.targetId}` };
}

/** Every field of `payload` equals the server row's (strings compared case-insensitively: the
 * server normalises e.g. registration numbers to upper case). */
export function alreadyApplied(payload: Record<string, unknown> | null, row: unknown): boolean {
  if (!payload || typeof row !== 'object' || row === null) return false;
  const current = row as Record<string, unknown>;
  return Object.entries(payload).every(([k, v]) => {
    const c = current[k];
    if (typeof v === 'string' && typeof c === 'string') return v.trim().toLowerCase() === c.toLowerCase();
    return (v ?? null) === (c ?? null);
  });
}

function versionOf(row: unknown): number | null {
  return typeof row === 'object' && row !== null && typeof (row as { version?: unknown }).version === 'number'
    ? (row as { version: number }).version
    : null;
}

/**
 * Sends the user's queued writes one by one in queue order. Stops at the first retryable failure
 * (so a later edit never overtakes an earlier one) and sets its backoff. The caller holds the lock
 * that makes this the only run in the browser (see `engine.ts`).
 *
 * Cost per entry: the request, one transaction to take the entry (re-read fresh: other tabs may
 * merge edits into queued entries) and one to remove it together with what it changes in the
 * entries after it (real ids, versions). The queue is read whole once per pass, not per entry,
 * and nothing waits between entries.
 */
export async function runQueue(
  userId: number,
  send: Send,
  { now = Date.now, random = Math.random }: { now?: () => number; random?: () => number } = {},
): Promise<RunResult> {
  const result: RunResult = { sent: 0, retryAt: null, conflicts: 0, failed: 0 };
  await clearSendingFlags();
  // Outcomes of this run's sends, applied again when an entry is taken: covers an entry another
  // tab changed after the snapshot was read (e.g. an edit moved a record to a vehicle just created).
  const done: { entry: StoredEntry; effect: Effect }[] = [];
  const fix = (e: QueueEntry) => done.reduce((acc, d) => followUp(d.entry, d.effect, acc) ?? acc, e);
  for (;;) {
    const snapshot = await listEntries(userId);
    if (snapshot.length === 0) return result;
    const snapshotEnd = (snapshot.at(-1) as StoredEntry).seq;
    for (let i = 0; i < snapshot.length; i++) {
      const claimed = await claimEntry((snapshot[i] as StoredEntry).seq, now(), fix);
      if (!claimed) continue;
      const { entry } = claimed;
      if (!claimed.ready) {
        result.retryAt = entry.nextAttemptAt;
        return result;
      }
      const settle = async (effect: Effect) => {
        const later = snapshot.slice(i + 1).filter((e) => followUp(entry, effect, e) !== null);
        await finishEntry(
          entry,
          effect,
          later.map((e) => e.seq),
          snapshotEnd,
        );
        if (effect.created || effect.version !== undefined) done.push({ entry, effect });
      };
      const stop = await sendOne(userId, entry, send, settle, result, { now, random });
      if (stop) return result;
    }
  }
}

/** Sends one taken entry and records what happened; true when the run must stop (retry later). */
async function sendOne(
  userId: number,
  entry: StoredEntry,
  send: Send,
  settle: (effect: Effect) => Promise<void>,
  result: RunResult,
  { now, random }: { now: () => number; random: () => number },
): Promise<boolean> {
  const req = requestFor(entry);
  try {
    const answer = await send(req.method, req.path, { body: req.body, headers: req.headers });
    let effect: Effect = {};
    if (entry.type === 'create') {
      const id = (answer as { id?: unknown } | undefined)?.id;
      if (entry.kind === 'vehicle' && entry.photo && typeof id === 'number') {
        const form = new FormData();
        form.append('file', entry.photo, 'photo.jpg');
        // The vehicle exists now: from here on the entry is a photo upload for the real row.
        await putEntry({ ...entry, sending: true, targetId: id });
        await send('POST', `/api/vehicles/${id}/upload-photo`, { body: form }).catch(() => undefined);
      }
      if (typeof id === 'number') effect = { created: { id, version: versionOf(answer) } };
    } else if (entry.type === 'update') {
      const v = versionOf(answer);
      if (v !== null) effect = { version: v };
    }
    await settle(effect);
    result.sent++;
    return false;
  } catch (err) {
    const e = (err ?? {}) as ErrorLike;
    let outcome = classify(entry, err);
    let after: Effect = {};
    // A retried update whose first try was applied (its answer was lost): the server's row
    // already holds this change, so it is done, not a conflict.
    if (outcome === 'conflict' && entry.type === 'update' && alreadyApplied(entry.payload, e.rawDetails)) {
      const v = versionOf(e.rawDetails);
      if (v !== null) after = { version: v };
      outcome = 'gone';
    }
    const message = typeof e.message === 'string' ? e.message : String(err);
    const { seq: _seq, sending: _sending, ...plain } = entry;
    if (outcome === 'gone') {
      await settle(after);
      result.sent++;
      return false;
    }
    if (outcome === 'retry') {
      const attempts = entry.attempts + 1;
      const nextAttemptAt = now() + backoffMs(attempts, random);
      await putEntry({ ...entry, sending: false, attempts, nextAttemptAt, lastError: message });
      result.retryAt = nextAttemptAt;
      return true;
    }
    const server =
      outcome === 'conflict' && typeof e.rawDetails === 'object' && e.rawDetails !== null
        ? (e.rawDetails as Record<string, unknown>)
        : undefined;
    await addIssue({
      kind: outcome,
      userId,
      entry: plain,
      ...(server ? { server } : {}),
      message,
      code: typeof e.code === 'string' ? e.code : '',
      at: new Date(now()).toISOString(),
    });
    await settle({});
    if (outcome === 'conflict') result.conflicts++;
    else result.failed++;
    return false;
  }
}
