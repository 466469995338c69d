import { expect, test } from '@playwright/test';
import { account, register } from './helpers';

/**
 * Notifications on this device, in Chromium with notification permission granted. Chromium's push
 * service is unreachable offline, so the real PushManager.subscribe may fail: then the same API call
 * the app makes is sent with a browser-made subscription. The service worker's click handler is
 * called directly (a synthetic notificationclick cannot use waitUntil).
 */
test('subscribes this device from Settings, and the service worker opens the app at the push URL', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await register(page, account('push'));
  await page.goto('/settings');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  // Controlled by the worker from the next load on (it never claims open pages).
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

  const toggle = page.getByRole('checkbox', { name: 'Notifications on this device' });
  await expect(toggle).toBeEnabled();
  const subscribeCall = page.waitForRequest(
    (r) => r.url().endsWith('/api/push/public-key') || r.url().endsWith('/api/push/subscriptions'),
  );
  await toggle.click();
  await subscribeCall;
  const failed = page.getByText(/Could not change notifications/);
  // Subscribed, or the push service could not be reached (the app says so).
  await expect
    .poll(async () => (await toggle.isChecked()) || (await failed.isVisible()), { timeout: 40_000 })
    .toBe(true);
  if (await failed.isVisible()) {
    // No push service: register a subscription made here the way the app does (P-256 key, auth secret).
    const status = await page.evaluate(async () => {
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
        'deriveBits',
      ]);
      const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      const b64 = (b: Uint8Array) =>
        btoa(String.fromCharCode(...b))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const res = await fetch('/api/push/subscriptions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': localStorage.getItem('token') ?? '' },
        body: JSON.stringify({
          // .invalid: the server's outbound guard knows it has no address without asking DNS.
          endpoint: 'https://push.example.invalid/e2e-device',
          keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) },
          userAgent: navigator.userAgent,
        }),
      });
      return res.status;
    });
    expect(status).toBe(201);
    await page.reload();
  } else {
    await expect(toggle).toBeChecked();
  }
  await expect(page.getByText('1 device receives notifications.')).toBeVisible();
  await expect(
    page.getByRole('checkbox', { name: 'Reminders (insurance, service, renewals)' }),
  ).toBeChecked();

  // The click handler: focuses this window and takes it to the notification's URL.
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const shown = await worker.evaluate(async () => {
    // The worker's global (this file is typed for pages, not workers).
    const sw = self as unknown as {
      registration: ServiceWorkerRegistration;
      evdraOpen: (url: string) => Promise<unknown>;
    };
    await sw.registration.showNotification('ITP expires tomorrow', {
      body: 'Dacia Logan',
      data: { url: '/vehicles' },
    });
    const [n] = await sw.registration.getNotifications();
    await sw.evdraOpen(n?.data?.url ?? '/');
    return n?.title ?? null;
  });
  expect(shown).toBe('ITP expires tomorrow');
  await expect(page).toHaveURL(/\/vehicles$/);
});
