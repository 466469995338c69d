import {
  IdParams,
  PHOTO_MAX_BYTES,
  VEHICLES_CAP,
  VEHICLES_PAGE_MAX,
  Vehicle,
  VehicleCreateBody,
  VehicleListQuery,
  VehicleUpdateBody,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { etagMatches } from '../../lib/etag.js';
import {
  jsonPartOf,
  multipartRoute,
  readMultipart,
  uploadErrors,
  withMultipart,
} from '../../lib/multipart.js';
import { setNextPage } from '../../lib/next-page.js';
import { sendJsonText } from '../../lib/serializer.js';
import { parseOr400 } from '../../lib/validation.js';
import { principalOf } from '../../plugins/auth.js';
import type { VehicleListCache } from './vehicle-list-cache.js';
import { type PhotoChange, presentVehicle, type VehiclesService } from './vehicles.service.js';

const errors = uploadErrors;
const multipart = multipartRoute;
const photoPart = (fileField: string) => ({ fileField, maxFileBytes: PHOTO_MAX_BYTES, maxFiles: 1 });

const VehicleList = z.array(Vehicle);

export async function vehiclesRoutes(
  app: FastifyInstance,
  { service, lists }: { service: VehiclesService; lists: VehicleListCache },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  const tags = ['vehicles'];

  r.get(
    '/api/vehicles',
    {
      ...user,
      schema: {
        tags,
        description:
          "A USER gets their own vehicles and those shared with them (own=true: only their own), an ADMIN every vehicle. Each carries `access`, the caller's relation: OWNER, EDITOR or VIEWER (an admin has the owner's rights: OWNER). Newest first. " +
          `At most ${VEHICLES_CAP} without \`limit\`; \`limit\` (1-${VEHICLES_PAGE_MAX}) asks for a page. When more vehicles follow, the X-Next-Cursor header holds the \`cursor\` of the next page and Link its URL (rel="next"); no such header: the last page.`,
        querystring: VehicleListQuery,
        response: { 200: z.array(Vehicle), ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const { limit, cursor } = req.query;
      const own = req.query.own === 'true';
      // Every admin reads every vehicle, each its AI reasons in their own language and money (issue 50).
      const viewer = own ? `own:${p.userId}` : p.role === 'ADMIN' ? `all:${p.userId}` : `user:${p.userId}`;
      const key = limit || cursor ? `${viewer}:${limit ?? ''}:${cursor ?? ''}` : viewer;
      const kept = await lists.getOrLoad(key, async () => {
        const page = await service.list(p, { own, limit, cursor });
        const json = JSON.stringify(VehicleList.parse(page.rows.map(presentVehicle)));
        return { json: Buffer.from(json), next: page.next ?? '' };
      });
      if (kept.next) setNextPage(reply, req.url, kept.next);
      // The kept JSON bytes go out as they are.
      return sendJsonText(reply, kept.json);
    },
  );

  r.get(
    '/api/vehicles/:id',
    { ...user, schema: { tags, params: IdParams, response: { 200: Vehicle, ...errors } } },
    async (req, reply) => sendJsonText(reply, await service.visibleJson(principalOf(req), req.params.id)),
  );

  r.post(
    '/api/vehicles',
    {
      preHandler: [app.requireUser, app.idempotent],
      schema: {
        tags,
        description: 'Accepts an Idempotency-Key header: a retry with the same key replays the first answer.',
        body: VehicleCreateBody,
        response: { 201: Vehicle, ...errors },
      },
    },
    async (req, reply) => {
      const { photoUrl: _ignored, ...input } = req.body;
      return reply.status(201).send(presentVehicle(await service.create(principalOf(req), input)));
    },
  );

  r.put(
    '/api/vehicles/:id',
    {
      ...user,
      schema: {
        tags,
        description:
          'Replaces the vehicle fields (the offline queue uses it). A stale `version` gets 409 with the current vehicle in `details`. Owner or admin (403 for an editor or viewer).',
        params: IdParams,
        body: VehicleUpdateBody,
        response: { 200: Vehicle, ...errors },
      },
    },
    async (req) => service.update(principalOf(req), req.params.id, req.body),
  );

  r.delete(
    '/api/vehicles/:id',
    {
      ...user,
      schema: {
        tags,
        description:
          'Deletes the vehicle with all its records and files; its shares end (each grantee is told). Owner or admin (403 for an editor or viewer).',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.delete(principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/files/:id',
    {
      ...user,
      schema: {
        tags: ['files'],
        description: 'A stored photo, only for users who may see its vehicle.',
        params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) }),
      },
    },
    async (req, reply) => {
      // File ids are never reused (a new photo gets a new id): the id is a strong validator and
      // the browser may keep the file. Access is checked before a 304 as before a 200.
      const etag = `"${req.params.id}"`;
      reply.header('cache-control', 'private, max-age=31536000, immutable').header('etag', etag);
      if (etagMatches(req.headers['if-none-match'], etag)) {
        await service.photoType(principalOf(req), req.params.id);
        return reply.status(304).send();
      }
      const { file, contentType } = await service.photo(principalOf(req), req.params.id);
      return reply.type(contentType).header('content-length', file.size).send(file.body);
    },
  );

  await withMultipart(app, (scope) => {
    const u = scope.withTypeProvider<ZodTypeProvider>();
    u.patch(
      '/api/vehicles/:id',
      {
        ...user,
        schema: {
          tags,
          ...multipart,
          description:
            'Multipart: part `data` = vehicle JSON (with `version`, without photoUrl; a text field or an application/json file part), optional file part `photo`, optional field `removePhoto=true`. Photos: JPEG, PNG or WebP by content, at most 10 MB. Owner or admin (403 for an editor or viewer).',
          params: IdParams,
          response: { 200: Vehicle, ...errors },
        },
      },
      async (req) => {
        const {
          fields,
          files: [file],
        } = await readMultipart(req, { ...photoPart('photo'), jsonPart: 'data' });
        const body = parseOr400(VehicleUpdateBody, jsonPartOf(fields));
        const photo: PhotoChange = file
          ? { bytes: file }
          : fields.removePhoto === 'true'
            ? 'remove'
            : undefined;
        return service.update(principalOf(req), req.params.id, body, photo);
      },
    );

    u.post(
      '/api/vehicles/:id/upload-photo',
      {
        ...user,
        schema: {
          tags,
          ...multipart,
          description:
            'Multipart file part `file`. Answers the photo URL as text. JPEG, PNG or WebP by content, at most 10 MB. Owner or admin (403 for an editor or viewer).',
          params: IdParams,
          response: { 200: z.string(), ...errors },
        },
      },
      async (req, reply) => {
        const {
          files: [file],
        } = await readMultipart(req, photoPart('file'));
        if (!file)
          throw new AppError(400, 'VALIDATION_FAILED', 'Attach the photo as the file part "file".', [
            { field: 'file', message: 'Required.' },
          ]);
        const url = await service.uploadPhoto(principalOf(req), req.params.id, file);
        return reply.type('text/plain; charset=utf-8').send(url);
      },
    );
  });
}
