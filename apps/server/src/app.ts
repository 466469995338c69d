import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { BuiltinProvider } from './ai/builtin.js';
import { FactsRepo } from './ai/facts.repo.js';
import { type LlmConfig, LlmProvider, pingLlm } from './ai/llm.js';
import type { AiProvider } from './ai/provider.js';
import { AiReasons } from './ai/reasons.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { databaseFileStore, importLocalFiles } from './files/db-file-store.js';
import type { FileStore } from './files/file-store.js';
import { withMultipart } from './lib/multipart.js';
import { OutboundGuard } from './lib/outbound/guard.js';
import type { Resolve } from './lib/outbound/resolve.js';
import { findUp } from './lib/paths.js';
import { fastifyLogging } from './lib/request-logger.js';
import { compiledSerializerCompiler } from './lib/serializer.js';
import { validatorCompiler } from './lib/validation.js';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer.js';
import { AccountRepo } from './modules/account/account.repo.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { AccountService } from './modules/account/account.service.js';
import { aiRoutes } from './modules/ai/ai.routes.js';
import { AiService } from './modules/ai/ai.service.js';
import { ChatRepo } from './modules/ai/chat.repo.js';
import { AnalyticsRepo } from './modules/analytics/analytics.repo.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { AnalyticsService } from './modules/analytics/analytics.service.js';
import { ApiTokensRepo } from './modules/api-tokens/api-tokens.repo.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService, hashApiToken } from './modules/api-tokens/api-tokens.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { OidcRepo } from './modules/auth/oidc.repo.js';
import { oidcRoutes } from './modules/auth/oidc.routes.js';
import { OidcService } from './modules/auth/oidc.service.js';
import { hashPassword } from './modules/auth/passwords.js';
import { SessionFamilyCache } from './modules/auth/session-cache.js';
import { SessionsRepo } from './modules/auth/sessions.repo.js';
import { TokenService } from './modules/auth/tokens.js';
import { CalendarRepo } from './modules/calendar/calendar.repo.js';
import { calendarRoutes } from './modules/calendar/calendar.routes.js';
import { CalendarService } from './modules/calendar/calendar.service.js';
import { DocumentsRepo } from './modules/documents/documents.repo.js';
import { documentsRoutes } from './modules/documents/documents.routes.js';
import { DocumentsService } from './modules/documents/documents.service.js';
import { expensesRoutes } from './modules/expenses/expenses.routes.js';
import { fuelRoutes } from './modules/fuel/fuel.routes.js';
import { changeFuels } from './modules/fuel/fuel.rules.js';
import { FxRepo } from './modules/fx/fx.repo.js';
import { fxRoutes } from './modules/fx/fx.routes.js';
import { FxService, latestRatesTo } from './modules/fx/fx.service.js';
import { HealthRepo } from './modules/health/health.repo.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { HealthService, type ServiceProbe } from './modules/health/health.service.js';
import { importRoutes } from './modules/import/import.routes.js';
import { insuranceRoutes } from './modules/insurance/insurance.routes.js';
import { MarketplaceRepo } from './modules/marketplace/marketplace.repo.js';
import { marketplaceRoutes } from './modules/marketplace/marketplace.routes.js';
import { MarketplaceService } from './modules/marketplace/marketplace.service.js';
import { NotificationsRepo } from './modules/notifications/notifications.repo.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { PushRepo } from './modules/push/push.repo.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { PushSender } from './modules/push/push.sender.js';
import { PushService } from './modules/push/push.service.js';
import { priceRecord } from './modules/records/record-money.js';
import { renewalsRoutes } from './modules/renewals/renewals.routes.js';
import { ReportsRepo } from './modules/reports/reports.repo.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { ReportsService } from './modules/reports/reports.service.js';
import { revisionsRoutes } from './modules/revisions/revisions.routes.js';
import { endShares, SharingRepo } from './modules/sharing/sharing.repo.js';
import { sharingRoutes } from './modules/sharing/sharing.routes.js';
import { SharingService } from './modules/sharing/sharing.service.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { VehicleListCache } from './modules/vehicles/vehicle-list-cache.js';
import { VehiclesRepo } from './modules/vehicles/vehicles.repo.js';
import { vehiclesRoutes } from './modules/vehicles/vehicles.routes.js';
import { VehiclesService } from './modules/vehicles/vehicles.service.js';
import { WebhookPresence } from './modules/webhooks/webhook-presence.js';
import { WebhooksRepo } from './modules/webhooks/webhooks.repo.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { WebhookSender } from './modules/webhooks/webhooks.sender.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';
import { createCurrencyReader, createOcrEngine } from './ocr/engines.js';
import { ocrRoutes } from './ocr/ocr.routes.js';
import { OcrService } from './ocr/ocr.service.js';
import type { OcrEngine } from './ocr/worker-pool.js';
import { authPlugin, bearerOf } from './plugins/auth.js';
import { compressionPlugin } from './plugins/compression.js';
import { errorsPlugin } from './plugins/errors.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { openapiPlugin } from './plugins/openapi.js';
import { connectRedis, fallbackStore } from './plugins/rate-limit-store.js';
import { securityPlugin } from './plugins/security.js';
import { inlineScriptHashes, webAppPlugin } from './plugins/web-app.js';
import { recordServices } from './record-services.js';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  fileStore?: FileStore;
  /** The receipt OCR worker pool; one is started (and closed with the app) when not given. */
  ocrPool?: OcrEngine;
  now?: () => Date;
  /** false silences the log (tests); it is written at LOG_LEVEL otherwise. */
  logger?: false;
  /** How host names of user-supplied URLs resolve (tests: a table, so no DNS query leaves the machine). */
  resolveHost?: Resolve;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the push outbox (tests drain it directly). */
    pushSender: PushSender;
    /** Sends the webhook outbox (tests drain it directly, with their own clock). */
    webhookSender: WebhookSender;
    /** Whether any webhook exists (record writes skip their webhook statement when none does). */
    webhookPresence: WebhookPresence;
  }
}

