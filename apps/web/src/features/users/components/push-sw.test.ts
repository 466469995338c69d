import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// public/push-sw.js, run against a stand-in service worker global: what a push shows, and where a
// click on it takes the user (issue 23).
const source = readFileSync(resolve(__dirname, '../../../../public/push-sw.js'), 'utf8');
const ORIGIN = 'https://evdra.example';

type Listener = (event: unknown) => void;
type FakeClient = { url: string; focus: ReturnType<typeof vi.fn>; navigate: ReturnType<typeof vi.fn> };

function worker(windows: FakeClient[] = []) {
  const listeners: Record<string, Listener> = {};
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, fn: Listener) => {
      listeners[type] = fn;
    },
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: {
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async (url: string) => ({ url })),
    },
  };
  new Function('self', source)(self);
  /** Dispatches `type` and resolves once what it passed to waitUntil has. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let waited: Promise<unknown> = Promise.resolve();
    listeners[type]?.({ ...event, waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
  };
  return { self, dispatch };
}

const client = (url: string): FakeClient => {
  const c: FakeClient = {
    url,
    focus: vi.fn(async () => c),
    navigate: vi.fn(async (to: string) => ({ ...c, url: to })),
  };
  return c;
};

describe('push-sw.js', () => {
  it('shows the pushed title and body, keeping the URL for the click', async () => {
    const { self, dispatch } = worker();
    const payload = { title: 'ITV vence mañana', body: 'ITV de tu Seat Ibiza…', url: '/renewals/7' };
    await dispatch('push', { data: { json: () => payload, text: () => JSON.stringify(payload) } });
    expect(self.registration.showNotification).toHaveBeenCalledWith(
      'ITV vence mañana',
      expect.objectContaining({ body: 'ITV de tu Seat Ibiza…', data: { url: '/renewals/7' } }),
    );
  });

  it('shows a push that is not JSON as its text, under the app name', async () => {
    const { self, dispatch } = worker();
    await dispatch('push', {
      data: {
        json: () => {
          throw new SyntaxError('not JSON');
        },
        text: () => 'plain text',
      },
    });
    expect(self.registration.showNotification).toHaveBeenCalledWith(
      'Evdra',
      expect.objectContaining({ body: 'plain text', data: { url: '/' } }),
    );
  });

  it('on click, focuses an open app window and takes it to the URL', async () => {
    const open = client(`${ORIGIN}/vehicles`);
    const other = client('https://elsewhere.example/');
    const { self, dispatch } = worker([other, open]);
    const close = vi.fn();
    await dispatch('notificationclick', { notification: { close, data: { url: '/insurance/3' } } });
    expect(close).toHaveBeenCalled();
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/insurance/3`);
    expect(other.focus).not.toHaveBeenCalled();
    expect(self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('on click with no app window open, opens one at the URL', async () => {
    const { self, dispatch } = worker([client('https://elsewhere.example/')]);
    await dispatch('notificationclick', { notification: { close: vi.fn(), data: { url: '/marketplace' } } });
    expect(self.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/marketplace`);
  });
});
