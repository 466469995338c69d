import type { Renewal, RenewalBody, User } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { renewalKeys } from '../../lib/renewal-keys';
import { fetchVehicle, vehicleKeys } from '../../lib/vehicle-list';

export const useRenewals = (vehicleId: number) =>
  useQuery({
    queryKey: renewalKeys.of(vehicleId),
    queryFn: ({ signal }) => api<Renewal[]>(`/api/vehicles/${vehicleId}/renewals`, { signal }),
  });

export const useRenewalVehicle = (vehicleId: number) =>
  useQuery({
    queryKey: vehicleKeys.one(vehicleId),
    queryFn: ({ signal }) => fetchVehicle(vehicleId, signal),
  });

/** The caller, for the country whose presets the type list shows (the same query as Settings). */
export const useMeForRenewals = () =>
  useQuery({ queryKey: ['users', 'me'], queryFn: () => api<User>('/api/users/me') });

export function useSaveRenewal(vehicleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: RenewalBody & { version?: number } }) =>
      id === undefined
        ? api<Renewal>(`/api/vehicles/${vehicleId}/renewals`, {
            method: 'POST',
            body,
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          })
        : api<Renewal>(`/api/vehicles/${vehicleId}/renewals/${id}`, { method: 'PUT', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: renewalKeys.of(vehicleId) }),
  });
}

export function useDeleteRenewal(vehicleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`/api/vehicles/${vehicleId}/renewals/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: renewalKeys.of(vehicleId) }),
  });
}
