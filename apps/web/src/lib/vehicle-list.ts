import type { Vehicle } from '@evdra/domain';
import { api } from './api';
import { loadVehicles, saveVehicles } from './offline-db';

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
    return { vehicles, offline: false };
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    const cached = await loadVehicles();
    if (cached.length > 0) return { vehicles: cached, offline: true };
    throw err;
  }
}
