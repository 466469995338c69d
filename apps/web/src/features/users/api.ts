import type { Role, UpdateMeBody, User, UserStatus } from '@evdra/domain';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api, apiWithHeaders } from '../../lib/api';

export const userKeys = {
  me: ['users', 'me'] as const,
  adminList: (q: string) => ['admin', 'users', q] as const,
  adminAll: ['admin', 'users'] as const,
};

// --- current user (settings) ---

export const useMe = () => useQuery({ queryKey: userKeys.me, queryFn: () => api<User>('/api/users/me') });

export type UpdateMeInput = UpdateMeBody;

/** What the server writes its texts for a reader in (issue 50): a car's AI reason, the AI summaries. */
const READER_SETTINGS = ['language', 'currency', 'distanceUnit', 'volumeUnit', 'consumptionUnit'] as const;

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMeInput) => api<User>('/api/users/me', { method: 'PUT', body }),
    onSuccess: (user) => {
      const before = queryClient.getQueryData<User>(userKeys.me);
      queryClient.setQueryData(userKeys.me, user);
      // The vehicles' AI reasons and the summaries were written in the old language and money: read again.
      if (!before || READER_SETTINGS.some((k) => before[k] !== user[k])) {
        // vehicleKeys.all (lib/vehicle-list, not imported: it brings the offline store into this chunk).
        void queryClient.invalidateQueries({ queryKey: ['vehicles'] });
        void queryClient.invalidateQueries({ queryKey: ['ai-summary'] });
      }
    },
  });
}

export function useGiveConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<User>('/api/users/me/gdpr-consent', { method: 'PUT', body: { consent: true } }),
    onSuccess: (user) => queryClient.setQueryData(userKeys.me, user),
  });
}

// --- admin user management ---

/** Users asked of the server at a time; the next page follows X-Next-Cursor (issue 54). */
export const ADMIN_USERS_PAGE_SIZE = 100;

export const useAdminUsers = (q: string) =>
  useInfiniteQuery({
    queryKey: userKeys.adminList(q),
    queryFn: async ({ signal, pageParam }) => {
      const page = await apiWithHeaders<User[]>('/api/admin/users', {
        query: { q: q || undefined, limit: ADMIN_USERS_PAGE_SIZE, cursor: pageParam ?? undefined },
        signal,
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });

export interface AdminUserInput {
  username: string;
  email: string;
  password?: string;
  role: Role;
  /** '' is allowed and means Active (spec §3). */
  status: UserStatus | '';
  gdprConsent: boolean;
}

export function useSaveAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: AdminUserInput }) =>
      id === undefined
        ? api<User>('/api/admin/users', { method: 'POST', body })
        : api<User>(`/api/admin/users/${id}`, { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.adminAll }),
  });
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/admin/users/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.adminAll }),
  });
}
