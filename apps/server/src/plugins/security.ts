import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const csp = (scriptHashes: string[]) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/**
 * Security headers with a CSP the web app (and the API reference UI) works under: the set helmet
 * sends, computed once instead of on every request (helmet cost ~6% of a list call's CPU).
 * `scriptHashes` ('sha256-…'): the inline scripts the page may run (the built index.html's, web-app.ts).
 *
 * The API's answers (JSON, photos, files) are never pages, so they get the set OWASP's REST Security
 * Cheat Sheet gives for APIs, with a CSP that allows nothing at all: the headers only a page reads
 * (opener and agent-cluster isolation, DNS prefetch, old IE's download and XSS switches) are left
 * out, which also saves ~2 µs of a small GET's CPU (bench:api).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, { hsts, scriptHashes = [] }: { hsts: boolean; scriptHashes?: string[] }) => {
    // HSTS only means something over HTTPS (PUBLIC_URL https://).
    const transport: Record<string, string> = hsts
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {};
    const api: Record<string, string> = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      ...transport,
    };
    const page: Record<string, string> = {
      'content-security-policy': csp(scriptHashes),
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
      ...transport,
    };
    // Callback style: an async hook costs a promise and a microtask on every request.
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(isApiAnswer(req.url) ? api : page);
      done();
    });
  },
);

/** Every /api path but the reference UI (/api/docs), which is a page with its own scripts. */
const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');
