import type { RecordPage, Vehicle } from '@evdra/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
  allVehicles: (kind: RecordKind, query?: Record<string, string>) =>
    ['records', kind, 'all', query ?? {}] as const,
};

/** Records per page in all-vehicles mode; the next page loads as the list's end scrolls into view. */
export const RECORD_PAGE_SIZE = 30;

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
  /** All-vehicles mode: more records follow; `loadMore` fetches the next page. */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

const is404 = (err: unknown) => err instanceof ApiError && err.status === 404;

/**
 * The records of one kind for one vehicle, or for every vehicle the user may see (one paged
 * request: GET {base}?limit&cursor, loaded a page at a time), each paired with its vehicle, newest
 * first.
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
  const cleanQuery = query ? Object.fromEntries(Object.entries(query).filter(([, v]) => v)) : undefined;

  const one = useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: ({ signal }) => api<Vehicle>(`/api/vehicles/${id}`, { signal }),
    enabled: single && validId,
  });
  const list = useQuery({
    queryKey: recordKeys.list(kind, id, cleanQuery),
    queryFn: ({ signal }) => api<T[]>(`${RECORD_BASE[kind]}/vehicle/${id}`, { signal, query: cleanQuery }),
    enabled: single && validId,
  });
  // All-vehicles mode: the vehicle list names each record's vehicle and offers the user's own in Add.
  const all = useQuery({
    queryKey: vehicleKeys.list,
    queryFn: ({ signal }) => fetchVehicleList(signal),
    enabled: !single,
  });
  const pages = useInfiniteQuery({
    queryKey: recordKeys.allVehicles(kind, cleanQuery),
    queryFn: ({ signal, pageParam }) =>
      api<RecordPage<T>>(RECORD_BASE[kind], {
        signal,
        query: { ...cleanQuery, limit: RECORD_PAGE_SIZE, cursor: pageParam },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !single,
  });

  const vehicles = single ? (one.data ? [one.data] : []) : (all.data?.vehicles ?? []);
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const notFound = single && (!validId || is404(one.error) || is404(list.error));
  const pair = (record: T) => ({ record, vehicle: byId.get(record.vehicleId) });

  // The server sends both lists newest first; a single vehicle's is re-sorted after local edits.
  const rows: Row<T>[] = notFound
    ? []
    : single
      ? (list.data ?? []).map(pair).sort((a, b) => {
          const da = dateOf(a.record);
          const db = dateOf(b.record);
          return da === db ? b.record.id - a.record.id : da < db ? 1 : -1;
        })
      : (pages.data?.pages ?? []).flatMap((p) => p.items).map(pair);

  const error = notFound ? null : (single ? one.error || list.error : all.error || pages.error) || null;

  return {
    single,
    vehicle: single ? one.data : undefined,
    vehicles,
    rows,
    isLoading: single ? one.isLoading || list.isLoading : all.isLoading || pages.isLoading,
    isFetching: single ? one.isFetching || list.isFetching : all.isFetching || pages.isFetching,
    error,
    notFound,
    isOwner: (v) => !!v && !!user && v.ownerId === user.id,
    hasMore: !single && pages.hasNextPage,
    loadingMore: pages.isFetchingNextPage,
    loadMore: () => {
      if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    },
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
