import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { firstScreenRenderer, sendFirstScreen } from './first-screen.js';

/**
 * Serves the built web app with SPA fallback to index.html. Hashed assets are cached for a year;
 * everything else (index.html, service worker, manifest, translations) is revalidated. Text files
 * go out as the build's Brotli or gzip copy (`x.js.br`, `x.js.gz`) when the browser accepts it.
 * Unknown /api and /ai-feedback paths, missing files, and everything when no build exists answer the JSON 404.
 */
/**
 * The CSP hashes ('sha256-…') of the built index.html's inline scripts (early-load and theme-init,
 * inlined by the build), read at start: a rebuild that changes them needs a restart, as a new server version does.
 * JSON data blocks are not scripts the browser runs and need none.
 */
export function inlineScriptHashes(webDist: string | undefined): string[] {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  if (!index || !existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs = '']) => !/\bsrc=/.test(attrs) && !/type="application\/json"/.test(attrs))
    .map(([, , code = '']) => `sha256-${createHash('sha256').update(code).digest('base64')}`);
}

export const webAppPlugin = fp(async (app: FastifyInstance, { webDist }: { webDist?: string }) => {
  const hasBuild = !!webDist && existsSync(join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Looked up per request (not listed at boot), so a rebuild is served without a restart.
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      // Ours below only (send's own `public, max-age=0` would replace it on a compressed index.html).
      cacheControl: false,
      setHeaders(res, path) {
        const immutable = path.includes(`${join('/', 'assets', '/')}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  const renderFirstScreen = hasBuild && webDist ? firstScreenRenderer(app, webDist) : undefined;
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    // A missing file (anything with an extension) is a 404, never index.html served as a script.
    const wantsPage =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !path.startsWith('/api') &&
      !path.startsWith('/ai-feedback') &&
      !/\.[A-Za-z0-9]+$/.test(path);
    if (hasBuild && wantsPage) {
      const page = await renderFirstScreen?.(req);
      if (page) return sendFirstScreen(req, reply, page);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ code: 'NOT_FOUND', message: `No route for ${req.method} ${req.url.split('?')[0]}.` });
  });
});
