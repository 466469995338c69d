import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A migrated, empty PGlite data directory made at build time (`npm run build`), so a new embedded
 * database starts as a copy of it instead of running initdb and every migration on first start
 * (seconds of WASM work). Migrations newer than the template are still applied at start.
 */
export const TEMPLATE_DIR = 'pglite-template';

/** Writes a migrated data directory to `target` (replacing any), atomically. */
export async function buildPgliteTemplate(target: string, migrationsFolder: string): Promise<void> {
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  // Loaded here: the server imports this module only to find and copy the template.
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = await PGlite.create(tmp);
  try {
    await migrate(drizzle(client), { migrationsFolder });
    // The embedded server only ever opens `postgres`; initdb's two template databases are 600 of the
    // 1,155 files every new data dir would copy at its first start (creating a file is the copy's cost).
    for (const name of ['template0', 'template1']) {
      await client.exec(`alter database ${name} is_template false`);
      await client.exec(`drop database ${name}`); // one statement per exec: not in a transaction block
    }
    await client.exec('checkpoint');
  } finally {
    await client.close();
  }
  writeFileSync(
    join(tmp, 'evdra-template.json'),
    `${JSON.stringify({ builtAt: new Date().toISOString() })}\n`,
  );
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
}

/** The template next to the running code (dist/ in the bundle, apps/server/dist from src/), if built. */
export function findTemplate(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, TEMPLATE_DIR), join(dir, 'dist', TEMPLATE_DIR)])
      if (existsSync(join(candidate, 'PG_VERSION'))) return candidate;
    if (dirname(dir) === dir || existsSync(join(dir, 'package.json'))) return undefined;
  }
}

/**
 * Copies the template into `dataDir` when that holds no database yet; true when it did. Async, the
 * files copied side by side on libuv's threads: the server's thread meanwhile loads the app's code.
 */
export async function seedFromTemplate(dataDir: string, template: string | undefined): Promise<boolean> {
  if (!template || !existsSync(join(template, 'PG_VERSION'))) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const tmp = `${dataDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(dirname(dataDir), { recursive: true });
  await copyTree(template, tmp, (name) => name !== 'evdra-template.json');
  await rm(dataDir, { recursive: true, force: true });
  await rename(tmp, dataDir);
  return true;
}

async function copyTree(from: string, to: string, keep: (name: string) => boolean): Promise<void> {
  await mkdir(to);
  const entries = (await readdir(from, { withFileTypes: true })).filter((e) => keep(e.name));
  await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? copyTree(join(from, e.name), join(to, e.name), keep)
        : copyFile(join(from, e.name), join(to, e.name)),
    ),
  );
}
