import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { CalendarSettings, PushSettings } from './ReachSettings';

const PREFS = { reminders: true, marketplace: true };
const DEVICE = {
  endpoint: 'https://push.example/sub/this-device',
  userAgent: 'Chromium',
  createdAt: '2026-01-01T00:00:00.000Z',
};

/**
 * A browser that can receive pushes: a service worker whose push manager subscribes, and a
 * Notification whose permission the test decides (asked only on the user's click).
 */
function stubPushBrowser(permission: NotificationPermission) {
  let subscription: PushSubscription | null = null;
  const subscribe = vi.fn(async (_options: PushSubscriptionOptionsInit) => {
    subscription = {
      endpoint: DEVICE.endpoint,
      toJSON: () => ({ endpoint: DEVICE.endpoint, keys: { p256dh: 'BPk', auth: 'au' } }),
      unsubscribe: async () => {
        subscription = null;
        return true;
      },
    } as unknown as PushSubscription;
    return subscription;
  });
  const pushManager = { getSubscription: async () => subscription, subscribe };
  vi.stubGlobal('PushManager', class {});
  const requestPermission = vi.fn(async () => permission);
  vi.stubGlobal('Notification', { requestPermission, permission: 'default' });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ pushManager }) },
  });
  return { subscribe, requestPermission };
}

// The machine is shared: a page's several requests may take seconds.
describe('PushSettings', { timeout: 20_000 }, () => {
  it('on a browser without push: says so, and the per-kind switches still save', async () => {
    storeUser();
    const fetchMock = mockApi({
      'GET /api/push/subscriptions': () => jsonResponse([]),
      'GET /api/push/preferences': () => jsonResponse(PREFS),
      'PUT /api/push/preferences': (_url, init) => jsonResponse(JSON.parse(String(init.body))),
    });
    const { user } = renderPage(<PushSettings />);
    expect(await screen.findByText('This browser cannot receive notifications.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Notifications on this device' })).toBeNull();

    const reminders = await screen.findByRole('checkbox', {
      name: 'Reminders (insurance, service, renewals)',
    });
    const market = screen.getByRole('checkbox', { name: 'Marketplace (interest, messages, sales)' });
    expect(reminders).toBeChecked();
    expect(market).toBeChecked();
    await user.click(market);
    await waitFor(() =>
      expect(
        screen.getByRole('checkbox', { name: 'Marketplace (interest, messages, sales)' }),
      ).not.toBeChecked(),
    );
    expect(screen.getByRole('checkbox', { name: 'Reminders (insurance, service, renewals)' })).toBeChecked();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ reminders: true, marketplace: false });
  });

  it('"Send a test notification": how many devices got it, none, or why it failed', async () => {
    storeUser();
    let answer: () => Response = () => jsonResponse({ devices: 2 });
    mockApi({
      'GET /api/push/subscriptions': () => jsonResponse([DEVICE, { ...DEVICE, endpoint: 'https://x/2' }]),
      'GET /api/push/preferences': () => jsonResponse(PREFS),
      'POST /api/push/test': () => answer(),
    });
    const { user } = renderPage(<PushSettings />);
    expect(await screen.findByText('2 devices receive notifications.')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Send a test notification' });
    await user.click(button);
    expect(await screen.findByText('Test notification sent to 2 devices.')).toHaveAttribute('role', 'status');

    answer = () => jsonResponse({ devices: 0 });
    await user.click(button);
    expect(
      await screen.findByText('No device receives notifications yet: turn them on above.'),
    ).toBeInTheDocument();

    answer = () => jsonResponse({ code: 'RATE_LIMITED', message: 'Too many requests' }, 429);
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Could not send the test notification\./);
  });

  it('asks permission only when the device switch is clicked; refused, it says how to allow it', async () => {
    storeUser();
    const { requestPermission, subscribe } = stubPushBrowser('denied');
    const fetchMock = mockApi({
      'GET /api/push/subscriptions': () => jsonResponse([]),
      'GET /api/push/preferences': () => jsonResponse(PREFS),
    });
    const { user } = renderPage(<PushSettings />);
    const toggle = await screen.findByRole('checkbox', { name: 'Notifications on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(requestPermission).not.toHaveBeenCalled();
    await user.click(toggle);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Notifications are blocked for this site. Allow them in the browser settings and try again.',
    );
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(subscribe).not.toHaveBeenCalled();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/push/subscriptions' && init?.method === 'POST',
      ),
    ).toBe(false);
    expect(screen.getByRole('checkbox', { name: 'Notifications on this device' })).not.toBeChecked();
  });

  it('granted: subscribes with the server key, registers the device, and shows the switch on', async () => {
    storeUser();
    const { subscribe } = stubPushBrowser('granted');
    let devices: (typeof DEVICE)[] = [];
    const fetchMock = mockApi({
      'GET /api/push/subscriptions': () => jsonResponse(devices),
      'GET /api/push/preferences': () => jsonResponse(PREFS),
      'GET /api/push/public-key': () => jsonResponse({ publicKey: 'AQID' }),
      'POST /api/push/subscriptions': () => {
        devices = [DEVICE];
        return jsonResponse(DEVICE, 201);
      },
    });
    const { user } = renderPage(<PushSettings />);
    const toggle = await screen.findByRole('checkbox', { name: 'Notifications on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Notifications on this device' })).toBeChecked(),
    );
    expect(screen.getByText('1 device receives notifications.')).toBeInTheDocument();
    const options = subscribe.mock.calls[0]?.[0];
    expect(options?.userVisibleOnly).toBe(true);
    expect([...((options?.applicationServerKey ?? []) as Uint8Array)]).toEqual([1, 2, 3]);
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/push/subscriptions' && init?.method === 'POST',
    );
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      endpoint: DEVICE.endpoint,
      keys: { p256dh: 'BPk', auth: 'au' },
    });
  });
});

