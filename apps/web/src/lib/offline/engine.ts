import { useSyncExternalStore } from 'react';
import { ApiError, api, onConnectionRestored } from '../api';
import { getStoredUser } from '../session';
import { getDb, idbAvailable } from './db';
import { applyQueue, applyQueueToOne } from './overlay';
import { type EnqueueInput, enqueue, listEntries, listIssues, removeIssue } from './queue';
import { runQueue, type Send } from './sync';
import type { EntityKind, QueueEntry, StoredIssue } from './types';

/**
 * The offline engine the app talks to: queue a write (or send it straight away when online with
 * nothing queued), overlay the queue on what the screens read, and sync. Sync runs on the `online`
 * event, at start, when a request succeeds again after a network failure, and after each queued
 * write while online; one tab at a time (Web Locks), oldest entry first.
 */

export interface SyncState {
  pending: number;
  issues: StoredIssue[];
  syncing: boolean;
}

let state: SyncState = { pending: 0, issues: [], syncing: false };
const listeners = new Set<() => void>();
const changeListeners = new Set<() => void>();
const channel: BroadcastChannel | null =
  typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel('evdra-sync') : null;

function setState(patch: Partial<SyncState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function getSyncState(): SyncState {
  return state;
}

export function useSyncState(): SyncState {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getSyncState,
    getSyncState,
  );
}

/** Called after the queue or the server data changed (the app refetches its queries). */
export function onDataChanged(cb: () => void): () => void {
  changeListeners.add(cb);
  return () => changeListeners.delete(cb);
}

function emitChanged(broadcast = true) {
  for (const cb of changeListeners) cb();
  if (broadcast) channel?.postMessage('changed');
}

/** Re-reads the pending count and the issues of the logged-in user. */
export async function refreshSyncState(): Promise<void> {
  const user = getStoredUser();
  if (!user || !idbAvailable()) {
    setState({ pending: 0, issues: [] });
    return;
  }
  try {
    const [entries, issues] = await Promise.all([listEntries(user.id), listIssues(user.id)]);
    setState({ pending: entries.length, issues });
  } catch {
    // IndexedDB refused (private mode, quota): nothing queued can be shown.
  }
}

const sendViaApi: Send = (method, path, { body, headers }) => api(path, { method, body, headers });

let running = false;
let again = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** Runs `fn` unless another tab is syncing; false when it did not run. */
async function withLock(fn: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) {
    await fn();
    return true;
  }
  let ran = false;
  await locks.request('evdra-sync', { ifAvailable: true }, async (lock) => {
    if (!lock) return;
    ran = true;
    await fn();
  });
  return ran;
}

/** How soon a tab that found another one syncing looks again (its own new entries may have come
 * after the other tab's last read of the queue). */
const LOCK_RETRY_MS = 1_000;

/** Sends the queue now if online and logged in. Safe to call often: runs never overlap. */
export async function syncNow(): Promise<void> {
  const user = getStoredUser();
  if (!user || !idbAvailable() || (typeof navigator !== 'undefined' && !navigator.onLine)) return;
  if (running) {
    again = true;
    return;
  }
  running = true;
  setState({ syncing: true });
  try {
    do {
      again = false;
      const ran = await withLock(async () => {
        const result = await runQueue(user.id, sendViaApi);
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        if (result.retryAt !== null) {
          retryTimer = setTimeout(
            () => {
              retryTimer = null;
              void syncNow();
            },
            Math.max(0, result.retryAt - Date.now()),
          );
        }
        if (result.sent + result.conflicts + result.failed > 0) emitChanged();
      });
      if (!ran && !retryTimer && (await listEntries(user.id)).length > 0) {
        retryTimer = setTimeout(() => {
          retryTimer = null;
          void syncNow();
        }, LOCK_RETRY_MS);
      }
    } while (again);
  } catch {
    // IndexedDB failed mid-run; the entries are still queued and the next trigger retries.
  } finally {
    running = false;
    setState({ syncing: false });
    await refreshSyncState();
  }
}

let started = false;

/** Wires the triggers; idempotent. Called once at start-up. */
export function startSyncEngine(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => void syncNow());
  window.addEventListener('evdra:session', () => {
    void refreshSyncState();
    void syncNow();
  });
  window.addEventListener('storage', (e) => {
    if (e.key === 'user') void refreshSyncState();
  });
  onConnectionRestored(() => void syncNow());
  channel?.addEventListener('message', () => {
    void refreshSyncState();
    emitChanged(false);
  });
  void refreshSyncState().then(() => syncNow());
}

