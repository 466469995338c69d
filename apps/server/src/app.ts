import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { findUp } from './lib/paths.js';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionsRepo } from './modules/auth/sessions.repo.js';
import { TokenService } from './modules/auth/tokens.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { openapiPlugin } from './plugins/openapi.js';
import { securityPlugin } from './plugins/security.js';
import { webAppPlugin } from './plugins/web-app.js';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  now?: () => Date;
  /** Pino logger options; false silences it (tests). */
  logger?: boolean | object;
};

/** Builds the whole server: plugins, then modules. The database is already migrated. */
export async function buildApp({ config, database, mailer, now, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { db } = database;
  const users = new UsersRepo(db);
  const sessions = new SessionsRepo(db);
  const tokens = new TokenService(config.jwtSecret);
  const mail =
    mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, app.log));
  const auth = new AuthService({
    users,
    sessions,
    tokens,
    mailer: mail,
    publicUrl: config.publicUrl,
    loginFailuresPer15Min: config.loginFailuresPer15Min,
    now,
  });

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { hsts: config.secureCookies });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests. Retry in ${ctx.after}.`,
    }),
  });
  await app.register(openapiPlugin);
  await app.register(authPlugin, { auth, tokens, secureCookies: config.secureCookies });

  app.get('/api/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  await app.register(authRoutes, { auth, users, tokens, rateLimitPerMinute: config.authRateLimitPerMinute });
  await app.register(usersRoutes, { service: new UsersService(users), repo: users });

  await app.register(webAppPlugin, { webDist: config.webDist ?? defaultWebDist() });

  // Housekeeping: forget expired tokens and old login failures, hourly.
  const prune = setInterval(
    () => {
      sessions.prune(new Date()).catch((err) => app.log.warn({ err }, 'pruning sessions failed'));
    },
    60 * 60 * 1000,
  ).unref();
  app.addHook('onClose', async () => clearInterval(prune));
  return app;
}

function defaultWebDist(): string | undefined {
  try {
    return join(findUp(import.meta.dirname, 'apps'), 'web', 'dist');
  } catch {
    return undefined;
  }
}
