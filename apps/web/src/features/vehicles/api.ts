import type { Vehicle, VehicleInput } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { fetchVehicleList, vehicleKeys } from '../../lib/vehicle-list';

export { fetchVehicleList, type VehicleList, vehicleKeys } from '../../lib/vehicle-list';

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
