import type { RecordPage, Vehicle } from '@evdra/domain';
import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api';
import {
  loadAllCachedRecords,
  loadRecordList,
  saveAllRecordsPage,
  saveRecordList,
} from '../../lib/offline/cache';
import { withQueue, writeOrQueue } from '../../lib/offline/engine';
import type { EntityKind } from '../../lib/offline/types';
import { getStoredUser, useStoredUser } from '../../lib/session';
import { fetchVehicle, fetchVehicleList, vehicleKeys } from '../../lib/vehicle-list';
import type { ReminderRecord } from './reminderToggle';

export type RecordKind = 'insurance' | 'expenses' | 'fuel' | 'revision';

/** Base path of each record kind's API. */
export const RECORD_BASE: Record<RecordKind, string> = {
  insurance: '/api/insurance',
  expenses: '/api/expenses',
  fuel: '/api/fuel-consumptions',
  revision: '/api/revision',
};

/** The offline queue's name for each record kind. */
export const ENTITY_KIND: Record<RecordKind, EntityKind> = {
  insurance: 'insurance',
  expenses: 'expense',
  fuel: 'fuel',
  revision: 'revision',
};

/**
 * GET {base}/vehicle/{vehicleId}. Each unfiltered answer is cached in IndexedDB; without a
 * connection the cached list is shown (filtered by date here when a from/to filter is set), and in
 * both cases queued writes are applied on top (marked `pendingSync`).
 */
export async function fetchRecordList<T extends { id: number }>(
  kind: RecordKind,
  vehicleId: number,
  query: Record<string, string> | undefined,
  signal?: AbortSignal,
): Promise<T[]> {
  const entity = ENTITY_KIND[kind];
  const user = getStoredUser();
  const filtered = !!query && Object.keys(query).length > 0;
  let rows: T[];
  try {
    if (vehicleId < 0) throw new ApiError(0, 'NETWORK_ERROR', 'Not synced yet');
    rows = await api<T[]>(`${RECORD_BASE[kind]}/vehicle/${vehicleId}`, { signal, query });
    if (user && !filtered) void saveRecordList(user.id, entity, vehicleId, rows).catch(() => undefined);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 0) || !user) throw err;
    const cached = (await loadRecordList(user.id, entity, vehicleId)) as T[] | undefined;
    if (!cached && vehicleId > 0) throw err;
    const { from, to } = query ?? {};
    rows = (cached ?? []).filter((r) => {
      const date = String((r as { date?: unknown }).date ?? '');
      return (!from || date >= from) && (!to || date <= to);
    });
  }
  return withQueue(rows, entity, vehicleId);
}

/** Newest first, as the server lists them: by date, then by id. */
function newestFirst<T extends { id: number }>(dateOf: (r: T) => string) {
  return (a: T, b: T) => {
    const da = dateOf(a);
    const db = dateOf(b);
    return da === db ? b.id - a.id : da < db ? 1 : -1;
  };
}

/**
 * One page of GET {base}?limit&cursor (the records of all the user's vehicles). The pages seen are
 * cached in IndexedDB; without a connection the answer is one page composed of everything cached
 * for this kind (those pages and each vehicle's list the user opened), filtered by date here. In
 * both cases queued writes are shown (marked `pendingSync`).
 */
export async function fetchRecordPage<T extends { id: number; vehicleId: number }>(
  kind: RecordKind,
  query: Record<string, string> | undefined,
  cursor: string | undefined,
  dateOf: (r: T) => string,
  signal?: AbortSignal,
): Promise<RecordPage<T>> {
  const entity = ENTITY_KIND[kind];
  const user = getStoredUser();
  const filtered = !!query && Object.keys(query).length > 0;
  try {
    const page = await api<RecordPage<T>>(RECORD_BASE[kind], {
      signal,
      query: { ...query, limit: RECORD_PAGE_SIZE, cursor },
    });
    if (user && !filtered)
      void saveAllRecordsPage(user.id, entity, page.items, cursor === undefined).catch(() => undefined);
    // Queued edits and deletes apply to every page; queued creates show on the first one only.
    const items = (await withQueue(page.items, entity)).filter((r) => cursor === undefined || r.id > 0);
    return { ...page, items: items.sort(newestFirst(dateOf)) };
  } catch (err) {
    // A next page cannot be composed offline: the first one already holds everything cached.
    if (!(err instanceof ApiError && err.status === 0) || !user || cursor !== undefined) throw err;
    const { from, to } = query ?? {};
    const cached = (await loadAllCachedRecords(user.id, entity)) as T[];
    const items = (await withQueue(cached, entity)).filter((r) => {
      const date = dateOf(r);
      return (!from || date >= from) && (!to || date <= to);
    });
    return { items: items.sort(newestFirst(dateOf)), nextCursor: null };
  }
}

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
  /**
   * The logged-in user may add, edit and delete this vehicle's records (spec §6: owner-only
   * actions): they own it, or it is shared with them as an EDITOR (a VIEWER only reads).
   */
  isOwner: (v: Vehicle | undefined) => boolean;
  /** All-vehicles mode: more records follow; `loadMore` fetches the next page. */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

const is404 = (err: unknown) => err instanceof ApiError && err.status === 404;

/**
 * One vehicle's page before it renders (app/routes.tsx): the vehicle and its records, unfiltered,
 * under the keys useRecordScope reads.
 */
