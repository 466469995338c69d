// The two databases of the scale bench, on the PostgreSQL of DATABASE_URL, made and dropped through
// its `postgres` maintenance database; migrated with the server's own migrate().
import { execSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import pg from 'pg';

export const NAMES = { full: 'evdra_scale', small: 'evdra_scale_small' };

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the same server. */
export function urlOf(name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function maintenance(sql) {
  const c = new pg.Client({ connectionString: urlOf('postgres') });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export const dropDatabase = (name) => maintenance(`drop database if exists ${name} with (force)`);

export async function createDatabase(name) {
  await dropDatabase(name);
  await maintenance(`create database ${name}`);
}

/** The server's migrations (apps/server/drizzle), applied by its own migrate() (run under tsx). */
export async function migrate(url) {
  const { openPostgres } = await import('../../src/db/client.ts');
  const db = await openPostgres(url);
  try {
    await db.migrate();
  } finally {
    await db.close();
  }
}

/**
 * The server as committed at `rev` (HEAD), with the shared domain package of the same commit, in
 * apps/server/dist-scale-src (another `dir` for another commit; ignored by git): its source, for the
 * tracing server, and its build (dist/), for the measured one. In a tree shared with other work the
 * working copy may be mid-edit, and dist rebuilt from it at any moment.
 */
export function privateServer(rev = 'HEAD', dir = 'dist-scale-src') {
  const root = new URL('../../../../', import.meta.url).pathname;
  const to = new URL(`../../${dir}`, import.meta.url).pathname;
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to);
  const files = ['src', 'build.mjs', 'package.json', 'tsconfig.json']
    .map((f) => `apps/server/${f}`)
    .join(' ');
  execSync(`git -C ${root} archive ${rev} ${files} | tar -x -C ${to} --strip-components=2`);
  // Its own commit's domain package, found by the build before the tree's (node_modules/@evdra/domain).
  mkdirSync(`${to}/node_modules/@evdra/domain`, { recursive: true });
  execSync(
    `git -C ${root} archive ${rev} packages/domain | tar -x -C ${to}/node_modules/@evdra/domain --strip-components=2`,
  );
  execSync('node build.mjs', { cwd: to, stdio: 'ignore' });
  return { main: `${to}/dist/main.js`, source: `${to}/src/main.ts` };
}
