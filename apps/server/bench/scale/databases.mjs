// The two databases of the scale bench, on the PostgreSQL of DATABASE_URL, made and dropped through
// its `postgres` maintenance database; migrated with the server's own migrate().
import { execSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
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
 * A private copy of the built server (apps/server/dist-scale, ignored by git): another helper's
 * rebuild of dist during a long run must not change the server under measure.
 */
export function privateDist() {
  const from = new URL('../../dist', import.meta.url).pathname;
  const to = new URL('../../dist-scale', import.meta.url).pathname;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return to;
}

/**
 * The server's source as committed (HEAD), in apps/server/dist-scale-src (ignored by git), for the
 * tracing server: in a tree shared with other work, the working copy may be mid-edit. Returns its main.
 */
export function privateSource() {
  const root = new URL('../../../../', import.meta.url).pathname;
  const to = new URL('../../dist-scale-src', import.meta.url).pathname;
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to);
  execSync(`git -C ${root} archive HEAD apps/server/src | tar -x -C ${to} --strip-components=2`);
  return `${to}/src/main.ts`;
}
