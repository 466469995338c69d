import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/lock.js';
import { openDatabase } from '../db/open.js';
import { BackupError, backup, restore } from './backup.js';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE [--force]` on the configured database
 * (DATA_DIR's embedded one, or DATABASE_URL). With the embedded database, stop the server first.
 */
async function main() {
  const [command, ...args] = process.argv.slice(2);
  const force = args.includes('--force');
  const file = args.find((a) => !a.startsWith('--'));
  if ((command !== 'backup' && command !== 'restore') || !file) {
    throw new BackupError('Usage: npm run backup -- FILE   |   npm run restore -- FILE [--force]');
  }
  // npm runs scripts from the repository root; a relative FILE means where the user typed it.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const config = loadConfig();
  const database = await openDatabase(config);
  const where = config.databaseUrl ? 'PostgreSQL' : config.dataDir;
  try {
    await database.migrate();
    const started = Date.now();
    const counts =
      command === 'backup' ? await backup(database.db, path) : await restore(database.db, path, { force });
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `${command === 'backup' ? `Backed up ${where} to ${file}` : `Restored ${file} into ${where}`}: ${rows} rows in ${
        Object.keys(counts).length
      } tables, ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  const expected =
    err instanceof BackupError || err instanceof ConfigError || err instanceof DataDirLockedError;
  process.stderr.write(`${expected ? err.message : (err?.stack ?? String(err))}\n`);
  process.exit(1);
});
