import { join } from 'node:path';
import type { Config } from '../config.js';
import { type Database, openPglite, openPostgres } from './client.js';
import { lockDataDir } from './lock.js';
import { findTemplate } from './template.js';

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in DATA_DIR behind a lock file. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const unlock = lockDataDir(config.dataDir);
  try {
    const dir = join(config.dataDir, 'pglite');
    // A new data dir starts as a copy of the migrated template (made by the database's thread);
    // migrate() then applies only newer migrations.
    const database = await openPglite(dir, undefined, findTemplate(import.meta.dirname));
    return {
      ...database,
      close: async () => {
        await database.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
