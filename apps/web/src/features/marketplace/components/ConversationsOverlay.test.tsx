import {
  CHAT_PAGE_SIZE,
  CONVERSATIONS_PAGE_SIZE,
  type Conversation,
  type MarketChatMessage,
} from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { ConversationsOverlay } from './ConversationsOverlay';

const conversation = (n: number): Conversation => ({
  interestId: n,
  listingId: 100 + n,
  counterparty: `buyer${n}`,
  vehicle: { make: 'Dacia', model: 'Logan', year: 2018 },
  message: `Still for sale? (${n})`,
  role: 'seller',
  updatedAt: new Date(Date.UTC(2026, 0, 1) - n * 60_000).toISOString(),
  unread: 0,
  listingActive: true,
});

describe('the conversations overlay', { timeout: 20_000 }, () => {
  it('a seller with many buyers sees a page, and Load more brings the rest (issue 54)', async () => {
    storeUser({ id: 1 });
    const first = Array.from({ length: CONVERSATIONS_PAGE_SIZE }, (_, i) => conversation(i + 1));
    const fetchMock = mockApi({
      'GET /api/marketplace/conversations': (url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'c30'
          ? jsonResponse([conversation(31), conversation(32)])
          : new Response(JSON.stringify(first), {
              headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'c30' },
            }),
    });
    const { user } = renderPage(<ConversationsOverlay onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Conversations' });
    await within(dialog).findByText('buyer30');
    expect(within(dialog).queryByText('buyer31')).not.toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(CONVERSATIONS_PAGE_SIZE);
    await user.click(within(dialog).getByRole('button', { name: 'Load more' }));
    expect(await within(dialog).findByText('buyer32')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(CONVERSATIONS_PAGE_SIZE + 2);
    // The last page said no next one: no button.
    await waitFor(() =>
      expect(within(dialog).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument(),
    );
    const asked = fetchMock.mock.calls
      .map(([u]) => String(u))
      .filter((u) => u.includes('/api/marketplace/conversations'));
    expect(asked.every((u) => u.includes(`limit=${CONVERSATIONS_PAGE_SIZE}`))).toBe(true);
    expect(asked.some((u) => u.includes('cursor=c30'))).toBe(true);
    // A later one opens from the second page.
    await user.click(within(dialog).getByRole('button', { name: /buyer31/ }));
    expect(await screen.findByRole('region', { name: /buyer31/ })).toBeInTheDocument();
  });
});

const message = (n: number): MarketChatMessage => ({
  id: n,
  sender: n % 2 ? 'buyer1' : 'me',
  content: `message ${n}`,
  mine: n % 2 === 0,
  timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
});
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

describe('the chat pane', { timeout: 20_000 }, () => {
  it('opens at the newest messages, Load earlier puts older ones on top, and a sent one is appended (issue 54)', async () => {
    storeUser({ id: 1 });
    // 60 messages: the newest CHAT_PAGE_SIZE (11-60) first, then 1-10 before 11.
    const chat: MarketChatMessage[] = range(1, 60);
    const fetchMock = mockApi({
      'GET /api/marketplace/conversations': () => jsonResponse([conversation(1)]),
      'GET /api/marketplace/chat/1': (url) => {
        const q = new URL(url, 'http://x').searchParams;
        if (q.has('after')) return jsonResponse(chat.filter((m) => m.id > Number(q.get('after'))));
        const before = Number(q.get('before') ?? 1e9);
        const page = chat.filter((m) => m.id < before).slice(-Number(q.get('last')));
        const earlier = (page[0]?.id ?? 0) > 1;
        return new Response(JSON.stringify(page), {
          headers: {
            'Content-Type': 'application/json',
            ...(earlier ? { 'X-Prev-Cursor': String(page[0]?.id) } : {}),
          },
        });
      },
      'POST /api/marketplace/chat/1': (url, init) => {
        const sent = { ...message(61), content: JSON.parse(String(init.body)).message, mine: true };
        chat.push(sent);
        const after = Number(new URL(url, 'http://x').searchParams.get('after'));
        return jsonResponse(chat.filter((m) => m.id > after));
      },
    });
    const { user } = renderPage(<ConversationsOverlay onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Conversations' });
    await user.click(await within(dialog).findByRole('button', { name: /buyer1/ }));
    const pane = await screen.findByRole('region', { name: /buyer1/ });
    await within(pane).findByText('message 60');
    const shown = () => [...pane.querySelectorAll('.bubble span:last-child')].map((b) => b.textContent);
    expect(shown()).toEqual(range(60 - CHAT_PAGE_SIZE + 1, 60).map((m) => m.content));
    expect(within(pane).queryByText('message 10')).not.toBeInTheDocument();

    await user.click(within(pane).getByRole('button', { name: 'Load earlier messages' }));
    await within(pane).findByText('message 1');
    expect(shown()).toEqual(range(1, 60).map((m) => m.content));
    // The first message reached: no button.
    await waitFor(() =>
      expect(within(pane).queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument(),
    );

    await user.type(within(pane).getByRole('textbox', { name: 'Message' }), 'Is it still for sale?');
    await user.click(within(pane).getByRole('button', { name: 'Send' }));
    await within(pane).findByText('Is it still for sale?');
    expect(shown()).toEqual([...range(1, 60).map((m) => m.content), 'Is it still for sale?']);
    expect(within(pane).getByRole('textbox', { name: 'Message' })).toHaveValue('');

    const asked = fetchMock.mock.calls.map(([u, init]) => `${init?.method ?? 'GET'} ${String(u)}`);
    expect(asked).toContain(`GET /api/marketplace/chat/1?last=${CHAT_PAGE_SIZE}`);
    expect(asked).toContain(`GET /api/marketplace/chat/1?last=${CHAT_PAGE_SIZE}&before=11`);
    expect(asked).toContain('POST /api/marketplace/chat/1?after=60');
    // No read of the whole conversation.
    expect(asked.filter((u) => u.includes('/chat/1') && !/[?&](last|after)=/.test(u))).toEqual([]);
  });
});