export function prefetchRecordScope(
  client: QueryClient,
  kind: RecordKind,
  vehicleIdParam?: string,
): Promise<unknown> {
  const id = Number(vehicleIdParam);
  if (!Number.isInteger(id) || id <= 0) return Promise.resolve();
  return Promise.all([
    client.prefetchQuery({
      queryKey: vehicleKeys.one(id),
      queryFn: ({ signal }) => fetchVehicle(id, signal),
      networkMode: 'always',
    }),
    client.prefetchQuery({
      queryKey: recordKeys.list(kind, id, {}),
      queryFn: ({ signal }) => fetchRecordList(kind, id, {}, signal),
      networkMode: 'always',
    }),
  ]);
}

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
  // A negative id is a vehicle created offline that the server has not seen yet.
  const validId = Number.isInteger(id) && id !== 0;
  const cleanQuery = query ? Object.fromEntries(Object.entries(query).filter(([, v]) => v)) : undefined;

  const one = useQuery({
    queryKey: vehicleKeys.one(id),
    queryFn: ({ signal }) => fetchVehicle(id, signal),
    enabled: single && validId,
    networkMode: 'always',
  });
  const list = useQuery({
    queryKey: recordKeys.list(kind, id, cleanQuery),
    queryFn: ({ signal }) => fetchRecordList<T>(kind, id, cleanQuery, signal),
    enabled: single && validId,
    networkMode: 'always',
  });
  // All-vehicles mode: the vehicle list names each record's vehicle and offers the user's own in Add.
  const all = useQuery({
    queryKey: vehicleKeys.list,
    queryFn: ({ signal }) => fetchVehicleList(signal),
    enabled: !single,
    networkMode: 'always',
  });
  const pages = useInfiniteQuery({
    queryKey: recordKeys.allVehicles(kind, cleanQuery),
    queryFn: ({ signal, pageParam }) => fetchRecordPage<T>(kind, cleanQuery, pageParam, dateOf, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !single,
    networkMode: 'always',
  });

  const vehicles = single ? (one.data ? [one.data] : []) : (all.data?.vehicles ?? []);
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const notFound = single && (!validId || is404(one.error) || is404(list.error));
  const pair = (record: T) => ({ record, vehicle: byId.get(record.vehicleId) });

  // The server sends both lists newest first; a single vehicle's is re-sorted after local edits.
  const rows: Row<T>[] = notFound
    ? []
    : single
      ? [...(list.data ?? [])].sort(newestFirst(dateOf)).map(pair)
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
    isOwner: (v) => !!v && !!user && (v.ownerId === user.id || v.access === 'EDITOR'),
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
  const entity = ENTITY_KIND[kind];
  const asPayload = (body: unknown) => (body ?? {}) as Record<string, unknown>;
  // Offline (or with writes still queued) creates, edits and deletes go to the queue and the lists
  // show them at once, marked as waiting to sync.
  const create = useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: unknown; idempotencyKey: string }) =>
      writeOrQueue({ type: 'create', kind: entity, payload: asPayload(body), idempotencyKey }, () =>
        api<T>(base, { method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      ),
    networkMode: 'always',
    onSuccess: invalidate,
  });
  /** The version of record `id` as last loaded (any list of this kind), to send with an edit. */
  const loadedVersion = (id: number): number | null => {
    type Loaded = { id: number; version?: number };
    for (const [, data] of queryClient.getQueriesData<Loaded[] | { pages: RecordPage<Loaded>[] }>({
      queryKey: recordKeys.kind(kind),
    })) {
      // A vehicle's list is an array; the all-vehicles list is pages.
      const rows = Array.isArray(data) ? data : (data?.pages ?? []).flatMap((p) => p.items);
      const row = rows.find((r) => r.id === id);
      if (row && typeof row.version === 'number') return row.version;
    }
    return null;
  };
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: unknown }) => {
      // The edit carries the version it was based on: changed elsewhere meanwhile → 409, not lost.
      const version = loadedVersion(id);
      const sent = version === null ? body : { ...asPayload(body), version };
      return writeOrQueue(
        { type: 'update', kind: entity, targetId: id, payload: asPayload(body), baseVersion: version },
        () => api<T>(`${base}/${id}`, { method: 'PUT', body: sent }),
      );
    },
    networkMode: 'always',
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      writeOrQueue({ type: 'delete', kind: entity, targetId: id }, () =>
        api<void>(`${base}/${id}`, { method: 'DELETE' }),
      ),
    networkMode: 'always',
    onSuccess: invalidate,
  });
  const put = useMutation({
    mutationFn: ({ path, body }: { path: string; body?: unknown }) =>
      api<T>(`${base}/${path}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
  const toggleReminder = useMutation({
    mutationFn: async (record: ReminderRecord) => {
      // The records' schemas load with the first toggle, not with the list.
      const { reminderToggleEdit } = await import('./reminderToggle');
      const queued = reminderToggleEdit(kind, record);
      const direct = () => api<T>(`${base}/${record.id}/toggle-reminder`, { method: 'PUT' });
      // Online with nothing queued: the server flips it. Otherwise the flip is queued as an edit
      // that sets the new value (a retried flip could undo itself; a set cannot).
      return queued ? writeOrQueue({ type: 'update', kind: entity, ...queued }, direct) : direct();
    },
    networkMode: 'always',
    onSuccess: invalidate,
  });
  return { create, update, remove, put, toggleReminder };
}
