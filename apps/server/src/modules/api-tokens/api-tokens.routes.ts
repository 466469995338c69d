import { ApiError, ApiToken, ApiTokenBody, ApiTokenCreated, IdParams } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import type { ApiTokensService } from './api-tokens.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };

/** Personal API tokens: list, create (shown once), revoke. Not registered when PUBLIC_API_TOKENS=false. */
export async function apiTokensRoutes(app: FastifyInstance, { service }: { service: ApiTokensService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tokens'];
  const user = { preHandler: app.requireUser };
  const managed = 'Needs a signed-in (cookie) session: a request with an API token gets 403.';

  r.get(
    '/api/tokens',
    {
      ...user,
      schema: {
        tags,
        description: `The caller's API tokens, newest first, with when and from where each was last used. ${managed}`,
        response: { 200: z.array(ApiToken), ...errors },
      },
    },
    async (req) => service.list(principalOf(req)),
  );

  r.post(
    '/api/tokens',
    {
      ...user,
      schema: {
        tags,
        description:
          'Makes a token: send it as `Authorization: Bearer <token>` (no cookie or CSRF header needed). ' +
          'It is answered this once and kept only hashed. Scope `read` may only read (403 on writes); ' +
          `\`read-write\` may do what the user may. ${managed}`,
        body: ApiTokenBody,
        response: { 201: ApiTokenCreated, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.create(principalOf(req), req.body)),
  );

  r.delete(
    '/api/tokens/:id',
    {
      ...user,
      schema: {
        tags,
        description: `Revokes a token at once (it then gets 401). ${managed}`,
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.revoke(principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}
