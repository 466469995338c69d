import type {
  ApiToken,
  ApiTokenBody,
  ApiTokenCreated,
  Webhook,
  WebhookBody,
  WebhookCreated,
  WebhookDelivery,
  WebhookUpdateBody,
} from '@evdra/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Personal API tokens and webhooks (Settings, issue 53). */
export const integrationKeys = {
  tokens: ['tokens'] as const,
  webhooks: ['webhooks'] as const,
  deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
};

export const useApiTokens = () =>
  useQuery({
    queryKey: integrationKeys.tokens,
    queryFn: () => api<ApiToken[]>('/api/tokens'),
    // 404: the instance turned tokens off (PUBLIC_API_TOKENS=false); asking again changes nothing.
    retry: false,
  });

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenBody) => api<ApiTokenCreated>('/api/tokens', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.tokens }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.tokens }),
  });
}

export const useWebhooks = () =>
  useQuery({ queryKey: integrationKeys.webhooks, queryFn: () => api<Webhook[]>('/api/webhooks') });

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => api<WebhookCreated>('/api/webhooks', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: WebhookUpdateBody }) =>
      api<Webhook>(`/api/webhooks/${id}`, { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

export const useWebhookDeliveries = (id: number) =>
  useQuery({
    queryKey: integrationKeys.deliveries(id),
    queryFn: () => api<WebhookDelivery[]>(`/api/webhooks/${id}/deliveries`),
  });

export function useResendDelivery(webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      api<WebhookDelivery>(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/resend`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries(webhookId) }),
  });
}
