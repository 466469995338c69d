import { getDb, idbAvailable } from './db';
import type { EntityKind, QueueEntry, StoredEntry, StoredIssue, SyncIssue } from './types';

function uuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

let lastTemp = 0;
/** A negative id for a row created offline, unique in this browser. */
export function tempId(): number {
  const candidate = -(Date.now() * 100 + Math.floor(Math.random() * 100));
  lastTemp = candidate < lastTemp ? candidate : lastTemp - 1;
  return lastTemp;
}

export interface EnqueueInput {
  type: QueueEntry['type'];
  kind: EntityKind;
  userId: number;
  targetId?: number;
  payload?: Record<string, unknown> | null;
  baseVersion?: number | null;
  idempotencyKey?: string;
  vehicle?: Record<string, unknown>;
  photo?: Blob | null;
}

/** Every entry of the user, oldest first, with its key. */
export async function listEntries(userId: number): Promise<StoredEntry[]> {
  if (!idbAvailable()) return [];
  const db = await getDb();
  const tx = db.transaction('editQueue');
  // One getAll + getAllKeys (same order, same transaction) is far cheaper than a cursor walk.
  const [values, keys] = await Promise.all([tx.store.getAll(), tx.store.getAllKeys()]);
  const out: StoredEntry[] = [];
  values.forEach((v, i) => {
    if (v.userId === userId) out.push({ ...v, seq: keys[i] as number });
  });
  return out;
}

export async function pendingCount(userId: number): Promise<number> {
  return (await listEntries(userId)).length;
}

/**
 * Adds a write to the queue, in one transaction, merging it with what is already queued for the
 * same row (unless a tab is sending that entry right now):
 * - an edit of a row created offline goes into its create; a second edit into the first (which
 *   keeps the version the user started from);
 * - deleting a row created offline drops it (and, for a vehicle, the records queued for it);
 *   deleting a row with queued edits replaces them with the delete.
 * Returns the entry as stored (for a create, `targetId` is the row's temporary id).
 */
export async function enqueue(input: EnqueueInput): Promise<QueueEntry> {
  const db = await getDb();
  const tx = db.transaction('editQueue', 'readwrite');
  const store = tx.store;
  const entry: QueueEntry = {
    type: input.type,
    kind: input.kind,
    payload: input.payload ?? null,
    targetId: input.targetId ?? tempId(),
    idempotencyKey: input.idempotencyKey ?? uuid(),
    baseVersion: input.baseVersion ?? null,
    queuedAt: new Date().toISOString(),
    userId: input.userId,
    attempts: 0,
    nextAttemptAt: 0,
    ...(input.vehicle ? { vehicle: input.vehicle } : {}),
    ...(input.photo ? { photo: input.photo } : {}),
  };

  const same: StoredEntry[] = [];
  const dependents: number[] = [];
  let cursor = await store.openCursor();
  while (cursor) {
    const e = cursor.value;
    if (e.userId === entry.userId) {
      if (e.kind === entry.kind && e.targetId === entry.targetId) same.push({ ...e, seq: cursor.key });
      else if (entry.kind === 'vehicle' && e.kind !== 'vehicle' && e.payload?.vehicleId === entry.targetId)
        dependents.push(cursor.key);
    }
    cursor = await cursor.continue();
  }
  const idle = same.filter((e) => !e.sending);
  const create = idle.find((e) => e.type === 'create');

  let stored: QueueEntry = entry;
  if (entry.type === 'update' && create) {
    stored = { ...create, payload: { ...create.payload, ...entry.payload } };
    await store.put(stripSeq(stored), create.seq);
  } else if (entry.type === 'update' && idle.some((e) => e.type === 'update')) {
    const first = idle.find((e) => e.type === 'update') as StoredEntry;
    stored = {
      ...first,
      payload: { ...first.payload, ...entry.payload },
      ...(entry.vehicle ? { vehicle: entry.vehicle } : {}),
    };
    await store.put(stripSeq(stored), first.seq);
  } else if (entry.type === 'delete' && create && !same.some((e) => e.sending)) {
    for (const e of same) await store.delete(e.seq);
    if (entry.kind === 'vehicle') for (const k of dependents) await store.delete(k);
    stored = { ...entry, payload: null };
  } else {
    if (entry.type === 'delete') {
      for (const e of idle) if (e.type === 'update') await store.delete(e.seq);
      const baseVersion = idle.find((e) => e.type === 'update')?.baseVersion;
      if (entry.baseVersion === null && baseVersion != null) entry.baseVersion = baseVersion;
    }
    await store.add(entry);
  }
  await tx.done;
  return stored;
}

function stripSeq(e: QueueEntry | StoredEntry): QueueEntry {
  const { seq: _seq, ...rest } = e as StoredEntry;
  return rest;
}

export async function putEntry(e: StoredEntry): Promise<void> {
  const db = await getDb();
  await db.put('editQueue', stripSeq(e), e.seq);
}

