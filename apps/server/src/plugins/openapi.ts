import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { sendJsonText } from '../lib/serializer.js';

/** OpenAPI 3 generated from the route schemas at /api/openapi.json, reference UI at /api/docs. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Evdra API',
        version: '0.1.0',
        description:
          'Vehicle management. Errors answer {code, message, details?}. Cookie-authenticated ' +
          'POST/PUT/PATCH/DELETE calls need the X-CSRF-Token header returned by login, register and refresh.',
      },
      components: {
        securitySchemes: { cookieAuth: { type: 'apiKey', in: 'cookie', name: 'evdra_access' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  // The document never changes while the server runs: written to JSON once, not per request (212 KiB).
  let json: string | undefined;
  app.get('/api/openapi.json', { schema: { hide: true } }, async (_req, reply) => {
    json ??= JSON.stringify(app.swagger());
    return sendJsonText(reply, json);
  });
});