describe('PushSettings past the device cap', { timeout: 20_000 }, () => {
  it('says which device no longer gets notifications when this one replaced the oldest', async () => {
    storeUser();
    stubPushBrowser('granted');
    let devices: (typeof DEVICE)[] = [];
    mockApi({
      'GET /api/push/subscriptions': () => jsonResponse(devices),
      'GET /api/push/preferences': () => jsonResponse(PREFS),
      'GET /api/push/public-key': () => jsonResponse({ publicKey: 'AQID' }),
      'POST /api/push/subscriptions': () => {
        devices = [DEVICE];
        const oldest = {
          id: 1,
          endpoint: 'https://push.example/old',
          userAgent: 'Firefox',
          createdAt: '2025-03-01T08:00:00.000Z',
        };
        return jsonResponse({ id: 21, ...DEVICE, replaced: oldest }, 201);
      },
    });
    const { user } = renderPage(<PushSettings />);
    const toggle = await screen.findByRole('checkbox', { name: 'Notifications on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    expect(
      await screen.findByText(
        'At most 20 devices receive notifications: the oldest one (added Mar 1, 2025) no longer does.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Notifications on this device' })).toBeChecked();
  });
});

describe('CalendarSettings', { timeout: 20_000 }, () => {
  const LINK = { url: 'https://evdra.example/api/calendar/old-token.ics' };

  it('shows the feed link; "Reset calendar link" asks first, then shows the new link', async () => {
    storeUser();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const fetchMock = mockApi({
      'GET /api/users/me/calendar': () => jsonResponse(LINK),
      'POST /api/users/me/calendar/reset': () =>
        jsonResponse({ url: 'https://evdra.example/api/calendar/new-token.ics' }),
    });
    const { user } = renderPage(<CalendarSettings />);
    expect(await screen.findByLabelText('Calendar link')).toHaveValue(LINK.url);

    await user.click(screen.getByRole('button', { name: 'Reset calendar link' }));
    expect(confirm).toHaveBeenCalledWith(
      'Make a new link? Calendars subscribed with the old one stop updating.',
    );
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    expect(screen.getByLabelText('Calendar link')).toHaveValue(LINK.url);

    await user.click(screen.getByRole('button', { name: 'Reset calendar link' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Calendar link')).toHaveValue(
        'https://evdra.example/api/calendar/new-token.ics',
      ),
    );
  });

  it('says when the reset failed (the old link still works) and copies the link', async () => {
    storeUser();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    mockApi({
      'GET /api/users/me/calendar': () => jsonResponse(LINK),
      'POST /api/users/me/calendar/reset': () =>
        jsonResponse({ code: 'INTERNAL', message: 'Internal error' }, 500),
    });
    const { user } = renderPage(<CalendarSettings />);
    await screen.findByLabelText('Calendar link');
    await user.click(screen.getByRole('button', { name: 'Reset calendar link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not reset the calendar link. Something went wrong on the server.',
    );
    expect(screen.getByLabelText('Calendar link')).toHaveValue(LINK.url);

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(LINK.url);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });
});
