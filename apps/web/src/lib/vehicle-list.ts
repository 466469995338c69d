import type { Vehicle } from '@evdra/domain';
import { ApiError, api } from './api';
import { loadVehicle } from './offline/cache';
import { withQueue } from './offline/engine';
import { loadVehicles, saveVehicles } from './offline-db';
import { getStoredUser } from './session';

/** The vehicle list is read by several features (vehicles, records, analytics): its query lives here. */
export const vehicleKeys = {
  all: ['vehicles'] as const,
  list: ['vehicles', 'list'] as const,
  one: (id: number) => ['vehicles', 'one', id] as const,
};

export interface VehicleList {
  vehicles: Vehicle[];
  /** True when the server could not be reached and the list comes from IndexedDB. */
  offline: boolean;
}

/**
 * GET /api/vehicles; every successful load is cached in IndexedDB. When listing fails and cached
 * vehicles exist they are shown instead of the error (spec §4).
 */
export async function fetchVehicleList(signal?: AbortSignal): Promise<VehicleList> {
  try {
    const vehicles = await api<Vehicle[]>('/api/vehicles', { signal });
    void saveVehicles(vehicles).catch(() => undefined);
    // Offline, the answer can only be the service worker's saved copy: say so too.
    const offline = typeof navigator !== 'undefined' && !navigator.onLine;
    return { vehicles: await withQueue(vehicles, 'vehicle'), offline };
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    const cached = await withQueue(await loadVehicles(), 'vehicle');
    if (cached.length > 0) return { vehicles: cached, offline: true };
    throw err;
  }
}

/**
 * GET /api/vehicles/{id}; offline (or for a vehicle created offline) the cached one, with queued
 * edits applied. A vehicle deleted in the queue answers 404.
 */
export async function fetchVehicle(id: number, signal?: AbortSignal): Promise<Vehicle> {
  let row: Vehicle | undefined;
  try {
    if (id < 0) throw new ApiError(0, 'NETWORK_ERROR', 'Not synced yet');
    row = await api<Vehicle>(`/api/vehicles/${id}`, { signal });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 0)) throw err;
    const user = getStoredUser();
    row = user ? ((await loadVehicle(user.id, id)) as Vehicle | undefined) : undefined;
    const [queued] = (await withQueue(row ? [row] : [], 'vehicle')).filter((v) => v.id === id);
    if (queued) return queued;
    throw err;
  }
  const [withEdits] = await withQueue([row], 'vehicle');
  if (!withEdits) throw new ApiError(404, 'NOT_FOUND', 'Vehicle not found.');
  return withEdits;
}