/** Builds the whole server: plugins, then modules. The database is already migrated. */
export async function buildApp({
  config,
  database,
  mailer,
  fileStore,
  ocrPool,
  now = () => new Date(),
  logger,
  resolveHost,
}: AppDeps): Promise<FastifyInstance> {
  const log = pino({ level: logger === false ? 'silent' : config.logLevel });
  const app = Fastify({
    ...fastifyLogging(log),
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
    // A pasted, mangled or padded link token (calendar feed, shared report) is a 404 like any wrong
    // token, not Fastify's 414 past its default 100 characters; zod still bounds every id.
    routerOptions: { maxParamLength: 2048 },
  });
  app.log = log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializerCompiler);

  const { db } = database;
  // Set-up that queries the database runs beside the routes' registration and is awaited at the end:
  // at a start the embedded database is still opening (db/client.ts), and the routes need none of it.
  const pending: Promise<unknown>[] = [];
  const settingUp = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {}); // awaited (and thrown) at the end, not an unhandled rejection meanwhile
    pending.push(work);
    return work;
  };
  const usersRepo = new UsersRepo(db);
  const sessions = new SessionsRepo(db);
  const tokens = new TokenService(config.jwtSecret, now);
  const families = new SessionFamilyCache(sessions, (userId) => usersRepo.forgetAuthState(userId));
  const vehicleLists = new VehicleListCache();
  const users = new UsersService(usersRepo, hashPassword, vehicleLists.clear);
  const mail =
    mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, app.log));
  const auth = new AuthService({
    users,
    sessions,
    tokens,
    families,
    mailer: mail,
    publicUrl: config.publicUrl,
    loginFailuresPer15Min: config.loginFailuresPer15Min,
    now,
  });

  await app.register(errorsPlugin);
  await app.register(compressionPlugin);
  const webDist = config.webDist ?? defaultWebDist();
  await app.register(securityPlugin, {
    hsts: config.secureCookies,
    scriptHashes: inlineScriptHashes(webDist),
  });
  // With REDIS_URL every replica counts in Redis (the library's store), or locally while it is down.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { store: fallbackStore(redis, app.log) } : {}),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests. Retry in ${ctx.after}.`,
    }),
  });
  await app.register(openapiPlugin);
  // Personal API tokens (issue 53): a bearer token acts as its user, within its scope.
  const apiTokens = config.apiTokens.enabled ? new ApiTokensService(new ApiTokensRepo(db), now) : undefined;
  await app.register(authPlugin, { auth, tokens, secureCookies: config.secureCookies, apiTokens });
  if (apiTokens) {
    // Token requests count apart from a browser's (per token, in Redis too when it is set).
    const limit = app.rateLimit({
      max: config.apiTokens.perMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `api-token:${hashApiToken(bearerOf(req) ?? '')}`,
    });
    app.addHook('onRequest', async (req, reply) => {
      if (req.headers.authorization && bearerOf(req) !== undefined) await limit.call(app, req, reply);
    });
  }
  await app.register(idempotencyPlugin, { db, now });

  // The optional services /api/health reports, each configured or not, and reachable or not.
  // Another service (Web Push) adds its probe to this list, in one line.
  const optionalServices: ServiceProbe[] = [
    { name: 'redis', configured: !!redis, check: redis && (async () => void (await redis.ping())) },
    { name: 'smtp', configured: !!config.smtpUrl, check: mail.verify?.bind(mail) },
    {
      name: 'ai',
      configured: !!config.ai,
      check: config.ai && (() => pingLlm(config.ai as LlmConfig, AbortSignal.timeout(5_000))),
    },
    // Web Push needs no setup: its keys live in the database (made at first start).
    { name: 'push', configured: true, check: async () => void (await push.vapid()) },
  ];
  const healthRepo = new HealthRepo(db);
  const health = new HealthService({
    kind: database.kind,
    ping: () => healthRepo.ping(),
    services: optionalServices,
  });
  // Route modules are called on the app itself, not registered as plugins: each plugin context gets
  // its own Request and Reply classes, and with two dozen of them Fastify's per-request code saw as
  // many object shapes (megamorphic property access on every answer). The modules only add routes
  // (no hooks or decorators), so nothing leaks from one to another.
  await healthRoutes(app, { service: health });
  // Sign in with OpenID Connect (issue 53), when OIDC_ISSUER is set.
  const oidc = config.oidc
    ? new OidcService({
        config: config.oidc,
        publicUrl: config.publicUrl,
        repo: new OidcRepo(db),
        users: usersRepo,
        auth,
        secret: config.jwtSecret,
        log: app.log,
        now,
      })
    : undefined;
  await authRoutes(app, {
    auth,
    users,
    tokens,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    passwordLogin: config.passwordLogin,
    endSessionUrl: oidc && ((familyId) => oidc.endSessionUrl(familyId)),
  });
  await oidcRoutes(app, {
    oidc,
    users,
    passwordLogin: config.passwordLogin,
    secureCookies: config.secureCookies,
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  const sessionFeed = settingUp(families.connect(database, app.log));
  app.addHook('onClose', async () => (await sessionFeed)());
  const vehicleListFeed = settingUp(vehicleLists.connect(database, app.log));
  app.addHook('onClose', async () => (await vehicleListFeed)());
  await usersRoutes(app, { service: users });
  // File bytes live in the database; files an older version kept in DATA_DIR/files move in once.
  const files = fileStore ?? databaseFileStore(db);
  if (!fileStore) settingUp(importLocalFiles(join(config.dataDir, 'files'), files, app.log));
  // A vehicle's AI reason in each reader's language, currency and units (issue 50). The day's rates are
  // read fresh (only when a reason's money is in another currency than its reader's): a vehicle list
  // is cached until a change, and a new day's rates drop it (migration 0040).
  // A reader's saved language, currency and units: how the AI reasons and the report are written for them.
  const readerSettings = async (userId: number) => {
    const u = await users.findById(userId);
    return (
      u && {
        language: u.language,
        currency: u.currency,
        distanceUnit: u.distanceUnit,
        volumeUnit: u.volumeUnit,
        consumptionUnit: u.consumptionUnit,
      }
    );
  };
  // One exchange-rate service for every module: its repo keeps the day's rates a minute.
  const fx = new FxService(new FxRepo(db));
  const reasons = new AiReasons({
    reader: readerSettings,
    ratesTo: (to) => fx.latestRatesTo(to, now().toISOString().slice(0, 10)),
  });
  const vehicles = new VehiclesService(
    new VehiclesRepo(db),
    files,
    vehicleLists.clear,
    (tx, vehicleId) => endShares(tx, vehicleId, 'DELETED'),
    changeFuels,
    reasons,
  );
  await vehiclesRoutes(app, { service: vehicles, lists: vehicleLists });
  await sharingRoutes(app, {
    service: new SharingService(
      new SharingRepo(db),
      { visible: (p, id) => vehicles.visible(p, id), owned: (p, id) => vehicles.owned(p, id) },
      vehicleLists.clear,
    ),
  });

  // Record writes skip their webhook statement while no webhook exists (issue 53).
  const webhookPresence = new WebhookPresence();
  app.addHook('onClose', webhookPresence.listen(database, app.log));
  app.decorate('webhookPresence', webhookPresence);
  const { access, importer, ...services } = recordServices(db, vehicles, vehicleLists.clear, webhookPresence);
  await insuranceRoutes(app, { service: services.insurance });
  await expensesRoutes(app, { service: services.expense });
  await fuelRoutes(app, { service: services.fuel });
  await revisionsRoutes(app, { service: services.revision });
  // Uploads take multipart bodies (lib/multipart.ts: only their scopes parse them).
  await withMultipart(app, async (scope) => {
    await scope.register(importRoutes, { service: importer });
  });
  // A vehicle's papers (issue 52): read by whoever sees the car, added by its writers, deleted by its owner.
  const documents = new DocumentsService(
    new DocumentsRepo(db),
    files,
    {
      visible: (p, id) => vehicles.visible(p, id),
      writable: (p, id) => vehicles.writable(p, id),
      owned: (p, id) => vehicles.owned(p, id),
    },
    config.documentQuotaBytes,
  );
  await documentsRoutes(app, { service: documents });
  await accountRoutes(app, {
    service: new AccountService({
      repo: new AccountRepo(db),
      users,
      passwordMatches: (userId, password) => auth.passwordMatches(userId, password),
      endSessions: (userId) => auth.forgetUser(userId),
      vehicleCsv: (p, vehicleId) => importer.exportCsv(p, vehicleId),
      files,
      documentsOf: (userId) => documents.exportOf(userId),
      now,
    }),
  });
  await renewalsRoutes(app, { service: services.renewal });
  const pool = ocrPool ?? createOcrEngine({ name: config.ocrEngine });
  if (!ocrPool) app.addHook('onClose', () => pool.close());
  const currencyReader = createCurrencyReader(config.ocrEngine, config.ocrCurrencyRereadMs);
  if (currencyReader) app.addHook('onClose', () => currencyReader.close());
  const ocr = new OcrService({
    pool,
    currencyReader,
    rereadBudgetMs: config.ocrCurrencyRereadMs,
    referenceRate: async (from, to, date) => (await fx.rate(from, to, date))?.rate,
    // Scanning a receipt is the first step of writing a record: not for a viewer (403).
    vehicle: (p, vehicleId) => vehicles.writable(p, vehicleId),
    language: async (userId) => (await users.findById(userId))?.language ?? 'en',
    currency: async (userId) => (await users.findById(userId))?.currency ?? config.currency,
    now,
    log: app.log,
  });
  await withMultipart(app, async (scope) => {
    await scope.register(ocrRoutes, { ocr, services: services as never });
  });
  const ratesTo = latestRatesTo(fx, now);
  const analytics = new AnalyticsService(new AnalyticsRepo(db), access, ratesTo, config.currency);
  await analyticsRoutes(app, { service: analytics });
  const reports = new ReportsService({
    repo: new ReportsRepo(db),
    analytics,
    vehicles,
    files,
    publicUrl: config.publicUrl,
    now,
    // A signed-in reader's report is in their currency and units (issue 50).
    reader: readerSettings,
    ratesTo,
  });
  await reportsRoutes(app, { service: reports });
  await calendarRoutes(app, {
    service: new CalendarService(new CalendarRepo(db), config.publicUrl, now),
  });
  const pushRepo = new PushRepo(db);
  const outbound = new OutboundGuard({ allowLocal: config.outbound.allowLocal, resolve: resolveHost });
  const pushSender: PushSender = new PushSender(pushRepo, () => push.vapid(), outbound, app.log, now);
  const push: PushService = new PushService(pushRepo, pushSender, {
    ...config.push,
    outbound,
    language: async (userId) => (await users.findById(userId))?.language ?? 'en',
  });
  app.decorate('pushSender', pushSender);
  // Made at first start, so every replica agrees on the key before any browser subscribes.
  settingUp(push.vapid());
  await pushRoutes(app, { service: push });
  if (apiTokens) await apiTokensRoutes(app, { service: apiTokens });
  // Webhooks (issue 53): events queue in webhook_deliveries with their change; this sends them.
  const webhooksRepo = new WebhooksRepo(db);
  const webhookSender = new WebhookSender(
    webhooksRepo,
    outbound,
    async (userId) => (await users.findById(userId))?.language ?? 'en',
    app.log,
    now,
  );
  app.decorate('webhookSender', webhookSender);
  await webhooksRoutes(app, {
    service: new WebhooksService(webhooksRepo, outbound, webhookSender, webhookPresence),
  });
  if (config.webhooks.pollMs > 0) {
    // As the push worker: the first round one interval after start.
    let stopWebhooks = async () => {};
    const first = setTimeout(() => {
      stopWebhooks = webhookSender.start(config.webhooks.pollMs);
    }, config.webhooks.pollMs).unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      await stopWebhooks();
    });
  }
  if (config.push.pollMs > 0) {
    // First send one interval after start, not during it: its query (~0.2 s on a cold embedded
    // database) would hold PGlite's one session while the first requests wait.
    let stopPush = async () => {};
    const first = setTimeout(() => {
      stopPush = pushSender.start(config.push.pollMs);
    }, config.push.pollMs).unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      await stopPush();
    });
  }
  await notificationsRoutes(app, {
    service: new NotificationsService(new NotificationsRepo(db)),
  });
  const builtin = new BuiltinProvider();
  const provider: AiProvider = config.ai ? new LlmProvider(config.ai, builtin, app.log) : builtin;
  await aiRoutes(app, {
    service: new AiService({
      facts: new FactsRepo(db, (to, until) => fx.latestRatesTo(to, until)),
      chats: new ChatRepo(db),
      provider,
      vehicles,
      now,
      changed: vehicleLists.clear,
    }),
  });
  await marketplaceRoutes(app, {
    service: new MarketplaceService(
      new MarketplaceRepo(db),
      files,
      vehicleLists.clear,
      {
        endShares: (tx, vehicleId, buyerId) => endShares(tx, vehicleId, 'TRANSFERRED', buyerId),
        ownerOnly: (p, vehicleId) => vehicles.owned(p, vehicleId),
        // The seller's private papers stay theirs: they go with the sale; the others travel with the car.
        handOverDocuments: (tx, vehicleId) => documents.handOver(tx, vehicleId),
        dropFiles: (ids) => documents.dropBytes(ids),
      },
      (v, seller, listing) => reports.listingLink(v, seller, listing),
      // A listing's price follows the records' rule for its currency and rate (issue 50).
      (sent, ctx) => priceRecord(sent, ctx, (from, to, date) => fx.rate(from, to, date)),
    ),
    lists: vehicleLists,
  });

  // Exchange rates (issue 50); main.ts fetches the ECB's into the same table.
  await fxRoutes(app, { service: fx, now });

  await app.register(webAppPlugin, { webDist });

  // Housekeeping: forget expired tokens and old login failures, hourly.
  const prune = setInterval(
    () => {
      sessions.prune(new Date()).catch((err) => app.log.warn({ err }, 'pruning sessions failed'));
      oidc?.prune(new Date()).catch((err) => app.log.warn({ err }, 'pruning OpenID sign-ins failed'));
    },
    60 * 60 * 1000,
  ).unref();
  app.addHook('onClose', async () => clearInterval(prune));
  await Promise.all(pending);
  return app;
}

function defaultWebDist(): string | undefined {
  try {
    return join(findUp(import.meta.dirname, 'apps'), 'web', 'dist');
  } catch {
    return undefined;
  }
}
