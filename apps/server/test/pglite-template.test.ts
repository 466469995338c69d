import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.js';
import { buildPgliteTemplate, seedFromTemplate } from '../src/db/template.js';
import { findUp } from '../src/lib/paths.js';

// New embedded data dirs start as a copy of a migrated template built at build time; migrations
// newer than the template still run at start. One template (every migration but the newest) serves
// both checks, to keep this file to a single initdb.

const work = mkdtempSync(join(tmpdir(), 'evdra-template-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const migrations = findUp(import.meta.dirname, 'drizzle');
const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const all = journal.entries.length;

/** The committed migrations minus the newest: what an older build's template holds. */
function olderMigrations(): string {
  const dir = join(work, 'drizzle-older');
  cpSync(migrations, dir, { recursive: true });
  const older = { ...journal, entries: journal.entries.slice(0, -1) };
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify(older));
  return dir;
}

async function applied(dir: string, template?: string) {
  const database = await openPglite(dir, migrations, template);
  try {
    const count = async () =>
      (await database.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: { n: number }[];
      };
    const before = (await count()).rows[0]?.n;
    const migrating = database.migrate();
    const during = count(); // asked while migrate() runs: it waits for the migrations (db/client.ts)
    await migrating;
    const after = (await count()).rows[0]?.n;
    expect((await during).rows[0]?.n).toBe(after);
    const databases = (await database.db.execute(sql`select datname from pg_database`)) as unknown as {
      rows: { datname: string }[];
    };
    expect(databases.rows.map((r) => r.datname)).toEqual(['postgres']);
    const trigger = (await database.db.execute(
      sql`select count(*)::int as n from pg_trigger where not tgisinternal`,
    )) as unknown as { rows: { n: number }[] };
    return { before, after, triggers: trigger.rows[0]?.n ?? 0 };
  } finally {
    await database.close();
  }
}

// Embedded-database only: nothing to repeat in the PostgreSQL run.
describe.skipIf(process.env.EVDRA_TEST_DB === 'postgres')('PGlite template', () => {
  it('applies a migration newer than the template on top, and a dir copied from a current template needs none', async () => {
    const template = join(work, 'template');
    await buildPgliteTemplate(template, olderMigrations());
    // Only the database the server opens: initdb's template0 and template1 were half the files a
    // new data dir copies at its first start.
    expect(readdirSync(join(template, 'base'))).toHaveLength(1);

    const fromOld = join(work, 'data-a');
    expect(await seedFromTemplate(fromOld, template)).toBe(true);
    const a = await applied(fromOld);
    expect(a.before).toBe(all - 1);
    expect(a.after).toBe(all); // the newest migration ran on top of the template
    expect(a.triggers).toBeGreaterThan(0);

    // data-a now holds every migration: as a template, its copies start complete.
    // The database's thread makes the copy itself when given the template (as the server does).
    const fresh = join(work, 'data-b');
    const b = await applied(fresh, fromOld);
    expect(b).toEqual({ before: all, after: all, triggers: a.triggers });

    // An existing database is never overwritten by the template.
    expect(await seedFromTemplate(fresh, template)).toBe(false);
    expect((await applied(fresh, template)).before).toBe(all);
  }, 180_000); // an initdb and three opens: slow on a loaded CI machine
});
