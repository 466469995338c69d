import type {
  Conversation,
  InterestResponse,
  Listing,
  ListingFilters,
  MarketChatMessage,
  OwnedVehicle,
} from '@evdra/domain';
import { CONVERSATIONS_PAGE_SIZE, MARKET_PAGE_SIZE } from '@evdra/domain';
import {
  infiniteQueryOptions,
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

/** The open conversation, polled so the other party's messages appear within 2 s. */
export const useChat = (interestId: number | null) =>
  useQuery({
    queryKey: marketKeys.chat(interestId ?? 0),
    queryFn: ({ signal }) => api<MarketChatMessage[]>(`/api/marketplace/chat/${interestId}`, { signal }),
    enabled: interestId !== null,
    refetchInterval: CHAT_POLL_MS,
    refetchIntervalInBackground: false,
  });

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
    mutationFn: (message: string) =>
      api<MarketChatMessage[]>(`/api/marketplace/chat/${interestId}`, { method: 'POST', body: { message } }),
    onSuccess: (messages) => qc.setQueryData(marketKeys.chat(interestId), messages),
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