/** A placeholder answer for a write that went to the queue (the row as the UI should show it). */
export class QueuedWrite {
  constructor(readonly entry: QueueEntry) {}
}

function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError && err.status === 0;
}

/**
 * Runs `direct` when online with nothing queued (so writes never overtake queued ones); queues the
 * write when offline, when other writes are waiting, when it targets a row created offline, or
 * when `direct` fails for lack of a connection. A queued create/update answers the row as it
 * will look (`pendingSync: true`).
 */
export async function writeOrQueue<T>(
  input: Omit<EnqueueInput, 'userId'>,
  direct: () => Promise<T>,
): Promise<T> {
  const user = getStoredUser();
  if (!user || !idbAvailable()) return direct();
  const online = typeof navigator === 'undefined' || navigator.onLine;
  const tempTarget = input.targetId !== undefined && input.targetId < 0;
  if (online && !tempTarget) {
    let queued = 0;
    try {
      queued = (await listEntries(user.id)).length;
    } catch {
      return direct();
    }
    if (queued === 0) {
      try {
        return await direct();
      } catch (err) {
        if (!isNetworkFailure(err)) throw err;
      }
    }
  }
  const entry = await enqueue({ ...input, userId: user.id });
  await refreshSyncState();
  emitChanged();
  if (online) void syncNow();
  const ctx = { userId: user.id, username: user.username };
  const row = applyQueueToOne(undefined, entry.targetId, [entry], entry.kind, ctx);
  return (row ?? { id: entry.targetId, pendingSync: true }) as T;
}

/** The queued writes of the logged-in user (for overlays); [] when none or unavailable. */
export async function queuedEntries(): Promise<QueueEntry[]> {
  const user = getStoredUser();
  if (!user || !idbAvailable()) return [];
  try {
    return await listEntries(user.id);
  } catch {
    return [];
  }
}

/** `rows` with the logged-in user's queued writes of `kind` applied (see `applyQueue`). */
export async function withQueue<T extends { id: number }>(
  rows: T[],
  kind: EntityKind,
  vehicleId?: number,
): Promise<T[]> {
  const user = getStoredUser();
  // A server render has no queue (nor IndexedDB): the browser applies it when it takes over.
  if (!user || typeof indexedDB === 'undefined') return rows;
  const entries = await queuedEntries();
  if (entries.length === 0) return rows;
  return applyQueue(rows, entries, kind, { userId: user.id, username: user.username, vehicleId });
}

/** Keeps a photo taken offline with the queued create of vehicle `tempId`; false when not queued. */
export async function attachPhotoToQueuedCreate(tempId: number, photo: Blob): Promise<boolean> {
  const user = getStoredUser();
  if (!user || !idbAvailable()) return false;
  const db = await getDb();
  const tx = db.transaction('editQueue', 'readwrite');
  let cursor = await tx.store.openCursor();
  let found = false;
  while (cursor) {
    const e = cursor.value;
    if (e.userId === user.id && e.kind === 'vehicle' && e.type === 'create' && e.targetId === tempId) {
      await cursor.update({ ...e, photo });
      found = true;
    }
    cursor = await cursor.continue();
  }
  await tx.done;
  if (found) emitChanged();
  return found;
}

/** The user chose in a conflict: keep their version (queued again on the server's) or drop it. */
export async function resolveIssue(issue: StoredIssue, keepMine: boolean): Promise<void> {
  if (keepMine && issue.kind === 'conflict') {
    const serverVersion = typeof issue.server?.version === 'number' ? issue.server.version : null;
    if (issue.entry.type === 'update') {
      await enqueue({
        type: 'update',
        kind: issue.entry.kind,
        userId: issue.userId,
        targetId: issue.entry.targetId,
        payload: issue.entry.payload,
        baseVersion: serverVersion,
        ...(issue.entry.vehicle ? { vehicle: issue.entry.vehicle } : {}),
      });
    } else if (issue.entry.type === 'delete') {
      await enqueue({
        type: 'delete',
        kind: issue.entry.kind,
        userId: issue.userId,
        targetId: issue.entry.targetId,
        baseVersion: serverVersion,
      });
    }
  }
  await removeIssue(issue.seq);
  await refreshSyncState();
  emitChanged();
  void syncNow();
}
