import type { ShareRole, VehicleShare } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { vehicleKeys } from '../../lib/vehicle-list';

/** Sharing a vehicle (issue 22): GET/POST /api/vehicles/{id}/shares, PUT/DELETE …/shares/{userId}. */
export const shareKeys = { of: (vehicleId: number) => ['vehicles', vehicleId, 'shares'] as const };

export const useShares = (vehicleId: number) =>
  useQuery({
    queryKey: shareKeys.of(vehicleId),
    queryFn: ({ signal }) => api<VehicleShare[]>(`/api/vehicles/${vehicleId}/shares`, { signal }),
  });

/** Add, change and remove shares; the share list and the vehicle lists refetch after each. */
export function useShareMutations(vehicleId: number) {
  const queryClient = useQueryClient();
  const settled = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: shareKeys.of(vehicleId) }),
      queryClient.invalidateQueries({ queryKey: vehicleKeys.all }),
    ]);
  const base = `/api/vehicles/${vehicleId}/shares`;
  return {
    add: useMutation({
      mutationFn: (body: { username: string; role: ShareRole }) =>
        api<VehicleShare>(base, { method: 'POST', body }),
      onSettled: settled,
    }),
    setRole: useMutation({
      mutationFn: ({ userId, role }: { userId: number; role: ShareRole }) =>
        api<VehicleShare>(`${base}/${userId}`, { method: 'PUT', body: { role } }),
      onSettled: settled,
    }),
    remove: useMutation({
      mutationFn: (userId: number) => api<void>(`${base}/${userId}`, { method: 'DELETE' }),
      onSettled: settled,
    }),
  };
}

/**
 * A grantee leaves a car shared with them (DELETE …/shares/{their own id}). Every cached screen
 * refetches: the car's records and reminders are no longer theirs to see.
 */
export function useLeaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vehicleId, userId }: { vehicleId: number; userId: number }) =>
      api<void>(`/api/vehicles/${vehicleId}/shares/${userId}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
