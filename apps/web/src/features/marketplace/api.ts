import type {
  Conversation,
  InterestResponse,
  Listing,
  ListingFilters,
  MarketChatMessage,
  OwnedVehicle,
} from '@evdra/domain';
import { CHAT_PAGE_SIZE, CONVERSATIONS_PAGE_SIZE, MARKET_PAGE_SIZE } from '@evdra/domain';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api, apiWithHeaders } from '../../lib/api';

type Filters = z.input<typeof ListingFilters>;

export const marketKeys = {
  all: ['market'] as const,
  listings: (f: Filters) => ['market', 'listings', f] as const,
  myVehicles: ['market', 'my-vehicles'] as const,
  conversations: ['market', 'conversations'] as const,
  chat: (id: number) => ['market', 'chat', id] as const,
};

/**
 * How often an open conversation asks for new messages. Short polling, not SSE: every replica is
 * stateless and reads the same PostgreSQL, so a message written through any process is seen by the
 * next poll without a LISTEN connection per process or sticky sessions at the load balancer, and
 * it works the same on PGlite. 1.5 s keeps "seen within 2 s"; only an open conversation polls.
 */
export const CHAT_POLL_MS = 1500;

/** One page of the market: its listings and where the next starts (null: the last page). */
export type ListingPage = { items: Listing[]; nextCursor: string | null };

/**
 * The market a page at a time (issue 54): MARKET_PAGE_SIZE listings per request, the next page's
 * cursor from X-Next-Cursor. Filters and sort are sent to the server, which answers them on indexes.
 */
