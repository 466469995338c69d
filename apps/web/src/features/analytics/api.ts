import {
  type AllTimeTotals,
  type AnalyticsRow,
  CAR_MONTHS_PAGE_MAX,
  type GlobalMonth,
  type MonthlyAnalytics,
  type Vehicle,
  type YearlyAnalytics,
} from '@evdra/domain';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, apiWithHeaders } from '../../lib/api';

// Own query keys: the vehicles feature keeps its (offline-cached) list under its own keys.
export const analyticsKeys = {
  all: ['analytics'] as const,
  vehicle: (id: string) => ['analytics', 'vehicle', id] as const,
  monthly: (id: string) => ['analytics', 'vehicle', id, 'monthly'] as const,
  total: (id: string) => ['analytics', 'vehicle', id, 'total'] as const,
  yearly: (id: string) => ['analytics', 'vehicle', id, 'yearly'] as const,
  vehicles: ['analytics', 'vehicles'] as const,
  user: ['analytics', 'user'] as const,
  admin: (start: string, end: string) => ['analytics', 'admin', start, end] as const,
  adminMonths: (start: string, end: string) => ['analytics', 'admin-months', start, end] as const,
};

const base = (id: string) => `/api/analytics/vehicle/${encodeURIComponent(id)}`;

export const useAnalyticsVehicle = (id: string) =>
  useQuery({
    queryKey: analyticsKeys.vehicle(id),
    queryFn: ({ signal }) => api<Vehicle>(`/api/vehicles/${encodeURIComponent(id)}`, { signal }),
  });

export const useMonthlyAnalytics = (id: string) =>
  useQuery({
    queryKey: analyticsKeys.monthly(id),
    queryFn: ({ signal }) => api<MonthlyAnalytics[]>(`${base(id)}/recompute`, { signal }),
  });

export const useTotalAnalytics = (id: string) =>
  useQuery({
    queryKey: analyticsKeys.total(id),
    queryFn: ({ signal }) => api<AllTimeTotals>(`${base(id)}/total`, { signal }),
  });

export const useYearlyAnalytics = (id: string) =>
  useQuery({
    queryKey: analyticsKeys.yearly(id),
    queryFn: ({ signal }) => api<YearlyAnalytics>(`${base(id)}/yearly`, { signal }),
  });

export const useAnalyticsVehicles = () =>
  useQuery({
    queryKey: analyticsKeys.vehicles,
    queryFn: ({ signal }) => api<Vehicle[]>('/api/vehicles', { signal }),
  });

/** One page of car-months of `path` from `cursor` on, and where the next starts (X-Next-Cursor, issue 54). */
async function carMonths(
  path: string,
  query: Record<string, string | number | undefined>,
  signal: AbortSignal,
) {
  const page = await apiWithHeaders<AnalyticsRow[]>(path, { query, signal });
  return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
}

/**
 * The user's cars' rows by month, newest month first: a fleet's 200 cars over 20 years are 8,000,
 * so read the most the server gives at a time, the next page on request.
 */
export const useUserAnalytics = () =>
  useInfiniteQuery({
    queryKey: analyticsKeys.user,
    queryFn: ({ signal, pageParam }) =>
      carMonths(
        '/api/analytics/user',
        { limit: CAR_MONTHS_PAGE_MAX, cursor: pageParam ?? undefined },
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/**
 * Every car's costs by month added up (issue 54): a dozen rows a month from the global rollup,
 * however many cars. `start`/`end` are `YYYY-MM` or '' (no bound).
 */
export const useAdminMonths = (start: string, end: string) =>
  useQuery({
    queryKey: analyticsKeys.adminMonths(start, end),
    queryFn: ({ signal }) =>
      api<GlobalMonth[]>('/api/analytics/admin/months', {
        query: { start: start || undefined, end: end || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/**
 * Every car's rows by month, newest month first: one row per car and month, so read only when
 * `enabled` (the admin asked for the per-vehicle costs), the most the server gives at a time (the
 * next page follows X-Next-Cursor, issue 54). `start`/`end` are `YYYY-MM` or '' (no bound).
 */
export const useAdminAnalytics = (start: string, end: string, enabled = true) =>
  useInfiniteQuery({
    enabled,
    queryKey: analyticsKeys.admin(start, end),
    queryFn: ({ signal, pageParam }) =>
      carMonths(
        '/api/analytics/admin/filter',
        {
          start: start || undefined,
          end: end || undefined,
          limit: CAR_MONTHS_PAGE_MAX,
          cursor: pageParam ?? undefined,
        },
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
