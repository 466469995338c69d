import {
  ADMIN_ROWS_PAGE_MAX,
  type AllTimeTotals,
  type AnalyticsRow,
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

export const useUserAnalytics = () =>
  useQuery({
    queryKey: analyticsKeys.user,
    queryFn: ({ signal }) => api<AnalyticsRow[]>('/api/analytics/user', { signal }),
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
    queryFn: async ({ signal, pageParam }) => {
      const page = await apiWithHeaders<AnalyticsRow[]>('/api/analytics/admin/filter', {
        query: {
          start: start || undefined,
          end: end || undefined,
          limit: ADMIN_ROWS_PAGE_MAX,
          cursor: pageParam ?? undefined,
        },
        signal,
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
