import {
  ADMIN_USERS_CAP,
  ADMIN_USERS_PAGE_MAX,
  AdminCreateUserBody,
  AdminUpdateUserBody,
  AdminUsersQuery,
  ApiError,
  GdprConsentBody,
  IdParams,
  UpdateMeBody,
  User,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { sendPage } from '../../lib/next-page.js';
import { sendJsonText } from '../../lib/serializer.js';
import { principalOf } from '../../plugins/auth.js';
import type { UsersService } from './users.service.js';

type Options = { service: UsersService };
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

export async function usersRoutes(app: FastifyInstance, { service }: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const me = { preHandler: app.requireUser };
  const admin = { preHandler: app.requireAdmin };
  const tags = ['users'];
  const adminTags = ['admin'];

  r.get(
    '/api/users/me',
    { ...me, schema: { tags, response: { 200: User, ...errors } } },
    async (req, reply) => {
      const json = await service.meJson(principalOf(req).userId);
      if (!json) throw notFound('User');
      return sendJsonText(reply, json);
    },
  );

  r.put(
    '/api/users/me',
    { ...me, schema: { tags, body: UpdateMeBody, response: { 200: User, ...errors } } },
    async (req) => {
      const p = principalOf(req);
      return service.present(await service.updateMe(p.userId, req.body, p.apiToken !== undefined));
    },
  );

  r.put(
    '/api/users/me/gdpr-consent',
    {
      ...me,
      schema: {
        tags,
        description: 'Consent goes from false to true only; withdrawing it here is refused with 400.',
        body: GdprConsentBody,
        response: { 200: User, ...errors },
      },
    },
    async (req) => service.present(await service.setConsent(principalOf(req).userId, req.body.consent)),
  );

  r.get(
    '/api/admin/users',
    {
      ...admin,
      schema: {
        tags: adminTags,
        description:
          `Users by id, each with its vehicles. At most ${ADMIN_USERS_CAP} without \`limit\`; \`limit\` ` +
          `(1-${ADMIN_USERS_PAGE_MAX}) asks for a page. When more users follow, the X-Next-Cursor header ` +
          'holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page.',
        querystring: AdminUsersQuery,
        response: { 200: z.array(User), ...errors },
      },
    },
    async (req, reply) => {
      const page = await service.pageJson(req.query);
      return sendPage(reply, req.url, page);
    },
  );

  r.post(
    '/api/admin/users',
    { ...admin, schema: { tags: adminTags, body: AdminCreateUserBody, response: { 201: User, ...errors } } },
    async (req, reply) => reply.status(201).send(await service.present(await service.create(req.body))),
  );

  r.put(
    '/api/admin/users/:id',
    {
      ...admin,
      schema: {
        tags: adminTags,
        description: 'The last active admin cannot be demoted or suspended (409 LAST_ADMIN).',
        params: IdParams,
        body: AdminUpdateUserBody,
        response: { 200: User, ...errors },
      },
    },
    async (req) => service.present(await service.update(req.params.id, req.body)),
  );

  r.delete(
    '/api/admin/users/:id',
    {
      ...admin,
      schema: {
        tags: adminTags,
        description: 'The last active admin cannot be deleted (409 LAST_ADMIN).',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.delete(req.params.id);
      return reply.status(204).send(null);
    },
  );
}
