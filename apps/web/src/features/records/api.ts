import type { Vehicle } from '@evdra/domain';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api';
import { useStoredUser } from '../../lib/session';
import { fetchVehicleList, vehicleKeys } from '../../lib/vehicle-list';

export type RecordKind = 'insurance' | 'expenses' | 'fuel' | 'revision';

/** Base path of each record kind's API. */
export const RECORD_BASE: Record<RecordKind, string> = {
  insurance: '/api/insurance',
  expenses: '/api/expenses',
  fuel: '/api/fuel-consumptions',
  revision: '/api/revision',
};

export const recordKeys = {
  kind: (kind: RecordKind) => ['records', kind] as const,
  list: (kind: RecordKind, vehicleId: number, query?: Record<string, string>) =>
    ['records', kind, vehicleId, query ?? {}] as const,
};

export interface Row<T> {
  record: T;
  vehicle: Vehicle | undefined;
}

export interface RecordScope<T> {
  /** One vehicle (/kind/:vehicleId) or all the user's vehicles (/kind). */
  single: boolean;
  vehicle: Vehicle | undefined;
  vehicles: Vehicle[];
  rows: Row<T>[];
  isLoading: boolean;
  isFetching: boolean;
  error: unknown;
  notFound: boolean;
  /** The logged-in user owns this vehicle (spec §6: owner-only actions). */
  isOwner: (v: Vehicle | undefined) => boolean;
}

const is404 = (err: unknown) => err instanceof ApiError && err.status === 404;

/**
 * The records of one kind for one vehicle, or for every vehicle of the user (GET /api/vehicles then
 * each vehicle's list in parallel), each paired with its vehicle, newest first.
 */
export function useRecordScope<T extends { id: number; vehicleId: number }>(
  kind: RecordKind,
  vehicleIdParam: string | undefined,
  dateOf: (r: T) => string,
  query?: Record<string, string>,
): RecordScope<T> {
  const user = useStoredUser();
  const single = vehicleIdParam !== undefined;
  const id = single ? Number(vehicleIdParam) : Number.NaN;
  const validId = Number.isInteger(id) && id > 0;

  const one = useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: ({ signal }) => api<Vehicle>(`/api/vehicles/${id}`, { signal }),
    enabled: single && validId,
  });
  const all = useQuery({
    queryKey: vehicleKeys.list,
    queryFn: ({ signal }) => fetchVehicleList(signal),
    enabled: !single,
  });

  const ids = single ? (validId ? [id] : []) : (all.data?.vehicles ?? []).map((v) => v.id);
  const cleanQuery = query ? Object.fromEntries(Object.entries(query).filter(([, v]) => v)) : undefined;
  const lists = useQueries({
    queries: ids.map((vehicleId) => ({
      queryKey: recordKeys.list(kind, vehicleId, cleanQuery),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api<T[]>(`${RECORD_BASE[kind]}/vehicle/${vehicleId}`, { signal, query: cleanQuery }),
    })),
  });

  const vehicles = single ? (one.data ? [one.data] : []) : (all.data?.vehicles ?? []);
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const notFound = single && (!validId || is404(one.error) || lists.some((l) => is404(l.error)));

  const rows: Row<T>[] = notFound
    ? []
    : lists
        .flatMap((l) => l.data ?? [])
        .map((record) => ({ record, vehicle: byId.get(record.vehicleId) }))
        .sort((a, b) => {
          const da = dateOf(a.record);
          const db = dateOf(b.record);
          return da === db ? b.record.id - a.record.id : da < db ? 1 : -1;
        });

  const listError = lists.find((l) => l.error && !(is404(l.error) && !single))?.error;
  const error = notFound ? null : (single ? one.error : all.error) || listError || null;

  return {
    single,
    vehicle: single ? one.data : undefined,
    vehicles,
    rows,
    isLoading: (single ? one.isLoading : all.isLoading) || lists.some((l) => l.isLoading),
    isFetching: (single ? one.isFetching : all.isFetching) || lists.some((l) => l.isFetching),
    error,
    notFound,
    isOwner: (v) => !!v && !!user && v.ownerId === user.id,
  };
}

/** Create, update, delete and the extra PUTs of a record kind; every list of that kind refetches. */
export function useRecordMutations<T>(kind: RecordKind) {
  const queryClient = useQueryClient();
  const invalidate = async () => {
    await queryClient.invalidateQueries({ queryKey: recordKeys.kind(kind) });
    // A fuel entry with a new highest odometer raises the vehicle's odometer.
    if (kind === 'fuel') await queryClient.invalidateQueries({ queryKey: vehicleKeys.all });
  };
  const base = RECORD_BASE[kind];
  const create = useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: unknown; idempotencyKey: string }) =>
      api<T>(base, { method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
    onSuccess: invalidate,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: unknown }) =>
      api<T>(`${base}/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api<void>(`${base}/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
  const put = useMutation({
    mutationFn: ({ path, body }: { path: string; body?: unknown }) =>
      api<T>(`${base}/${path}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
  return { create, update, remove, put };
}
