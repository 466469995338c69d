import {
  ApiError,
  IdParams,
  ShareCreateBody,
  ShareParams,
  ShareUpdateBody,
  VehicleShare,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import { presentShare, type SharingService } from './sharing.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

/** Sharing a vehicle: /api/vehicles/{id}/shares. */
export async function sharingRoutes(app: FastifyInstance, { service }: { service: SharingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  const tags = ['vehicles', 'sharing'];

  r.get(
    '/api/vehicles/:id/shares',
    {
      ...user,
      schema: {
        tags,
        description:
          'Who the vehicle is shared with, oldest first. The owner (or an admin) gets every share; an editor or viewer only their own; anyone else 404.',
        params: IdParams,
        response: { 200: z.array(VehicleShare), ...errors },
      },
    },
    async (req) => (await service.list(principalOf(req), req.params.id)).map(presentShare),
  );

  r.post(
    '/api/vehicles/:id/shares',
    {
      ...user,
      schema: {
        tags,
        description:
          'Owner (or admin) only: shares the vehicle with an existing user, by username or email, as VIEWER (reads) or EDITOR (also writes its records); they are notified. 404 unknown user, 409 already shared (change the role with PUT), 400 sharing with oneself; 403 for an editor or viewer.',
        params: IdParams,
        body: ShareCreateBody,
        response: { 201: VehicleShare, ...errors },
      },
    },
    async (req, reply) =>
      reply.status(201).send(presentShare(await service.share(principalOf(req), req.params.id, req.body))),
  );

  r.put(
    '/api/vehicles/:id/shares/:userId',
    {
      ...user,
      schema: {
        tags,
        description:
          "Owner (or admin) only: changes a share's role; the grantee is notified. 404 when the vehicle is not shared with that user.",
        params: ShareParams,
        body: ShareUpdateBody,
        response: { 200: VehicleShare, ...errors },
      },
    },
    async (req) =>
      presentShare(await service.setRole(principalOf(req), req.params.id, req.params.userId, req.body.role)),
  );

  r.delete(
    '/api/vehicles/:id/shares/:userId',
    {
      ...user,
      schema: {
        tags,
        description:
          'The owner (or an admin) revokes a share (the grantee is notified), or a grantee leaves (their own userId). 404 when there is no such share.',
        params: ShareParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.remove(principalOf(req), req.params.id, req.params.userId);
      return reply.status(204).send(null);
    },
  );
}