export const listingsQuery = (filters: Filters) =>
  infiniteQueryOptions({
    queryKey: marketKeys.listings(filters),
    initialPageParam: null as string | null,
    queryFn: async ({ signal, pageParam }): Promise<ListingPage> => {
      const given = Object.entries(filters).filter(([, v]) => v !== '' && v !== undefined);
      const page = await apiWithHeaders<Listing[]>('/api/marketplace/listings', {
        signal,
        query: {
          ...(Object.fromEntries(given) as Record<string, string | number>),
          limit: MARKET_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    getNextPageParam: (last) => last.nextCursor,
  });
export const useListings = (filters: Filters) => useInfiniteQuery(listingsQuery(filters));

export const useMyVehicles = (enabled: boolean) =>
  useQuery({
    queryKey: marketKeys.myVehicles,
    queryFn: ({ signal }) => api<OwnedVehicle[]>('/api/marketplace/my-vehicles', { signal }),
    enabled,
  });

/** One page of the inbox and where the next starts (null: the last page). */
export type ConversationPage = { items: Conversation[]; nextCursor: string | null };

/**
 * The inbox a page at a time (issue 54): CONVERSATIONS_PAGE_SIZE conversations per request, the next
 * page's cursor from X-Next-Cursor. Polled: each poll asks again for the pages already shown.
 */
export const useConversations = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: marketKeys.conversations,
    initialPageParam: null as string | null,
    queryFn: async ({ signal, pageParam }): Promise<ConversationPage> => {
      const page = await apiWithHeaders<Conversation[]>('/api/marketplace/conversations', {
        signal,
        query: { limit: CONVERSATIONS_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    refetchInterval: enabled ? 5000 : false,
  });

/** One page of a chat read from its newest, and where the earlier one ends (null: none earlier). */
export type ChatPage = { items: MarketChatMessage[]; before: string | null };
type ChatData = InfiniteData<ChatPage, string | null>;

/** The newest message id the cache holds (0: none): newer ones are asked after it. */
const newestId = (data: ChatData | undefined) => data?.pages[0]?.items.at(-1)?.id ?? 0;

/** Adds messages newer than the cache's newest to its newest page (a poll's or a send's answer). */
function appendNewer(qc: QueryClient, interestId: number, messages: MarketChatMessage[]) {
  qc.setQueryData<ChatData>(marketKeys.chat(interestId), (data) => {
    const [newest, ...earlier] = data?.pages ?? [];
    if (!data || !newest) return data;
    const after = newestId(data);
    const fresh = messages.filter((m) => m.id > after);
    if (fresh.length === 0) return data;
    return { ...data, pages: [{ ...newest, items: [...newest.items, ...fresh] }, ...earlier] };
  });
}

/**
 * The open conversation (issue 54): it opens at its newest CHAT_PAGE_SIZE messages; `fetchNextPage`
 * reads the page before the earliest shown (X-Prev-Cursor, Load earlier). Newer messages are polled
 * with `after` (the newest shown) and appended, so the other party's appear within 2 s and a poll
 * costs what is new, not the pages shown.
 */
export function useChat(interestId: number | null) {
  const qc = useQueryClient();
  const key = marketKeys.chat(interestId ?? 0);
  const history = useInfiniteQuery({
    queryKey: key,
    initialPageParam: null as string | null,
    queryFn: async ({ signal, pageParam }): Promise<ChatPage> => {
      const page = await apiWithHeaders<MarketChatMessage[]>(`/api/marketplace/chat/${interestId}`, {
        signal,
        query: { last: CHAT_PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) },
      });
      return { items: page.data, before: page.headers.get('x-prev-cursor') };
    },
    getNextPageParam: (last) => last.before,
    enabled: interestId !== null,
    // New messages come by the poll below; reading every page shown again would move what is on screen.
    refetchOnWindowFocus: false,
  });
  useQuery({
    queryKey: [...key, 'newer'],
    queryFn: async ({ signal }) => {
      const after = newestId(qc.getQueryData<ChatData>(key));
      const newer = await api<MarketChatMessage[]>(`/api/marketplace/chat/${interestId}`, {
        signal,
        query: { after },
      });
      appendNewer(qc, interestId ?? 0, newer);
      return after;
    },
    enabled: interestId !== null && history.isSuccess,
    refetchInterval: CHAT_POLL_MS,
    refetchIntervalInBackground: false,
  });
  // Oldest first: the earliest page read is the last of the pages.
  const messages = [...(history.data?.pages ?? [])].reverse().flatMap((p) => p.items);
  return { ...history, messages };
}

export interface ListingSubmit {
  /** Create when absent. */
  id?: number;
  data: { vehicleId?: number; price: number; description: string; removePhotoUrls?: string[] };
  photos: File[];
}

/** list / list-with-photos, edit / edit-with-photos. */
export function useSaveListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, data, photos }: ListingSubmit) => {
      if (id === undefined) {
        if (photos.length === 0) return api<Listing>('/api/marketplace/list', { method: 'POST', body: data });
        const form = new FormData();
        form.append('data', JSON.stringify(data));
        for (const p of photos) form.append('photos', p, p.name);
        return api<Listing>('/api/marketplace/list-with-photos', { method: 'POST', body: form });
      }
      if (photos.length === 0)
        return api<Listing>(`/api/marketplace/edit/${id}`, { method: 'PATCH', body: data });
      const form = new FormData();
      form.append('data', JSON.stringify(data));
      for (const p of photos) form.append('newPhotos', p, p.name);
      return api<Listing>(`/api/marketplace/edit-with-photos/${id}`, { method: 'PATCH', body: form });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.all }),
  });
}

export function useDeleteListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/marketplace/delete-permanent/${id}`, { method: 'DELETE' }),
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.all }),
  });
}

export function useInterest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (listingId: number) =>
      api<InterestResponse>(`/api/marketplace/interest/${listingId}`, { method: 'POST' }),
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.conversations }),
  });
}

export function useSendMessage(interestId: number) {
  const qc = useQueryClient();
  return useMutation({
    // Answered with what follows the newest message shown (the sent one among them), appended.
    mutationFn: (message: string) =>
      api<MarketChatMessage[]>(`/api/marketplace/chat/${interestId}`, {
        method: 'POST',
        body: { message },
        query: { after: newestId(qc.getQueryData<ChatData>(marketKeys.chat(interestId))) },
      }),
    onSuccess: (messages) => appendNewer(qc, interestId, messages),
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.conversations }),
  });
}

export function useTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (interestId: number) =>
      api<InterestResponse>(`/api/marketplace/transfer/${interestId}`, { method: 'PATCH' }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: marketKeys.all });
      void qc.invalidateQueries({ queryKey: ['vehicles'] });
    },
  });
}

export function useDeleteConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (interestId: number) =>
      api<void>(`/api/marketplace/conversations/${interestId}`, { method: 'DELETE' }),
    onSettled: () => qc.invalidateQueries({ queryKey: marketKeys.conversations }),
  });
}
