import { ACCESS_TOKEN_TTL_S, CSRF_HEADER } from '@evdra/domain';
import { parseCookie, type SerializeOptions, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import type { IssuedSession, Principal } from '../lib/session.js';

export const ACCESS_COOKIE = 'evdra_access';
export const REFRESH_COOKIE = 'evdra_refresh';
const REFRESH_PATH = '/api/auth';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    /** preHandler: a logged-in, active user; state-changing calls also need the CSRF header. */
    requireUser: PreHandler;
    /** preHandler: as requireUser, and the user must be an ADMIN. */
    requireAdmin: PreHandler;
    sessionCookies: {
      set(reply: FastifyReply, session: IssuedSession): void;
      clear(reply: FastifyReply): void;
    };
  }
}

/** Callback style: nearly every request is admitted from this process's caches, without a promise. */
type PreHandler = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/** What the plugin needs of the auth module (declared here, so plugins do not depend on modules). */
type Options = {
  auth: { authenticate(accessToken: string | undefined): Principal | null | Promise<Principal | null> };
  tokens: { csrfMatches(familyId: string, given: string | undefined): boolean };
  secureCookies: boolean;
  /** Personal API tokens (`Authorization: Bearer`); undefined when PUBLIC_API_TOKENS=false. */
  apiTokens?: { authenticate(token: string, ip: string): Promise<Principal | null> };
};

/**
 * Cookie sessions: HttpOnly access JWT + rotating refresh token; CSRF header on unsafe methods.
 * The two cookies are read where they are needed and written with reply.header, instead of through
 * @fastify/cookie, whose onRequest and onSend hooks ran on every answer (bench:api, issue 25 §5).
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { auth, tokens, secureCookies, apiTokens }: Options) => {
    const base = { httpOnly: true, sameSite: 'lax' as const, secure: secureCookies };
    const write = (reply: FastifyReply, name: string, value: string, options: SerializeOptions) =>
      reply.header('set-cookie', stringifySetCookie(name, value, { ...base, ...options }));

    app.decorate('sessionCookies', {
      set(reply, s) {
        write(reply, ACCESS_COOKIE, s.accessToken, { path: '/', maxAge: ACCESS_TOKEN_TTL_S });
        write(reply, REFRESH_COOKIE, s.refreshToken, { path: REFRESH_PATH, expires: s.refreshExpiresAt });
      },
      clear(reply) {
        // Whatever this answer was about to set gives way: the session has ended.
        reply.removeHeader('set-cookie');
        write(reply, ACCESS_COOKIE, '', { path: '/', ...EXPIRED });
        write(reply, REFRESH_COOKIE, '', { path: REFRESH_PATH, ...EXPIRED });
      },
    });

    /** The error that refuses the request, or undefined once req.principal is set. */
    const admit = (req: FastifyRequest, principal: Principal | null): AppError | undefined => {
      if (!principal) return new AppError(401, 'UNAUTHENTICATED', 'Please log in.');
      if (UNSAFE.has(req.method) && !tokens.csrfMatches(principal.familyId, header(req, CSRF_HEADER))) {
        return new AppError(403, 'CSRF_FAILED', 'Missing or wrong X-CSRF-Token header.');
      }
      req.principal = principal;
      return undefined;
    };
    /** A bearer token needs no cookie or CSRF header; its scope decides whether it may write. */
    const admitToken = (req: FastifyRequest, principal: Principal | null): AppError | undefined => {
      if (!principal) return new AppError(401, 'UNAUTHENTICATED', 'Invalid, expired or revoked API token.');
      if (UNSAFE.has(req.method) && principal.apiToken?.scope !== 'read-write') {
        return new AppError(403, 'FORBIDDEN', 'This API token may only read.');
      }
      req.principal = principal;
      return undefined;
    };
    const requireUser: PreHandler = (req, _reply, done) => {
      const bearer = bearerOf(req);
      if (bearer !== undefined) {
        if (!apiTokens) return done(new AppError(401, 'UNAUTHENTICATED', 'API tokens are turned off here.'));
        apiTokens.authenticate(bearer, req.ip).then((principal) => done(admitToken(req, principal)), done);
        return;
      }
      const found = auth.authenticate(cookieOf(req, ACCESS_COOKIE));
      if (found instanceof Promise) found.then((principal) => done(admit(req, principal)), done);
      else done(admit(req, found));
    };
    // Declared up front: every request object then has one shape, set or not.
    app.decorateRequest('principal', undefined);
    app.decorate('requireUser', requireUser);
    app.decorate('requireAdmin', (req, reply, done) =>
      requireUser(req, reply, (err) => {
        if (err || req.principal?.role === 'ADMIN') return done(err);
        done(new AppError(403, 'FORBIDDEN', 'Administrators only.'));
      }),
    );
  },
);

const EXPIRED = { expires: new Date(0), maxAge: 0 };

/** One cookie the browser sent (undefined when absent). */
export function cookieOf(req: FastifyRequest, name: string): string | undefined {
  const sent = req.headers.cookie;
  return sent ? parseCookie(sent)[name] : undefined;
}

/** The credential of an `Authorization: Bearer …` header, when the request has one. */
export function bearerOf(req: FastifyRequest): string | undefined {
  const value = req.headers.authorization;
  if (!value || value.length < 7 || value.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return value.slice(7).trim();
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The caller a requireUser/requireAdmin preHandler admitted. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in.');
  return req.principal;
}
