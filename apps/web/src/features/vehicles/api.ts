import type { Vehicle, VehicleInput } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { loadVehicles, saveVehicles } from '../../lib/offline-db';

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

export const useVehicles = () =>
  useQuery({ queryKey: vehicleKeys.list, queryFn: ({ signal }) => fetchVehicleList(signal) });

export const useVehicle = (id: number, enabled = true) =>
  useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: ({ signal }) => api<Vehicle>(`/api/vehicles/${id}`, { signal }),
    enabled,
  });

export function useCreateVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: VehicleInput; idempotencyKey: string }) =>
      api<Vehicle>('/api/vehicles', { method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}

export interface VehicleUpdate {
  id: number;
  body: VehicleInput & { version: number };
  /** A new (already downsized) photo. */
  photo?: Blob | null;
  removePhoto?: boolean;
}

/** PUT for plain edits; PATCH multipart when the photo changes. */
export function useUpdateVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, photo, removePhoto }: VehicleUpdate) => {
      if (!photo && !removePhoto) return api<Vehicle>(`/api/vehicles/${id}`, { method: 'PUT', body });
      const form = new FormData();
      form.append('data', JSON.stringify(body));
      if (photo) form.append('photo', photo, 'photo.jpg');
      else if (removePhoto) form.append('removePhoto', 'true');
      return api<Vehicle>(`/api/vehicles/${id}`, { method: 'PATCH', body: form });
    },
    onSuccess: (vehicle) => queryClient.setQueryData(vehicleKeys.one(vehicle.id), vehicle),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}

/** POST /api/vehicles/{id}/upload-photo → the photo URL (text/plain). */
export function useUploadPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, photo }: { id: number; photo: Blob }) => {
      const form = new FormData();
      form.append('file', photo, 'photo.jpg');
      return api<string>(`/api/vehicles/${id}/upload-photo`, { method: 'POST', body: form });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}

export function useDeleteVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/vehicles/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}

/** POST /api/vehicles/{id}/evaluate-ai → the vehicle with its new aiScore and aiScoreReason. */
export function useEvaluateAi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Vehicle>(`/api/vehicles/${id}/evaluate-ai`, { method: 'POST' }),
    onSuccess: (vehicle) => {
      queryClient.setQueryData(vehicleKeys.one(vehicle.id), vehicle);
      queryClient.setQueryData<VehicleList>(vehicleKeys.list, (list) =>
        list ? { ...list, vehicles: list.vehicles.map((v) => (v.id === vehicle.id ? vehicle : v)) } : list,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}
