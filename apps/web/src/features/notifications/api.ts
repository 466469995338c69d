import type { Notification } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';

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

export function useNotifications(enabled: boolean) {
  const query = useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => api<Notification[]>('/api/notifications', { signal }),
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
