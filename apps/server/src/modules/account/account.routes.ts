import { ApiError, DeleteAccountBody } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import type { AccountService } from './account.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };
const tags = ['account'];

/** The caller's own data: GET /api/account/export (GDPR art. 20), DELETE /api/account (art. 17). */
export async function accountRoutes(app: FastifyInstance, { service }: { service: AccountService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/account/export',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description:
          'A ZIP, streamed, of everything the caller owns: account and settings, vehicles, every record (re-importable CSV per vehicle), listings, messages they wrote, notifications, the assistant chat, every photo as stored, and a README.txt explaining the files.',
        response: { 200: z.string(), 401: ApiError },
      },
    },
    async (req, reply) => {
      const { stream, filename } = await service.exportZip(principalOf(req));
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
        .header('cache-control', 'no-store')
        .send(stream as never);
    },
  );

  r.delete(
    '/api/account',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        description:
          "Deletes the caller's account and everything it owns, in one transaction, after checking the password (403 INVALID_CREDENTIALS when wrong). The last active admin cannot be deleted (409 LAST_ADMIN). Ends every session and clears the cookies.",
        body: DeleteAccountBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.delete(principalOf(req), req.body.password);
      app.sessionCookies.clear(reply);
      return reply.status(204).send(null);
    },
  );
}
