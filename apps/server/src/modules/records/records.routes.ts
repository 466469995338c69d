import {
  ApiError,
  IdParams,
  RecordPageQuery,
  recordPage,
  VEHICLE_LIST_CAP,
  VEHICLE_PAGE_MAX,
  VehicleIdParams,
  VehicleRecordsQuery,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/next-page.js';
import { sendJsonText } from '../../lib/serializer.js';
import { principalOf } from '../../plugins/auth.js';
import type { RecordsService, RecordTable } from './records.service.js';

export const recordErrors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

/**
 * Paging of a vehicle's record list (issue 54), kept backwards compatible: the answer is the bare
 * array it always was, and where the next page starts goes in headers. Keyset, not offset: a page
 * costs an index range whatever its depth, and a record written meanwhile neither repeats nor skips one.
 */
const VEHICLE_PAGING =
  `At most ${VEHICLE_LIST_CAP} records without \`limit\` (every car of today's sizes whole); \`limit\` (1-${VEHICLE_PAGE_MAX}) ` +
  'asks for a page. When more records follow, the X-Next-Cursor header holds the `cursor` of the next page ' +
  'and Link its URL (rel="next"); no such header: this was the last page.';

type Options<T extends RecordTable> = {
  tag: string;
  /** e.g. /api/insurance: POST here, PUT and DELETE under /{id}. */
  base: string;
  /** e.g. /api/insurance/vehicle/:vehicleId */
  listPath: string;
  service: RecordsService<T>;
  createBody: z.ZodType;
  updateBody: z.ZodType;
  record: z.ZodObject;
  listQuery?: z.ZodObject;
};

/** The four calls every record type has: list by vehicle (newest first), create, update, delete. */
export function recordRoutes<T extends RecordTable>(app: FastifyInstance, o: Options<T>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [o.tag];
  const user = { preHandler: app.requireUser };
  const fields = Object.keys(o.record.shape);

  r.get(
    o.listPath,
    {
      ...user,
      schema: {
        tags,
        description: `Newest first. ${VEHICLE_PAGING}`,
        params: VehicleIdParams,
        querystring: o.listQuery ?? VehicleRecordsQuery,
        response: { 200: z.array(o.record), ...recordErrors },
      },
    },
    async (req, reply) => {
      const { from, to, limit, cursor } = req.query as VehicleRecordsQuery & { from?: string; to?: string };
      const page = await o.service.listJson(principalOf(req), req.params.vehicleId, { from, to }, fields, {
        limit,
        cursor,
      });
      // The database wrote the JSON (the schema's fields only).
      return sendPage(reply, req.url, page);
    },
  );

  r.get(
    o.base,
    {
      ...user,
      schema: {
        tags,
        description:
          "The records of all the caller's vehicles (every vehicle for an admin), newest first, a page at a " +
          'time: pass the nextCursor of a page as cursor to get the next one.',
        querystring: RecordPageQuery,
        response: { 200: recordPage(o.record), ...recordErrors },
      },
    },
    async (req, reply) =>
      // The database wrote each record's JSON (the schema's fields only).
      sendJsonText(reply, await o.service.listAllJson(principalOf(req), req.query, fields)),
  );

  r.post(
    o.base,
    {
      preHandler: [app.requireUser, app.idempotent],
      schema: {
        tags,
        description: 'Accepts an Idempotency-Key header: a retry with the same key replays the first answer.',
        body: o.createBody,
        response: { 201: o.record, ...recordErrors },
      },
    },
    async (req, reply) => reply.status(201).send(await o.service.create(principalOf(req), req.body as never)),
  );

  r.put(
    `${o.base}/:id`,
    {
      ...user,
      schema: { tags, params: IdParams, body: o.updateBody, response: { 200: o.record, ...recordErrors } },
    },
    async (req) => o.service.update(principalOf(req), req.params.id, req.body as never),
  );

  r.delete(
    `${o.base}/:id`,
    { ...user, schema: { tags, params: IdParams, response: { 204: z.null(), ...recordErrors } } },
    async (req, reply) => {
      await o.service.delete(principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}
