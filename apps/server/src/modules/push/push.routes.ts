import {
  ApiError,
  PushDevice,
  PushEndpointBody,
  PushPreferences,
  PushPublicKey,
  PushSubscribed,
  PushSubscriptionBody,
  PushTestResult,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import type { PushService } from './push.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };

/** Web Push: the server's key, the caller's devices, which kinds are pushed, and a test push. */
export async function pushRoutes(app: FastifyInstance, { service }: { service: PushService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['push'];
  const user = { preHandler: app.requireUser };

  r.get(
    '/api/push/public-key',
    {
      schema: {
        tags,
        description: "The server's VAPID public key (applicationServerKey for PushManager.subscribe).",
        response: { 200: PushPublicKey },
      },
    },
    async () => service.publicKey(),
  );

  r.get(
    '/api/push/subscriptions',
    {
      ...user,
      schema: {
        tags,
        description: "The caller's devices.",
        response: { 200: z.array(PushDevice), ...errors },
      },
    },
    async (req) => service.devices(principalOf(req)),
  );

  r.post(
    '/api/push/subscriptions',
    {
      ...user,
      schema: {
        tags,
        description:
          'Registers this device (PushSubscription.toJSON()). The same endpoint again is the same subscription. ' +
          'Logging out of this session removes it. The endpoint must be https on a public address ' +
          '(a private, loopback or other inside address is refused with 400). A user has at most 20 devices: ' +
          'past that, the oldest is removed and returned as `replaced`.',
        body: PushSubscriptionBody,
        response: { 201: PushSubscribed, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.subscribe(principalOf(req), req.body)),
  );

  r.delete(
    '/api/push/subscriptions',
    {
      ...user,
      schema: {
        tags,
        description: 'Stops pushes to this device.',
        body: PushEndpointBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.unsubscribe(principalOf(req), req.body.endpoint);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/push/preferences',
    { ...user, schema: { tags, response: { 200: PushPreferences, ...errors } } },
    async (req) => service.preferences(principalOf(req)),
  );

  r.put(
    '/api/push/preferences',
    {
      ...user,
      schema: {
        tags,
        description:
          'Which kinds of notification are pushed: reminders (insurance, service, renewals), marketplace.',
        body: PushPreferences,
        response: { 200: PushPreferences, ...errors },
      },
    },
    async (req) => service.setPreferences(principalOf(req), req.body),
  );

  r.post(
    '/api/push/test',
    {
      ...user,
      schema: {
        tags,
        description: "Pushes a test notification to each of the caller's devices.",
        response: { 202: PushTestResult, ...errors },
      },
    },
    async (req, reply) => reply.status(202).send(await service.test(principalOf(req))),
  );
}
