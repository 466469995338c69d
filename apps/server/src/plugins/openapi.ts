import {
  ApiError,
  Expense,
  FuelEntry,
  Insurance,
  Listing,
  Notification,
  Revision,
  User,
  Vehicle,
} from '@evdra/domain';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Precompressed, precompress, sendPrecompressed } from '../lib/encoding.js';

/**
 * Schemas named once under components.schemas and referenced from every route that answers them:
 * the error shape alone was written out 477 times (half of a 212 KiB document).
 */
const named = { ApiError, Vehicle, FuelEntry, Expense, Insurance, Revision, User, Listing, Notification };
for (const [id, schema] of Object.entries(named))
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });

/** OpenAPI 3 generated from the route schemas at /api/openapi.json, reference UI at /api/docs. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Evdra API',
        version: '0.1.0',
        description:
          'Vehicle management. Errors answer {code, message, details?}. Cookie-authenticated ' +
          'POST/PUT/PATCH/DELETE calls need the X-CSRF-Token header returned by login, register and refresh. ' +
          'Scripts use a personal API token instead (Settings → API tokens): `Authorization: Bearer evd_…`, ' +
          'no cookie or CSRF header; a read token gets 403 on writes, a revoked or expired one 401.',
      },
      components: {
        securitySchemes: {
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'evdra_access' },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal API token (evd_…), made in Settings → API tokens.',
          },
        },
      },
      // Either one: a signed-in browser's cookie or a script's API token.
      security: [{ cookieAuth: [] }, { bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => withoutUnusedSchemas(jsonSchemaTransformObject(document)),
  });
  // The document never changes while the server runs: written to JSON and compressed once (170 KiB
  // as it is, 9 KiB in Brotli), not per request; a client that has it gets a 304.
  let document: Promise<Precompressed> | undefined;
  const sendDocument = async (req: FastifyRequest, reply: FastifyReply) => {
    document ??= precompress(JSON.stringify(app.swagger()), 'application/json; charset=utf-8');
    return sendPrecompressed(req, reply, await document);
  };
  app.get('/api/openapi.json', { schema: { hide: true } }, sendDocument);
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The reference UI loads the same document from its own ./json, which would serialise it anew.
    uiHooks: {
      onRequest: async (req, reply) => {
        if (req.routeOptions.url === '/api/docs/json') return sendDocument(req, reply);
      },
    },
  });
});

/**
 * The transform names an input and an output variant of every named schema; keeps only the ones
 * the routes (or a kept schema) refer to, so the reference UI lists no schema nothing uses.
 */
function withoutUnusedSchemas<D extends object>(document: D): D {
  const doc = document as { paths?: unknown; components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas ?? {};
  const refersTo = (value: unknown) =>
    new Set(
      [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => String(m[1])),
    );
  const kept = new Set<string>();
  let next = refersTo(doc.paths);
  while (next.size > 0) {
    for (const id of next) kept.add(id);
    next = new Set([...refersTo([...next].map((id) => schemas[id]))].filter((id) => !kept.has(id)));
  }
  const used = Object.fromEntries(Object.entries(schemas).filter(([id]) => kept.has(id)));
  return { ...document, components: { ...doc.components, schemas: used } };
}
