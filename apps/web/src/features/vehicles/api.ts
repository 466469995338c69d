import type { Vehicle, VehicleInput } from '@evdra/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { ApiError, api } from '../../lib/api';
import { attachPhotoToQueuedCreate, writeOrQueue } from '../../lib/offline/engine';
import { fetchVehicle, fetchVehicleList, type VehicleList, vehicleKeys } from '../../lib/vehicle-list';

export { fetchVehicle, fetchVehicleList, type VehicleList, vehicleKeys } from '../../lib/vehicle-list';

// Offline the list and the vehicle still load (from the cache), so they must not wait for the network.
export const vehiclesQuery = () =>
  queryOptions({
    queryKey: vehicleKeys.list,
    queryFn: ({ signal }) => fetchVehicleList(signal),
    networkMode: 'always',
  });
export const useVehicles = () => useQuery(vehiclesQuery());

export const useVehicle = (id: number, enabled = true) =>
  useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: ({ signal }) => fetchVehicle(id, signal),
    enabled,
    networkMode: 'always',
  });

/** What is sent for a vehicle (the form's fields, without version and photo). */
function vehiclePayload(body: VehicleInput & { version?: number }): Record<string, unknown> {
  const { version: _version, ...rest } = body as VehicleInput & { version?: number; photoUrl?: unknown };
  const { photoUrl: _photoUrl, ...fields } = rest as Record<string, unknown>;
  return fields;
}

export function useCreateVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline (or with writes still queued) the create is queued and answers the pending row.
    mutationFn: ({ body, idempotencyKey }: { body: VehicleInput; idempotencyKey: string }) =>
      writeOrQueue({ type: 'create', kind: 'vehicle', payload: vehiclePayload(body), idempotencyKey }, () =>
        api<Vehicle>('/api/vehicles', {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
      ),
    networkMode: 'always',
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
    mutationFn: async ({ id, body, photo, removePhoto }: VehicleUpdate) => {
      if (!photo && !removePhoto) {
        // Plain edits queue offline, carrying the version they were based on.
        return writeOrQueue(
          {
            type: 'update',
            kind: 'vehicle',
            targetId: id,
            payload: vehiclePayload(body),
            baseVersion: body.version,
            vehicle: { ...body, id },
          },
          () => api<Vehicle>(`/api/vehicles/${id}`, { method: 'PUT', body }),
        );
      }
      if (id < 0 || !navigator.onLine) {
        throw new ApiError(0, 'OFFLINE_PHOTO', i18n.t('offline.photoNeedsConnection'));
      }
      const form = new FormData();
      form.append('data', JSON.stringify(body));
      if (photo) form.append('photo', photo, 'photo.jpg');
      else if (removePhoto) form.append('removePhoto', 'true');
      return api<Vehicle>(`/api/vehicles/${id}`, { method: 'PATCH', body: form });
    },
    networkMode: 'always',
    onSuccess: (vehicle) => queryClient.setQueryData(vehicleKeys.one(vehicle.id), vehicle),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
  });
}

/**
 * POST /api/vehicles/{id}/upload-photo → the photo URL (text/plain). The photo of a vehicle created
 * offline is kept with its queued create and uploaded right after it (answers null).
 */
export function useUploadPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, photo }: { id: number; photo: Blob }): Promise<string | null> => {
      if (id < 0 && (await attachPhotoToQueuedCreate(id, photo))) return null;
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
    mutationFn: (id: number) =>
      writeOrQueue({ type: 'delete', kind: 'vehicle', targetId: id }, () =>
        api<void>(`/api/vehicles/${id}`, { method: 'DELETE' }),
      ),
    networkMode: 'always',
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
