import type { RecordPage, Vehicle } from '@evdra/domain';
import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, api, apiWithHeaders } from '../../lib/api';
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
 * One page of GET {base}/vehicle/{vehicleId}?limit&cursor (issue 54): VEHICLE_PAGE_SIZE records after
 * `cursor`, and the next page's cursor from the X-Next-Cursor header (null: the last page). The
 * unfiltered pages are cached in IndexedDB as the user loads them (the first replaces the list, later
 * ones add to it); without a connection the first page is the cached list (filtered by date here when
 * a from/to filter is set) and no next page. In both cases queued writes are applied on top (marked
 * `pendingSync`); queued creates show on the first page only.
 */
export async function fetchRecordList<T extends { id: number }>(
  kind: RecordKind,
  vehicleId: number,
  query: Record<string, string> | undefined,
  signal?: AbortSignal,
  // null too: a first page rendered by the server comes back from JSON with a null page param.
  cursor?: string | null,
): Promise<RecordPage<T>> {
  const entity = ENTITY_KIND[kind];
  const user = getStoredUser();
  const filtered = !!query && Object.keys(query).length > 0;
  const first = cursor == null;
  let rows: T[];
  let nextCursor: string | null = null;
  try {
    if (vehicleId < 0) throw new ApiError(0, 'NETWORK_ERROR', 'Not synced yet');
    const page = await apiWithHeaders<T[]>(`${RECORD_BASE[kind]}/vehicle/${vehicleId}`, {
      signal,
      query: { ...query, limit: VEHICLE_PAGE_SIZE, cursor: cursor ?? undefined },
    });
    rows = page.data;
    nextCursor = page.headers.get('x-next-cursor');
    if (user && !filtered)
      void saveRecordList(user.id, entity, vehicleId, rows, first).catch(() => undefined);
  } catch (err) {
    // A next page cannot be read offline: the first one already holds everything cached.
    if (!(err instanceof ApiError && err.status === 0) || !user || !first) throw err;
    const cached = (await loadRecordList(user.id, entity, vehicleId)) as T[] | undefined;
    if (!cached && vehicleId > 0) throw err;
    const { from, to } = query ?? {};
    rows = (cached ?? []).filter((r) => {
      const date = String((r as { date?: unknown }).date ?? '');
      return (!from || date >= from) && (!to || date <= to);
    });
  }
  const items = (await withQueue(rows, entity, vehicleId)).filter((r) => first || r.id > 0);
  return { items, nextCursor };
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
/**
 * Records per page of one vehicle's list (issue 54): a year or two of fill-ups, so most cars come in
 * one request; a 20-year history comes as the user scrolls.
 */
export const VEHICLE_PAGE_SIZE = 100;

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
  /** More records follow (a long list comes a page at a time); `loadMore` fetches the next page. */
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
    client.prefetchInfiniteQuery({
      queryKey: recordKeys.list(kind, id, {}),
      queryFn: ({ signal, pageParam }) => fetchRecordList(kind, id, {}, signal, pageParam),
      initialPageParam: undefined as string | null | undefined,
      networkMode: 'always',
    }),
  ]);
}

/**
 * The records of one kind for one vehicle (GET {base}/vehicle/{id}?limit&cursor) or for every
 * vehicle the user may see (GET {base}?limit&cursor), each loaded a page at a time and paired with
 * its vehicle, newest first.
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
  const list = useInfiniteQuery({
    queryKey: recordKeys.list(kind, id, cleanQuery),
    queryFn: ({ signal, pageParam }) => fetchRecordList<T>(kind, id, cleanQuery, signal, pageParam),
    initialPageParam: undefined as string | null | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
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
      ? (list.data?.pages ?? [])
          .flatMap((p) => p.items)
          .sort(newestFirst(dateOf))
          .map(pair)
      : (pages.data?.pages ?? []).flatMap((p) => p.items).map(pair);

  // Either list comes a page at a time; the next loads as its end scrolls into view.
  const paged = single ? list : pages;
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
    hasMore: paged.hasNextPage,
    loadingMore: paged.isFetchingNextPage,
    loadMore: () => {
      if (paged.hasNextPage && !paged.isFetchingNextPage) void paged.fetchNextPage();
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
    for (const [, data] of queryClient.getQueriesData<{ pages: RecordPage<Loaded>[] }>({
      queryKey: recordKeys.kind(kind),
    })) {
      // Both a vehicle's list and the all-vehicles list are pages.
      const rows = (data?.pages ?? []).flatMap((p) => p.items);
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
