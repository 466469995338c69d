import type { CalendarLink, PushDevice, PushPreferences, PushSubscribed } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Calendar link, push devices and push kinds (Settings: "Reminders that reach you"). */
export const reachKeys = {
  calendar: ['users', 'me', 'calendar'] as const,
  devices: ['push', 'devices'] as const,
  preferences: ['push', 'preferences'] as const,
};

export const useCalendarLink = () =>
  useQuery({ queryKey: reachKeys.calendar, queryFn: () => api<CalendarLink>('/api/users/me/calendar') });

export function useResetCalendarLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<CalendarLink>('/api/users/me/calendar/reset', { method: 'POST' }),
    onSuccess: (link) => queryClient.setQueryData(reachKeys.calendar, link),
  });
}

export const usePushDevices = () =>
  useQuery({ queryKey: reachKeys.devices, queryFn: () => api<PushDevice[]>('/api/push/subscriptions') });

export const usePushPreferences = () =>
  useQuery({ queryKey: reachKeys.preferences, queryFn: () => api<PushPreferences>('/api/push/preferences') });

export function useSavePushPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PushPreferences) =>
      api<PushPreferences>('/api/push/preferences', { method: 'PUT', body }),
    onSuccess: (prefs) => queryClient.setQueryData(reachKeys.preferences, prefs),
  });
}

export function useSendTestPush() {
  return useMutation({ mutationFn: () => api<{ devices: number }>('/api/push/test', { method: 'POST' }) });
}

/** Whether this browser can receive Web Push at all. */
export const pushSupported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

/** This device's current browser subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.ready;
  return reg.pushManager.getSubscription();
}

/**
 * Asks permission (only now, on the user's click), subscribes through the service worker with the
 * server's key, and registers the subscription. Resolves to the server's answer (with `replaced`
 * when this device pushed the user's oldest one out), or null when permission is refused.
 */
export async function enablePush(): Promise<PushSubscribed | null> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return null;
  const { publicKey } = await api<{ publicKey: string }>('/api/push/public-key');
  const reg = await navigator.serviceWorker.ready;
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = sub.toJSON();
  return api<PushSubscribed>('/api/push/subscriptions', {
    method: 'POST',
    body: { endpoint: json.endpoint, keys: json.keys, userAgent: navigator.userAgent.slice(0, 300) },
  });
}

/** Stops pushes to this device: on the server, then in the browser. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await api('/api/push/subscriptions', { method: 'DELETE', body: { endpoint: sub.endpoint } }).catch(
    () => undefined,
  );
  await sub.unsubscribe();
}
