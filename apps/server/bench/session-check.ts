// Part of `npm run bench:api`: what the per-request session-family check costs, in-process on
// PostgreSQL (and PGlite): a cached answer (the LISTEN/NOTIFY feed is up) against the indexed query
// it replaces (feed down, or the first request of a login).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';
import { refreshTokens, users } from '../src/db/schema.js';
import { SessionFamilyCache } from '../src/modules/auth/session-cache.js';
import { SessionsRepo } from '../src/modules/auth/sessions.repo.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const silent = { warn() {}, info() {} } as never;

async function measure(kind: string, database: Database) {
  await database.migrate();
  const [user] = await database.db
    .insert(users)
    .values({ username: `bench_${Date.now()}`, email: `b${Date.now()}@x.y`, passwordHash: 'x' })
    .returning();
  const userId = user?.id as number;
  const familyId = randomUUID();
  await database.db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: randomUUID(),
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  // Thousands of other logins in the table, as in a used instance.
  await database.db.insert(refreshTokens).values(
    Array.from({ length: 5000 }, () => ({
      userId,
      familyId: randomUUID(),
      tokenHash: randomUUID(),
      expiresAt: new Date(Date.now() + 86_400_000),
    })),
  );
  const sessions = new SessionsRepo(database.db);
  const time = async (cache: SessionFamilyCache, n: number) => {
    for (let i = 0; i < 200; i++) await cache.isLive(familyId, userId);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (!(await cache.isLive(familyId, userId))) throw new Error('not live');
    return Number(process.hrtime.bigint() - t0) / 1000 / n;
  };
  const uncached = await time(new SessionFamilyCache(sessions), 2000);
  const live = new SessionFamilyCache(sessions);
  const stop = await live.connect(database, silent);
  const cached = await time(live, 200_000);
  await stop();
  console.log(
    `${kind.padEnd(10)} cached ${cached.toFixed(2).padStart(7)} µs   query ${uncached.toFixed(0).padStart(6)} µs`,
  );
}

console.log('\nSession-family check per authenticated request (mean per call, in-process):');
await measure('pglite', await openPglite());
const admin = new pg.Client({ connectionString: PG_URL });
if (
  await admin.connect().then(
    () => true,
    () => false,
  )
) {
  const name = `evdra_bench_sess_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 2);
  try {
    await measure('postgres', database);
  } finally {
    await database.close();
    await new Promise((r) => setTimeout(r, 200));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
process.exit(0);
