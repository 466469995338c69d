import { getDb, idbAvailable } from './db';
import type { EntityKind } from './types';

/**
 * Read caches of what the user opened: the vehicle list and each vehicle's record lists. They hold
 * one user's data at a time: reading or writing as another user first empties them, so switching
 * users never shows the previous user's rows (their queued writes stay, tagged with their id, and
 * are neither shown nor sent until they log in again).
 */
async function ownedBy(userId: number): Promise<void> {
  const db = await getDb();
  const owner = await db.get('meta', 'owner');
  if (owner === userId) return;
  // The service worker's copies of lists and photos belong to the previous user too.
  if (owner !== undefined && typeof caches !== 'undefined') {
    await Promise.all(
      ['evdra-api', 'evdra-photos', 'evdra-papers'].map((c) => caches.delete(c).catch(() => false)),
    );
  }
  const tx = db.transaction(['vehicles', 'records', 'meta'], 'readwrite');
  await tx.objectStore('vehicles').clear();
  await tx.objectStore('records').clear();
  await tx.objectStore('meta').put(userId, 'owner');
  await tx.done;
}

type Row = { id: number } & Record<string, unknown>;

export async function saveVehicleList(userId: number, vehicles: Row[]): Promise<void> {
  if (!idbAvailable()) return;
  await ownedBy(userId);
  const db = await getDb();
  const tx = db.transaction('vehicles', 'readwrite');
  await tx.store.clear();
  for (const v of vehicles) await tx.store.put(v);
  await tx.done;
}

/** One vehicle changed (e.g. loaded on its own page): refresh it in the cached list. */
export async function saveVehicle(userId: number, vehicle: Row): Promise<void> {
  if (!idbAvailable()) return;
  await ownedBy(userId);
  const db = await getDb();
  await db.put('vehicles', vehicle);
}

/** The cached vehicles, newest first (as the API lists them); [] when none or IndexedDB fails. */
export async function loadVehicleList(userId: number): Promise<Row[]> {
  try {
    if (!idbAvailable()) return [];
    await ownedBy(userId);
    const db = await getDb();
    const rows = await db.getAll('vehicles');
    return rows.sort((a, b) => {
      const ca = String(a.createdAt ?? '');
      const cb = String(b.createdAt ?? '');
      return ca < cb ? 1 : ca > cb ? -1 : b.id - a.id;
    });
  } catch {
    return [];
  }
}

export async function loadVehicle(userId: number, id: number): Promise<Row | undefined> {
  try {
    if (!idbAvailable()) return undefined;
    await ownedBy(userId);
    return await (await getDb()).get('vehicles', id);
  } catch {
    return undefined;
  }
}

const recordsKey = (kind: EntityKind, vehicleId: number) => `${kind}:${vehicleId}`;

/**
 * Saves a vehicle's record list as the user sees it: its first page (`first`, the default) replaces
 * what was saved, a later page (issue 54: long lists come a page at a time) is added to it, so offline
 * shows as far as the user scrolled.
 */
export async function saveRecordList(
  userId: number,
  kind: EntityKind,
  vehicleId: number,
  rows: unknown[],
  first = true,
): Promise<void> {
  if (!idbAvailable()) return;
  await ownedBy(userId);
  const db = await getDb();
  const tx = db.transaction('records', 'readwrite');
  const key = recordsKey(kind, vehicleId);
  const before = first ? undefined : await tx.store.get(key);
  const added = new Set((rows as { id: number }[]).map((r) => r.id));
  const kept = ((before?.rows ?? []) as { id: number }[]).filter((r) => !added.has(r.id));
  await tx.store.put({ key, userId, rows: [...kept, ...rows], savedAt: new Date().toISOString() });
  await tx.done;
}

/** The cached records of one vehicle, or undefined when that list was never opened. */
export async function loadRecordList(
  userId: number,
  kind: EntityKind,
  vehicleId: number,
): Promise<unknown[] | undefined> {
  try {
    if (!idbAvailable()) return undefined;
    await ownedBy(userId);
    const row = await (await getDb()).get('records', recordsKey(kind, vehicleId));
    return row?.rows;
  } catch {
    return undefined;
  }
}

/** Key of the all-vehicles list of a kind (GET /api/{kind}, the pages seen so far). */
const allKey = (kind: EntityKind) => `${kind}:all`;

/**
 * Saves a page of the all-vehicles list: the first page replaces what was saved, later pages are
 * added to it (so offline shows as far as the user scrolled).
 */
export async function saveAllRecordsPage<R extends { id: number }>(
  userId: number,
  kind: EntityKind,
  rows: R[],
  first: boolean,
): Promise<void> {
  if (!idbAvailable()) return;
  await ownedBy(userId);
  const db = await getDb();
  const tx = db.transaction('records', 'readwrite');
  const before = first ? undefined : await tx.store.get(allKey(kind));
  const kept = ((before?.rows ?? []) as { id: number }[]).filter((r) => !rows.some((n) => n.id === r.id));
  await tx.store.put({
    key: allKey(kind),
    userId,
    rows: [...kept, ...rows],
    savedAt: new Date().toISOString(),
  });
  await tx.done;
}

/**
 * Every cached record of `kind`, across vehicles: the all-vehicles pages seen and each vehicle's
 * list the user opened. A vehicle's list saved after the all-vehicles pages replaces that vehicle's
 * rows in them (it knows about later edits and deletes); otherwise both are merged by id.
 */
export async function loadAllCachedRecords(userId: number, kind: EntityKind): Promise<unknown[]> {
  try {
    if (!idbAvailable()) return [];
    await ownedBy(userId);
    const db = await getDb();
    const lists = await db.getAll('records', IDBKeyRange.bound(`${kind}:`, `${kind}:\uffff`));
    const all = lists.find((l) => l.key === allKey(kind));
    const perVehicle = lists.filter((l) => l.key !== allKey(kind));
    const newer = new Set(
      perVehicle.filter((l) => !all || l.savedAt > all.savedAt).map((l) => Number(l.key.split(':')[1])),
    );
    const byId = new Map<number, unknown>();
    for (const l of perVehicle) for (const r of l.rows as { id: number }[]) byId.set(r.id, r);
    for (const r of (all?.rows ?? []) as { id: number; vehicleId?: number }[]) {
      if (!newer.has(Number(r.vehicleId))) byId.set(r.id, r);
    }
    return [...byId.values()];
  } catch {
    return [];
  }
}
