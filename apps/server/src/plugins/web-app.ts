import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built web app with SPA fallback to index.html. Hashed assets are cached for a year;
 * everything else (index.html, service worker, manifest, translations) is revalidated.
 * Unknown /api paths (and everything, when no build exists) answer the JSON 404.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, { webDist }: { webDist?: string }) => {
  const hasBuild = !!webDist && existsSync(join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        const immutable = path.includes(`${join('/', 'assets', '/')}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api');
    if (hasBuild && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ code: 'NOT_FOUND', message: `No route for ${req.method} ${req.url.split('?')[0]}.` });
  });
});
