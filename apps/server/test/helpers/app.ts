import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import type { Resolve } from '../../src/lib/outbound/resolve.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { tableResolver } from './resolver.js';

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  /** Mails written to DATA_DIR/outbox, oldest first, as raw .eml text. */
  outbox(): string[];
  close(): Promise<void>;
};

/** The real app on a fresh database, with a temporary DATA_DIR and generous rate limits unless overridden. */
/**
 * `shareWith`: a second app on the same PostgreSQL database through its own connections, as
 * another server process would be. `resolveHost`: how host names of user-supplied URLs (push
 * endpoints) resolve; by default none does (ENOTFOUND), so no test asks a DNS server.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  now?: () => Date,
  shareWith?: TestApp,
  resolveHost: Resolve = tableResolver().resolve,
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://evdra.test',
    JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web-build'),
    // Never the ECB: tests serve a rate file on loopback and fetch it themselves (fx.test.ts).
    FX_RATES_URL: '',
    ...env,
  });
  const sharedUrl = shareWith?.database.url;
  if (shareWith && !sharedUrl) throw new Error('only a PostgreSQL test database can be shared');
  const database = sharedUrl ? await openPostgres(sharedUrl, 2) : await createTestDatabase();
  const app = await buildApp({ config, database, logger: false, now, resolveHost });
  await app.ready();
  const outboxDir = join(dataDir, 'outbox');
  return {
    app,
    database,
    config,
    outbox: () => {
      try {
        return readdirSync(outboxDir)
          .sort()
          .map((f) => readFileSync(join(outboxDir, f), 'utf8'));
      } catch {
        return [];
      }
    },
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
