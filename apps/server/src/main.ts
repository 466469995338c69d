import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { openDatabase } from './db/open.js';
import { scheduleReminders } from './jobs/reminders.js';

/** Reads config, migrates, listens; SIGTERM/SIGINT finish in-flight requests, close the database, exit. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildApp({ config, database });
  let stopReminders = () => {};

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      stopReminders();
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
  // After listen: the first reminder scan must not hold up the start (PGlite has one connection).
  stopReminders = scheduleReminders(database.db, app.log);
  app.log.info(
    { database: database.kind, dataDir: config.dataDir, url: config.publicUrl },
    `Evdra is ready on ${config.publicUrl}`,
  );
}

main().catch((err) => {
  const expected = err instanceof ConfigError || err instanceof DataDirLockedError;
  process.stderr.write(`${expected ? err.message : (err?.stack ?? String(err))}\n`);
  process.exit(1);
});
