import './lib/heap-tuning.js';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { openDatabase } from './db/open.js';
import { listenWhileStarting } from './lib/starting.js';

/**
 * The first reminder scan after a start on the embedded database, then hourly (jobs/reminders.ts).
 * PostgreSQL has sessions to spare, so there the scan runs at once, as before.
 */
const FIRST_REMINDER_SCAN_AFTER_MS_ON_PGLITE = 30_000;

/** The first fetch of the ECB's exchange rates after a start; then daily (modules/fx/fx.job.ts). */
const FIRST_FX_FETCH_AFTER_MS = 10_000;

/** What a running server tells the person who started it (`npm start` prints it). */
export type Started = {
  url: string;
  database: 'pglite' | 'postgres';
  /** The embedded database's folder, or the PostgreSQL server and database (never user or password). */
  databaseLocation: string;
  dataDir: string;
  /** No account exists yet: the first one to register becomes the administrator. */
  firstRun: boolean;
};

/** Reads config, migrates, listens; SIGTERM/SIGINT finish in-flight requests, close the database, exit. */
async function main(): Promise<Started> {
  const config = loadConfig();
  // Until the app listens, the port answers 503 (load balancers and pollers wait, not fail).
  const starting = config.port ? await listenWhileStarting(config.port, config.host) : undefined;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let firstRun: boolean;
  let app: FastifyInstance;
  let jobs: typeof import('./startup-jobs.js');
  try {
    // The embedded database's thread is the start's critical path: it starts first (openDatabase
    // creates it before its first await; main.ts imports nothing else that is heavy). Fastify, the
    // routes and their libraries then load on this thread while the database copies its template
    // and opens on its own: neither waits for the other.
    const opening = openDatabase(config);
    const appCode = import('./app.js');
    const jobsCode = import('./startup-jobs.js');
    for (const code of [opening, appCode, jobsCode]) code.catch(() => {}); // thrown where awaited, the database's first
    database = await opening;
    const migrated = database.migrate();
    migrated.catch(() => {});
    // PGlite holds every other query until its migrations are done (db/client.ts), so the app builds
    // while PostgreSQL is still starting in its thread; a PostgreSQL server migrates first.
    if (database.kind === 'postgres') await migrated;
    jobs = await jobsCode;
    const anyAccount = new jobs.UsersRepo(database.db).hasAny();
    anyAccount.catch(() => {});
    const { buildApp } = await appCode;
    const building = buildApp({ config, database });
    building.catch(() => {});
    await migrated; // its error first: a failed migration (or start) fails the app's queries too
    app = await building;
    firstRun = !(await anyAccount);
  } finally {
    await starting?.close();
  }
  let stopReminders = () => {};
  let stopFxRates = () => {};

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      stopReminders();
      stopFxRates();
      // Stop accepting; let in-flight requests finish, closing each keep-alive connection as soon
      // as it goes idle (a request that was running when the signal came keeps its connection).
      const idle = setInterval(() => app.server.closeIdleConnections(), 50);
      await app.close();
      clearInterval(idle);
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // After listen, and on PGlite later still: the first scan holds its one session for ~0.5 s, which
  // the first requests after a restart would wait for.
  const firstScanAfterMs = config.databaseUrl ? 0 : FIRST_REMINDER_SCAN_AFTER_MS_ON_PGLITE;
  stopReminders = jobs.scheduleReminders(database.db, app.log, firstScanAfterMs);
  // The ECB's rates, in the background (FX_RATES_URL set empty: never), a little after the start:
  // storing them holds PGlite's one session, which the first requests after a restart would wait for.
  if (config.fxRatesUrl) {
    const fx = new jobs.FxService(new jobs.FxRepo(database.db));
    stopFxRates = jobs.scheduleEcbRates(config.fxRatesUrl, fx, app.log, {
      firstAfterMs: FIRST_FX_FETCH_AFTER_MS,
    });
  }
  const started: Started = {
    url: config.publicUrl,
    database: database.kind,
    databaseLocation: databaseLocation(config),
    dataDir: config.dataDir,
    firstRun,
  };
  app.log.info(
    { database: database.kind, dataDir: config.dataDir, url: config.publicUrl },
    `Evdra is ready on ${config.publicUrl}`,
  );
  if (firstRun) app.log.info('No account yet: the first account to register becomes the administrator.');
  return started;
}

function databaseLocation(config: Config): string {
  if (!config.databaseUrl) return join(config.dataDir, 'pglite');
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** Settles once the server listens (`npm start` waits for it to print where things are); exits on failure. */
export const started: Promise<Started> = main().catch((err) => {
  if (err?.code === 'EADDRINUSE') {
    const port = err.port ?? process.env.PORT;
    process.stderr.write(`Port ${port} is already in use by another program. Set PORT to a free port.\n`);
    process.exit(1);
  }
  const expected = err instanceof ConfigError || err instanceof DataDirLockedError;
  process.stderr.write(`${expected ? err.message : (err?.stack ?? String(err))}\n`);
  process.exit(1);
});
