import { CONVERSATIONS_PAGE_SIZE, type Conversation } from '@evdra/domain';
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
