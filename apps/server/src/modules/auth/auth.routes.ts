import {
  ApiError,
  CSRF_HEADER,
  ForgotPasswordQuery,
  LoginBody,
  LogoutResponse,
  MessageResponse,
  RegisterBody,
  ResetPasswordBody,
  SessionResponse,
  User,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { sendJsonText } from '../../lib/serializer.js';
import { ACCESS_COOKIE, cookieOf, principalOf, REFRESH_COOKIE } from '../../plugins/auth.js';
import type { UsersService } from '../users/users.service.js';
import type { AuthService } from './auth.service.js';
import type { TokenService } from './tokens.js';

type Options = {
  auth: AuthService;
  users: UsersService;
  tokens: TokenService;
  rateLimitPerMinute: number;
  /** PASSWORD_LOGIN=false: login and registration answer 403 PASSWORD_LOGIN_DISABLED (default true). */
  passwordLogin?: boolean;
  /** After logout: where to end the provider's session of a login made through it (issue 53). */
  endSessionUrl?: (familyId: string | undefined) => Promise<string | undefined>;
};

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError, 429: ApiError };

export async function authRoutes(
  app: FastifyInstance,
  { auth, users, tokens, rateLimitPerMinute, passwordLogin = true, endSessionUrl }: Options,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // 100 auth requests per IP per minute, shared by every route of this group. One limiter (one
  // store) for all of them: a per-route `config.rateLimit` gives each route its own counter.
  const limit = app.rateLimit({ max: rateLimitPerMinute, timeWindow: '1 minute' });
  const tags = ['auth'];
  const assertPasswordLogin = () => {
    if (!passwordLogin) {
      throw new AppError(
        403,
        'PASSWORD_LOGIN_DISABLED',
        'Password login is turned off on this server. Sign in with your identity provider.',
      );
    }
  };

  r.post(
    '/api/auth/register',
    { onRequest: limit, schema: { tags, body: RegisterBody, response: { 201: SessionResponse, ...errors } } },
    async (req, reply) => {
      assertPasswordLogin();
      const { user, session } = await auth.register(req.body);
      app.sessionCookies.set(reply, session);
      return reply.status(201).send({ user: await users.present(user), csrfToken: session.csrfToken });
    },
  );

  r.post(
    '/api/auth/login',
    {
      onRequest: limit,
      schema: {
        tags,
        description: '`username` may be the username or the email. Sets the session cookies.',
        body: LoginBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (req, reply) => {
      assertPasswordLogin();
      const { user, session } = await auth.login(req.body);
      app.sessionCookies.set(reply, session);
      return { user: await users.present(user), csrfToken: session.csrfToken };
    },
  );

  r.get(
    '/api/auth/me',
    { preHandler: app.requireUser, schema: { tags, response: { 200: User, 401: ApiError } } },
    async (req, reply) => {
      const json = await users.meJson(principalOf(req).userId);
      if (!json) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in.');
      return sendJsonText(reply, json);
    },
  );

  r.post(
    '/api/auth/refresh',
    {
      onRequest: limit,
      schema: {
        tags,
        description: 'Rotates the refresh cookie. Reusing a rotated token revokes the whole session.',
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (req, reply) => {
      try {
        const { user, session } = await auth.refresh(cookieOf(req, REFRESH_COOKIE));
        app.sessionCookies.set(reply, session);
        return { user: await users.present(user), csrfToken: session.csrfToken };
      } catch (err) {
        app.sessionCookies.clear(reply);
        throw err;
      }
    },
  );

  r.post(
    '/api/auth/logout',
    {
      schema: {
        tags,
        description:
          'Needs X-CSRF-Token while a session is live. 204; 200 `{endSessionUrl}` after a sign-in through ' +
          "the OpenID provider when OIDC_END_SESSION is on: visit it to end the provider's session too.",
        response: { 200: LogoutResponse, 204: z.null(), 403: ApiError },
      },
    },
    async (req, reply) => {
      const claims = tokens.verifyAccess(cookieOf(req, ACCESS_COOKIE) ?? '');
      const familyId = claims?.familyId ?? (await auth.liveFamilyOf(cookieOf(req, REFRESH_COOKIE)));
      if (familyId && !tokens.csrfMatches(familyId, req.headers[CSRF_HEADER] as string | undefined)) {
        throw new AppError(403, 'CSRF_FAILED', 'Missing or wrong X-CSRF-Token header.');
      }
      await auth.logout(familyId);
      app.sessionCookies.clear(reply);
      const endSession = await endSessionUrl?.(familyId);
      if (endSession) return reply.status(200).send({ endSessionUrl: endSession });
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/api/auth/forgot-password',
    {
      onRequest: limit,
      schema: {
        tags,
        description: 'Same answer whether or not the email exists. Mails a single-use link valid 1 hour.',
        querystring: ForgotPasswordQuery,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (req) => {
      await auth.forgotPassword(req.query.email);
      return { message: 'If an account uses that email, a reset link is on its way.' };
    },
  );

  r.post(
    '/api/auth/reset-password',
    {
      onRequest: limit,
      schema: {
        tags,
        description: 'Sets the new password and ends every session of that user.',
        body: ResetPasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (req) => {
      await auth.resetPassword(req.body.token, req.body.password);
      return { message: 'Your password has been changed. You can log in now.' };
    },
  );
}
