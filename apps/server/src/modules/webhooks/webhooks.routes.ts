import {
  ApiError,
  IdParams,
  Webhook,
  WebhookBody,
  WebhookCreated,
  WebhookDelivery,
  WebhookDeliveryParams,
  WebhookUpdateBody,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import type { WebhooksService } from './webhooks.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };

const SIGNED =
  'Each delivery is a POST of JSON {id, event, createdAt, kind?, data} (data: the object as the API shows it), ' +
  'signed `X-Evdra-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, with the ' +
  "idempotency id `X-Evdra-Delivery` (the body's id). Retried with exponential backoff for a day, in order; " +
  'a webhook failing for 3 days is paused and its owner notified.';

/** The caller's webhooks, their deliveries and re-sending one. */
export async function webhooksRoutes(app: FastifyInstance, { service }: { service: WebhooksService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  const user = { preHandler: app.requireUser };

  r.get(
    '/api/webhooks',
    { ...user, schema: { tags, response: { 200: z.array(Webhook), ...errors } } },
    async (req) => service.list(principalOf(req)),
  );

  r.post(
    '/api/webhooks',
    {
      ...user,
      schema: {
        tags,
        description: `Adds a webhook: an https URL on a public address (400 on url otherwise) and its events. The answer holds its signing secret, this once. ${SIGNED}`,
        body: WebhookBody,
        response: { 201: WebhookCreated, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.create(principalOf(req), req.body)),
  );

  r.put(
    '/api/webhooks/:id',
    {
      ...user,
      schema: {
        tags,
        description: 'Changes its URL, events or kinds; `paused: false` resumes a paused webhook.',
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: Webhook, ...errors },
      },
    },
    async (req) => service.update(principalOf(req), req.params.id, req.body),
  );

  r.delete(
    '/api/webhooks/:id',
    {
      ...user,
      schema: { tags, params: IdParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await service.remove(principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/webhooks/:id/deliveries',
    {
      ...user,
      schema: {
        tags,
        description: 'The last 50 deliveries, newest first, with their status.',
        params: IdParams,
        response: { 200: z.array(WebhookDelivery), ...errors },
      },
    },
    async (req) => service.deliveries(principalOf(req), req.params.id),
  );

  r.post(
    '/api/webhooks/:id/deliveries/:deliveryId/resend',
    {
      ...user,
      schema: {
        tags,
        description: 'Sends a delivery again (same body and X-Evdra-Delivery id), after the ones queued.',
        params: WebhookDeliveryParams,
        response: { 202: WebhookDelivery, ...errors },
      },
    },
    async (req, reply) =>
      reply.status(202).send(await service.resend(principalOf(req), req.params.id, req.params.deliveryId)),
  );
}
