import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { localFileStore } from '../files/file-store.js';
import { DemoAlreadySeeded, seedDemo } from './seed.js';

/** `npm run seed:demo`: fills the configured database (DATA_DIR or DATABASE_URL) with demo data. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const logins = await seedDemo(database.db, new Date(), localFileStore(join(config.dataDir, 'files')));
    process.stdout.write(
      `Demo data created in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}. Log in with:\n${logins
        .map((l) => `  ${l.username.padEnd(12)} ${l.password}   (${l.role})`)
        .join('\n')}\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof DemoAlreadySeeded ? err.message : (err?.stack ?? String(err))}\n`);
  process.exit(1);
});
