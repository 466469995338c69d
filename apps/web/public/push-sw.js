/* Web Push for the generated service worker (vite.config.ts workbox.importScripts): shows what the
   server pushed ({title, body, url}) and, on click, focuses an open Evdra tab at that URL or opens one. */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = data.title || 'Evdra';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: '/pwa-192x192.png',
      badge: '/pwa-192x192.png',
      data: { url: data.url || '/' },
      tag: data.url || undefined,
    }),
  );
});

/** Focuses a window of the app (navigated to `url`) or opens one. */
self.evdraOpen = async (url) => {
  const target = new URL(url || '/', self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    // Focus is allowed in a notification click only; without it the window is still navigated.
    const focused = await client.focus().catch(() => client);
    if (client.url !== target && 'navigate' in focused) return focused.navigate(target);
    return focused;
  }
  return self.clients.openWindow(target);
};

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.evdraOpen(event.notification.data?.url));
});
