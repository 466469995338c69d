import type { ChatMessage, ChatResponse } from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const chatKeys = { history: ['chat', 'history'] as const };

export const useChatHistory = () =>
  useQuery({
    queryKey: chatKeys.history,
    queryFn: ({ signal }) => api<ChatMessage[]>('/api/chat/history', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useSendPrompt = () =>
  useMutation({
    mutationFn: (prompt: string) => api<ChatResponse>('/api/chat', { method: 'POST', body: { prompt } }),
  });

export function useClearChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('/api/chat/history', { method: 'DELETE' }),
    onSuccess: () => queryClient.setQueryData<ChatMessage[]>(chatKeys.history, []),
  });
}