/** What a sent entry changes in the entries queued after it. */
export interface Effect {
  /** A create: the real id that replaces the temporary one, and the version it was created at. */
  created?: { id: number; version: number | null };
  /** An update: the row's version now (later edits of it build on this one). */
  version?: number;
}

/** `e` with the effect of sent entry `done` applied; null when `e` is not affected. */
export function followUp(done: QueueEntry, effect: Effect, e: QueueEntry): QueueEntry | null {
  if (e.userId !== done.userId) return null;
  if (effect.created) {
    const { id, version } = effect.created;
    let next: QueueEntry | null = null;
    if (e.kind === done.kind && e.targetId === done.targetId) {
      next = { ...e, targetId: id };
      if (next.baseVersion === null && version !== null) next.baseVersion = version;
    }
    if (done.kind === 'vehicle' && e.kind !== 'vehicle' && e.payload?.vehicleId === done.targetId) {
      next = { ...(next ?? e), payload: { ...e.payload, vehicleId: id } };
    }
    return next;
  }
  if (effect.version !== undefined) {
    const same = e.kind === done.kind && e.targetId === done.targetId && e.type !== 'create';
    // Versions only grow: an entry already based on a later one keeps it.
    return same && (e.baseVersion ?? -1) < effect.version ? { ...e, baseVersion: effect.version } : null;
  }
  return null;
}

/**
 * Takes entry `seq` for sending, in one transaction: re-reads it (another tab may have merged an
 * edit into it or dropped it), applies `fix` (what earlier sends of this run changed) and marks it
 * `sending` so nothing merges into it meanwhile. Undefined when it is gone; `ready: false` (and not
 * marked) while its backoff runs.
 */
export async function claimEntry(
  seq: number,
  now: number,
  fix: (e: QueueEntry) => QueueEntry,
): Promise<{ entry: StoredEntry; ready: boolean } | undefined> {
  const db = await getDb();
  const tx = db.transaction('editQueue', 'readwrite');
  const value = await tx.store.get(seq);
  if (!value) {
    await tx.done;
    return undefined;
  }
  const entry = { ...fix(value), seq };
  const ready = entry.nextAttemptAt <= now;
  if (ready) await tx.store.put(stripSeq({ ...entry, sending: true }), seq);
  await tx.done;
  return { entry, ready };
}

/**
 * Removes sent entry `done` and, in the same transaction, applies its effect to the entries after
 * it: `candidates` (keys the caller's snapshot of the queue shows as affected) and every entry
 * queued after `snapshotEnd` (added since the snapshot was read).
 */
export async function finishEntry(
  done: StoredEntry,
  effect: Effect,
  candidates: number[],
  snapshotEnd: number,
): Promise<void> {
  const db = await getDb();
  const tx = db.transaction('editQueue', 'readwrite');
  const writes: Promise<unknown>[] = [tx.store.delete(done.seq)];
  if (effect.created || effect.version !== undefined) {
    for (const key of candidates) {
      const e = await tx.store.get(key);
      const next = e ? followUp(done, effect, e) : null;
      if (next) writes.push(tx.store.put(next, key));
    }
    let cursor = await tx.store.openCursor(IDBKeyRange.lowerBound(snapshotEnd, true));
    while (cursor) {
      const next = followUp(done, effect, cursor.value);
      if (next) writes.push(cursor.update(next));
      cursor = await cursor.continue();
    }
  }
  await Promise.all([...writes, tx.done]);
}

/** Applies `change` to every entry in one transaction; writes only the entries it returns. */
async function rewrite(change: (e: QueueEntry) => QueueEntry | null): Promise<void> {
  const db = await getDb();
  const tx = db.transaction('editQueue', 'readwrite');
  const [values, keys] = await Promise.all([tx.store.getAll(), tx.store.getAllKeys()]);
  const writes: Promise<unknown>[] = [];
  values.forEach((v, i) => {
    const next = change(v);
    if (next) writes.push(tx.store.put(next, keys[i]));
  });
  await Promise.all([...writes, tx.done]);
}

/** A tab that died while sending leaves `sending` set; the next lock holder clears it. */
export async function clearSendingFlags(): Promise<void> {
  await rewrite((e) => (e.sending ? { ...e, sending: false } : null));
}

export async function addIssue(issue: SyncIssue): Promise<void> {
  const db = await getDb();
  await db.add('syncIssues', issue);
}

export async function listIssues(userId: number): Promise<StoredIssue[]> {
  if (!idbAvailable()) return [];
  const db = await getDb();
  const out: StoredIssue[] = [];
  let cursor = await db.transaction('syncIssues').store.openCursor();
  while (cursor) {
    if (cursor.value.userId === userId) out.push({ ...cursor.value, seq: cursor.key });
    cursor = await cursor.continue();
  }
  return out;
}

export async function removeIssue(seq: number): Promise<void> {
  const db = await getDb();
  await db.delete('syncIssues', seq);
}
