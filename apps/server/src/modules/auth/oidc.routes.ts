import { ApiError, AuthProviders, OidcLinkBody, OidcLinkInfo, SessionResponse } from '@evdra/domain';
import { stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import { cookieOf } from '../../plugins/auth.js';
import type { UsersService } from '../users/users.service.js';
import { OIDC_FLOW_TTL_MS, type OidcService } from './oidc.service.js';

/** The state this browser started a sign-in with (compared with the callback's). */
export const OIDC_STATE_COOKIE = 'evdra_oidc_state';
/** A provider account waiting for the local password (signed; 10 minutes). */
export const OIDC_LINK_COOKIE = 'evdra_oidc_link';
const COOKIE_PATH = '/api/auth/oidc';

type Options = {
  oidc?: OidcService;
  users: UsersService;
  passwordLogin: boolean;
  secureCookies: boolean;
  rateLimitPerMinute: number;
};

/**
 * Sign in with OpenID Connect (issue 53). The web pages the callback sends the browser to:
 * /oidc/complete (signed in: the page picks up the session), /oidc/link (prove the local password
 * once), /oidc/refused?reason=… (no account, an unverified e-mail, a failed or refused sign-in).
 */
export async function oidcRoutes(
  app: FastifyInstance,
  { oidc, users, passwordLogin, secureCookies, rateLimitPerMinute }: Options,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = app.rateLimit({ max: rateLimitPerMinute, timeWindow: '1 minute' });
  const tags = ['auth'];
  const cookie = (reply: FastifyReply, name: string, value: string, maxAgeMs: number) =>
    reply.header(
      'set-cookie',
      stringifySetCookie(name, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        path: COOKIE_PATH,
        maxAge: Math.floor(maxAgeMs / 1000),
        ...(maxAgeMs === 0 ? { expires: new Date(0) } : {}),
      }),
    );
  const enabled = (): OidcService => {
    if (!oidc) throw new AppError(404, 'NOT_FOUND', 'Sign-in with OpenID Connect is not configured.');
    return oidc;
  };

  r.get(
    '/api/auth/providers',
    {
      schema: {
        tags,
        description:
          'How this server lets people sign in: OpenID Connect (its button text) and/or a password.',
        response: { 200: AuthProviders },
      },
    },
    async () => ({ oidc: oidc ? { buttonText: oidc.buttonText } : null, passwordLogin }),
  );

  r.get(
    '/api/auth/oidc/start',
    {
      onRequest: limit,
      schema: {
        tags,
        description:
          "Redirects (302) to the OpenID provider's sign-in page (code flow, S256 PKCE, state, nonce).",
        response: { 404: ApiError, 429: ApiError },
      },
    },
    async (_req, reply) => {
      const started = await enabled().start();
      if ('refused' in started) return reply.redirect(refusedPage(started.refused), 302);
      cookie(reply, OIDC_STATE_COOKIE, started.state, OIDC_FLOW_TTL_MS);
      return reply.redirect(started.url, 302);
    },
  );

  r.get(
    '/api/auth/oidc/callback',
    {
      onRequest: limit,
      schema: {
        tags,
        description:
          'Where the provider comes back (register PUBLIC_URL + this path). Sets the session cookies and ' +
          'redirects to /oidc/complete, or to /oidc/link or /oidc/refused?reason=….',
        response: { 404: ApiError, 429: ApiError },
      },
    },
    async (req, reply) => {
      const service = enabled();
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const outcome = await service.callback(query, cookieOf(req, OIDC_STATE_COOKIE));
      cookie(reply, OIDC_STATE_COOKIE, '', 0);
      if (outcome.kind === 'session') {
        app.sessionCookies.set(reply, outcome.session);
        return reply.redirect('/oidc/complete', 302);
      }
      if (outcome.kind === 'link') {
        cookie(reply, OIDC_LINK_COOKIE, outcome.pending, OIDC_FLOW_TTL_MS);
        return reply.redirect('/oidc/link', 302);
      }
      return reply.redirect(refusedPage(outcome.reason), 302);
    },
  );

  r.get(
    '/api/auth/oidc/link',
    {
      schema: {
        tags,
        description:
          'The local account a provider sign-in waits to be linked to (400 OIDC_LINK_EXPIRED: none).',
        response: { 200: OidcLinkInfo, 400: ApiError, 404: ApiError },
      },
    },
    async (req) => {
      const info = await enabled().pendingLink(cookieOf(req, OIDC_LINK_COOKIE));
      if (!info)
        throw new AppError(400, 'OIDC_LINK_EXPIRED', 'This sign-in has expired. Please sign in again.');
      return info;
    },
  );

  r.post(
    '/api/auth/oidc/link',
    {
      onRequest: limit,
      schema: {
        tags,
        description:
          "Proves the local account's password once: links the provider's account to it (by the " +
          "provider's issuer and subject) and signs in. 401 wrong password, 400 OIDC_LINK_EXPIRED.",
        body: OidcLinkBody,
        response: {
          200: SessionResponse,
          400: ApiError,
          401: ApiError,
          403: ApiError,
          404: ApiError,
          429: ApiError,
        },
      },
    },
    async (req, reply) => {
      const { user, session } = await enabled().link(cookieOf(req, OIDC_LINK_COOKIE), req.body.password);
      cookie(reply, OIDC_LINK_COOKIE, '', 0);
      app.sessionCookies.set(reply, session);
      return { user: await users.present(user), csrfToken: session.csrfToken };
    },
  );
}

const refusedPage = (reason: string) => `/oidc/refused?reason=${encodeURIComponent(reason)}`;
