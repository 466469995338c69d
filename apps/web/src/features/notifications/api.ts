import { NOTIFICATIONS_PAGE_SIZE, type Notification } from '@evdra/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiWithHeaders } from '../../lib/api';

/** Spec §9: list and count refresh every 60 s (and when the tab regains focus). */
export const NOTIFICATION_POLL_MS = 60_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  count: ['notifications', 'count'] as const,
};

/** Spec §8: notification failures are only logged. */
function useLogFailure(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.warn(`Notifications: ${what} failed`, error);
  }, [error, what]);
}

const polling = (enabled: boolean) => ({
  enabled,
  refetchInterval: enabled ? NOTIFICATION_POLL_MS : (false as const),
  refetchOnWindowFocus: true,
  retry: false,
});

export function useNotificationCount(enabled: boolean) {
  const query = useQuery({
    queryKey: notificationKeys.count,
    queryFn: ({ signal }) => api<{ count: number }>('/api/notifications/count', { signal }),
    ...polling(enabled),
  });
  useLogFailure(query.error, 'count');
  return query;
}

/** One page of notifications and where the next starts (null: the last page). */
export type NotificationPage = { items: Notification[]; nextCursor: string | null };

/**
 * The list a page at a time (issue 54): NOTIFICATIONS_PAGE_SIZE per request, newest first, the
 * next page's cursor from X-Next-Cursor (Load more). Each poll asks again for the pages shown.
 */
export function useNotifications(enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: notificationKeys.list,
    initialPageParam: null as string | null,
    queryFn: async ({ signal, pageParam }): Promise<NotificationPage> => {
      const page = await apiWithHeaders<Notification[]>('/api/notifications', {
        signal,
        query: { limit: NOTIFICATIONS_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    getNextPageParam: (last) => last.nextCursor,
    ...polling(enabled),
  });
  useLogFailure(query.error, 'list');
  return query;
}

function useNotificationMutation<V>(what: string, call: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onError: (error) => console.warn(`Notifications: ${what} failed`, error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export const useMarkRead = () =>
  useNotificationMutation('mark read', (id: number) =>
    api<Notification>(`/api/notifications/${id}/clear`, { method: 'PATCH' }),
  );

export const useMarkAllRead = () =>
  useNotificationMutation('mark all read', () =>
    api<void>('/api/notifications/clear-all', { method: 'PATCH' }),
  );

export const useClearNotifications = () =>
  useNotificationMutation('clear', () => api<void>('/api/notifications/clear', { method: 'DELETE' }));
