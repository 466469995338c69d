import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** Copies the template into `dataDir` when that holds no database yet; true when it did. */
export function seedFromTemplate(dataDir: string, template: string | undefined): boolean {
  if (!template || !existsSync(join(template, 'PG_VERSION'))) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const tmp = `${dataDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(dataDir), { recursive: true });
  cpSync(template, tmp, { recursive: true, filter: (src) => !src.endsWith('evdra-template.json') });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(tmp, dataDir);
  return true;
}
