import type { AiStatus } from '@evdra/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** Which provider answers the AI (`GET /api/ai/status`): shown on the chat page and in Settings. */
export const useAiStatus = () =>
  useQuery({
    queryKey: ['ai', 'status'],
    queryFn: ({ signal }) => api<AiStatus>('/api/ai/status', { signal }),
    staleTime: 5 * 60_000,
  });
