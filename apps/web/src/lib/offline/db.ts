import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb';
import type { QueueEntry, SyncIssue } from './types';

/**
 * The local offline database (spec §3, ARCHITECTURE §5): `evdra-db` version 1.
 *
 * - `vehicles` (keyPath `id`): the last vehicle list the user loaded (spec store).
 * - `editQueue` (auto-increment keys): queued writes, oldest first (spec store; entries extended
 *   with kind, payload, idempotencyKey, baseVersion and queuedAt, see `QueueEntry`).
 * - `records` (keyPath `key` = `${kind}:${vehicleId}`): each vehicle's record lists the user opened.
 * - `syncIssues` (auto-increment): conflicts (409) and refused writes waiting for the user.
 * - `meta`: small values, e.g. which user the caches belong to.
 *
 * Everything is tagged with, or cleared for, the user it belongs to: see `cache.ts` and `queue.ts`.
 */
export interface EvdraDb extends DBSchema {
  vehicles: { key: number; value: { id: number } & Record<string, unknown> };
  editQueue: { key: number; value: QueueEntry };
  records: { key: string; value: CachedRecords };
  syncIssues: { key: number; value: SyncIssue };
  meta: { key: string; value: unknown };
}

export interface CachedRecords {
  key: string;
  userId: number;
  rows: unknown[];
  savedAt: string;
}

export const DB_NAME = 'evdra-db';
export const DB_VERSION = 1;
export const STORES = ['vehicles', 'editQueue', 'records', 'syncIssues', 'meta'] as const;

export function idbAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

function create(): Promise<IDBPDatabase<EvdraDb>> {
  return openDB<EvdraDb>(DB_NAME, DB_VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains('vehicles')) db.createObjectStore('vehicles', { keyPath: 'id' });
      if (!db.objectStoreNames.contains('editQueue'))
        db.createObjectStore('editQueue', { autoIncrement: true });
      if (!db.objectStoreNames.contains('records')) db.createObjectStore('records', { keyPath: 'key' });
      if (!db.objectStoreNames.contains('syncIssues'))
        db.createObjectStore('syncIssues', { autoIncrement: true });
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
    },
    blocking() {
      // Another tab wants a newer version: let it (we reopen on the next call).
      void dbPromise?.then((d) => d.close());
      dbPromise = null;
    },
  });
}

let dbPromise: Promise<IDBPDatabase<EvdraDb>> | null = null;

/**
 * The shared connection. A browser that still has an early `evdra-db` v1 with only the spec's two
 * stores (before this module existed nothing was ever queued there, and the vehicle list is only a
 * cache) gets the database recreated with every store, still at version 1.
 */
export function getDb(): Promise<IDBPDatabase<EvdraDb>> {
  if (!idbAvailable()) return Promise.reject(new Error('IndexedDB is not available'));
  if (!dbPromise) {
    dbPromise = (async () => {
      const db = await create();
      if (STORES.every((s) => db.objectStoreNames.contains(s))) return db;
      db.close();
      await deleteDB(DB_NAME);
      return create();
    })();
    dbPromise.catch(() => {
      dbPromise = null;
    });
  }
  return dbPromise;
}

/** Closes the shared connection (tests delete the database between cases). */
export async function closeDb(): Promise<void> {
  const p = dbPromise;
  dbPromise = null;
  if (p) (await p.catch(() => null))?.close();
}
