import { NOTIFICATIONS_PAGE_SIZE, type Notification } from '@evdra/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderApp, storeUser } from '../../../test/utils';

const insurance: Notification = {
  id: 11,
  type: 'INSURANCE_REMINDER',
  title: 'Insurance ends in 7 days',
  content: 'The Allianz policy of your Dacia Logan (B-123-ABC) ends on 2025-03-10.',
  timestamp: '2025-03-03T08:00:00.000Z',
  read: false,
  vehicleId: 7,
};
const revision: Notification = {
  id: 12,
  type: 'REVISION_REMINDER',
  title: 'Service due in 30 days',
  content: 'Your Ford Focus is due for a service.',
  timestamp: '2025-03-04T08:00:00.000Z',
  read: false,
  vehicleId: 8,
};
const old: Notification = {
  ...insurance,
  id: 5,
  title: 'Old reminder',
  timestamp: '2025-01-01T08:00:00.000Z',
  read: true,
};

/** A tiny server: the list and count follow the PATCH/DELETE calls. */
function setup() {
  storeUser();
  let list = [old, insurance, revision];
  const fetchMock = mockApi({
    'GET /api/notifications': () => jsonResponse(list),
    'GET /api/notifications/count': () => jsonResponse({ count: list.filter((n) => !n.read).length }),
    'PATCH /api/notifications/11/clear': () => {
      list = list.map((n) => (n.id === 11 ? { ...n, read: true } : n));
      return jsonResponse({ ...insurance, read: true });
    },
    'PATCH /api/notifications/12/clear': () => {
      list = list.map((n) => (n.id === 12 ? { ...n, read: true } : n));
      return jsonResponse({ ...revision, read: true });
    },
    'PATCH /api/notifications/clear-all': () => {
      list = list.map((n) => ({ ...n, read: true }));
      return new Response(null, { status: 204 });
    },
    'DELETE /api/notifications/clear': () => {
      list = [];
      return new Response(null, { status: 204 });
    },
  });
  const rendered = renderApp('/');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  const bell = within(nav).getByRole('button', { name: 'Notifications' });
  return { fetchMock, nav, bell, ...rendered };
}

const calls = (fetchMock: ReturnType<typeof mockApi>, method: string, url: string) =>
  fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method).length;

/** The list is asked a page at a time (issue 54). */
const firstPage = `/api/notifications?limit=${NOTIFICATIONS_PAGE_SIZE}`;

afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationsBell', () => {
  it('shows the unread count on the bell, and its name says it (label in name: the visible count is in it)', async () => {
    const { bell } = setup();
    await waitFor(() => expect(within(bell).getByText('2')).toBeInTheDocument());
    expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  });

  it('lists newest first, marks unread ones, and closes on Escape and outside click', async () => {
    const { bell, user, nav } = setup();
    await user.click(bell);
    const panel = within(nav).getByRole('region', { name: 'Notifications' });
    const items = await within(panel).findAllByRole('button', { name: /reminder|days/ });
    expect(items.map((b) => b.querySelector('.notif__item-title')?.textContent)).toEqual([
      'Unread: Service due in 30 days',
      'Unread: Insurance ends in 7 days',
      'Old reminder',
    ]);
    await user.keyboard('{Escape}');
    expect(within(nav).queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(bell).toHaveFocus();
    await user.click(bell);
    expect(within(nav).getByRole('region', { name: 'Notifications' })).toBeInTheDocument();
    await user.click(screen.getByRole('contentinfo'));
    expect(within(nav).queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('marks a clicked insurance reminder read and opens that vehicle’s insurance page', async () => {
    const { bell, user, nav, fetchMock } = setup();
    await user.click(bell);
    await user.click(await within(nav).findByRole('button', { name: /Insurance ends in 7 days/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/insurance/7'));
    expect(calls(fetchMock, 'PATCH', '/api/notifications/11/clear')).toBe(1);
    expect(within(nav).queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(bell).getByText('1')).toBeInTheDocument());
  });

  it('opens the revision page for a revision reminder', async () => {
    const { bell, user, nav, fetchMock } = setup();
    await user.click(bell);
    await user.click(await within(nav).findByRole('button', { name: /Service due in 30 days/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/revision/8'));
    expect(calls(fetchMock, 'PATCH', '/api/notifications/12/clear')).toBe(1);
  });

  it('Mark all as read clears the count', async () => {
    const { bell, user, nav, fetchMock } = setup();
    await waitFor(() => expect(within(bell).getByText('2')).toBeInTheDocument());
    await user.click(bell);
    await user.click(within(nav).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(within(bell).queryByText('2')).not.toBeInTheDocument());
    expect(calls(fetchMock, 'PATCH', '/api/notifications/clear-all')).toBe(1);
    expect(within(nav).queryByText(/^Unread:/)).not.toBeInTheDocument();
  });

  it("asks 'Delete all notifications?' before clearing, then shows the empty state", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { bell, user, nav, fetchMock } = setup();
    await user.click(bell);
    const clear = await within(nav).findByRole('button', { name: 'Clear notifications' });
    await waitFor(() => expect(clear).toBeEnabled());
    await user.click(clear);
    expect(confirm).toHaveBeenCalledWith('Delete all notifications?');
    expect(calls(fetchMock, 'DELETE', '/api/notifications/clear')).toBe(0);
    await user.click(clear);
    expect(await within(nav).findByText('No notifications yet.')).toBeInTheDocument();
    expect(calls(fetchMock, 'DELETE', '/api/notifications/clear')).toBe(1);
  });

  it('refreshes the list and the count every 60 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock } = setup();
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/notifications/count')).toBeGreaterThan(0));
    const countBefore = calls(fetchMock, 'GET', '/api/notifications/count');
    const listBefore = calls(fetchMock, 'GET', firstPage);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(calls(fetchMock, 'GET', '/api/notifications/count')).toBe(countBefore);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_500);
    });
    await waitFor(() =>
      expect(calls(fetchMock, 'GET', '/api/notifications/count')).toBeGreaterThan(countBefore),
    );
    expect(calls(fetchMock, 'GET', firstPage)).toBeGreaterThan(listBefore);
  });

  // 32 rows rendered twice on a shared machine: more than the default 5 s.
  it('shows a page, and Load more brings the older ones after it (issue 54)', {
    timeout: 20_000,
  }, async () => {
    storeUser();
    const note = (n: number): Notification => ({
      ...revision,
      id: 1000 + n,
      title: `Reminder ${n}`,
      read: true,
      timestamp: new Date(Date.UTC(2026, 0, 1) - n * 60_000).toISOString(),
    });
    const first = Array.from({ length: NOTIFICATIONS_PAGE_SIZE }, (_, i) => note(i + 1));
    const fetchMock = mockApi({
      'GET /api/notifications': (url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'n30'
          ? jsonResponse([note(31), note(32)])
          : new Response(JSON.stringify(first), {
              headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'n30' },
            }),
      'GET /api/notifications/count': () => jsonResponse({ count: 0 }),
    });
    const { user } = renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('button', { name: 'Notifications' }));
    const panel = within(nav).getByRole('region', { name: 'Notifications' });
    await within(panel).findByText('Reminder 30');
    expect(within(panel).queryByText('Reminder 31')).not.toBeInTheDocument();
    const list = within(panel).getByRole('list', { name: 'Notification list' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    await user.click(within(panel).getByRole('button', { name: 'Load more' }));
    expect(await within(panel).findByText('Reminder 32')).toBeInTheDocument();
    const titles = within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.notif__item-title')?.textContent);
    expect(titles).toEqual(Array.from({ length: 32 }, (_, i) => `Reminder ${i + 1}`));
    // The last page said no next one: no button; the panel stays open.
    await waitFor(() =>
      expect(within(panel).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument(),
    );
    expect(within(nav).getByRole('region', { name: 'Notifications' })).toBeInTheDocument();
    const asked = fetchMock.mock.calls
      .map(([u]) => String(u))
      .filter((u) => u.startsWith('/api/notifications?'));
    expect(asked.every((u) => u.includes(`limit=${NOTIFICATIONS_PAGE_SIZE}`))).toBe(true);
    expect(asked.some((u) => u.includes('cursor=n30'))).toBe(true);
  });

  it('does not poll when logged out', async () => {
    const fetchMock = mockApi({});
    renderApp('/');
    await screen.findByRole('heading', { name: 'Welcome to Evdra' });
    expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/notifications'))).toBe(false);
  });
});
