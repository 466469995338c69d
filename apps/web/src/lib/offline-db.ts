import type { Vehicle } from '@evdra/domain';

/** Local offline database (spec §3, ARCHITECTURE §5): `evdra-db` version 1. */
export const DB_NAME = 'evdra-db';
export const DB_VERSION = 1;
export const VEHICLES_STORE = 'vehicles';
export const EDIT_QUEUE_STORE = 'editQueue';

function available(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** Opens (creating on first use) the database with its two stores. */
export function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (!available()) {
      reject(new Error('IndexedDB is not available'));
      return;
    }
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(VEHICLES_STORE))
        db.createObjectStore(VEHICLES_STORE, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(EDIT_QUEUE_STORE))
        db.createObjectStore(EDIT_QUEUE_STORE, { autoIncrement: true });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Replaces the cached vehicle list with `vehicles` (after every successful list load). */
export async function saveVehicles(vehicles: Vehicle[]): Promise<void> {
  const db = await openDb();
  try {
    const tx = db.transaction(VEHICLES_STORE, 'readwrite');
    const store = tx.objectStore(VEHICLES_STORE);
    store.clear();
    for (const v of vehicles) store.put(v);
    await done(tx);
  } finally {
    db.close();
  }
}

/** The cached vehicles, newest first (as the API lists them); [] when none or IndexedDB fails. */
export async function loadVehicles(): Promise<Vehicle[]> {
  try {
    const db = await openDb();
    try {
      const tx = db.transaction(VEHICLES_STORE, 'readonly');
      const request = tx.objectStore(VEHICLES_STORE).getAll();
      const rows = await new Promise<Vehicle[]>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result as Vehicle[]);
        request.onerror = () => reject(request.error);
      });
      return rows.sort((a, b) =>
        a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id,
      );
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}
