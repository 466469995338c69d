import type { Vehicle } from '@evdra/domain';
import { loadVehicleList, saveVehicleList } from './offline/cache';
import { getStoredUser } from './session';

/**
 * Local offline database (spec §3, ARCHITECTURE §5): `evdra-db` version 1. The database itself
 * (stores, queue, sync) lives in `lib/offline/`; this file keeps the vehicle-cache contract the
 * vehicle list uses, for the logged-in user.
 */
export { DB_NAME, DB_VERSION } from './offline/db';
export const VEHICLES_STORE = 'vehicles';
export const EDIT_QUEUE_STORE = 'editQueue';

/** Replaces the cached vehicle list with `vehicles` (after every successful list load). */
export async function saveVehicles(vehicles: Vehicle[]): Promise<void> {
  const user = getStoredUser();
  if (!user) return;
  await saveVehicleList(user.id, vehicles);
}

/** The cached vehicles, newest first (as the API lists them); [] when none or IndexedDB fails. */
export async function loadVehicles(): Promise<Vehicle[]> {
  const user = getStoredUser();
  if (!user) return [];
  return (await loadVehicleList(user.id)) as unknown as Vehicle[];
}
