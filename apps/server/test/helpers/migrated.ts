import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../../src/db/client.js';

/**
 * Every API test file starts on a fresh database with every migration applied. Running the ~40
 * migrations for each one was most of a test file's set-up (PGlite: initdb and the migrations,
 * seconds of WASM; PostgreSQL: a second or more), so they run once per set of migrations and each
 * database starts as a copy: PGlite from a data directory image, PostgreSQL from a template database.
 * Both are named by a hash of the migrations (and PGlite's version), so a changed migration makes new ones.
 * Another checkout's (a branch with another migration) may be in use at the same time: only those
 * unused for a day are removed.
 */
const STALE_MS = 24 * 3600_000;
const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

function migrationsHash(): string {
  const hash = createHash('sha1');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder);
  // PGlite's package.json is not exported: found next to its entry point.
  hash.update(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite'))));
  return hash.digest('hex').slice(0, 16);
}

let image: Promise<string> | undefined;
/** The path of a migrated PGlite data directory image (dumpDataDir), made on first use. */
export function pgliteImage(): Promise<string> {
  image ??= (async () => {
    const file = join(tmpdir(), `evdra-test-pglite-${migrationsHash()}.tar`);
    if (existsSync(file)) {
      const now = new Date();
      utimesSync(file, now, now); // used: not stale
      return file;
    }
    for (const old of readdirSync(tmpdir()).filter((f) => /^evdra-test-pglite-\w+\.tar$/.test(f))) {
      const path = join(tmpdir(), old);
      const used = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - used > STALE_MS) rmSync(path, { force: true });
    }
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const db = await PGlite.create();
    try {
      await migrate(drizzle(db), { migrationsFolder });
      // As the server's template (db/template.ts): the embedded server only ever opens `postgres`.
      for (const name of ['template0', 'template1']) {
        await db.exec(`alter database ${name} is_template false`);
        await db.exec(`drop database ${name}`);
      }
      const dump = await db.dumpDataDir('none');
      // Written whole, then renamed: another worker never reads half an image.
      const tmp = `${file}.${process.pid}`;
      writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
      renameSync(tmp, file);
    } finally {
      await db.close();
    }
    return file;
  })();
  return image;
}

const templates = new Map<string, Promise<string>>();
/**
 * The name of a migrated template database on the server at `serverUrl`, made on first use (under an
 * advisory lock, so two test processes make it once); older ones are dropped.
 */
export function postgresTemplate(serverUrl: string): Promise<string> {
  let name = templates.get(serverUrl);
  if (!name) {
    name = makeTemplate(serverUrl);
    templates.set(serverUrl, name);
  }
  return name;
}

async function makeTemplate(serverUrl: string): Promise<string> {
  const name = `evdra_test_tpl_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('evdra_test_tpl'))`);
    // Each template's comment says when a test process last took it (copying one leaves no trace).
    const used = `comment on database ${name} is '${Date.now()}'`;
    const { rows } = await admin.query<{ datname: string; used: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as used from pg_database
        where datname like 'evdra_test_tpl_%'`,
    );
    if (rows.some((r) => r.datname === name)) {
      await admin.query(used);
      return name;
    }
    for (const old of rows)
      if (!(Date.now() - Number(old.used) < STALE_MS))
        await admin.query(`drop database if exists ${old.datname} with (force)`);
    // Migrated under another name and renamed when done: a template is never half migrated.
    const building = `${name}_building`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const url = Object.assign(new URL(serverUrl), { pathname: `/${building}` }).toString();
    const database = await openPostgres(url, 1);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await untilIdle(admin, building);
    await admin.query(`alter database ${building} rename to ${name}`);
    await admin.query(used);
    return name;
  } finally {
    await admin.end(); // the advisory lock ends with the session
  }
}

/**
 * pg's pool.end() resolves before its sockets have closed; dropping, renaming or copying a database
 * at that moment fails or kills a closing connection. Waits (up to 2 s) until none is left.
 */
export async function untilIdle(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
