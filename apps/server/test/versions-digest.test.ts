import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionsDigest } from '../src/db/digest.js';
import { rowsOf } from '../src/db/rows.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The digest of these (id, version) pairs, read by the database as rows in the order given. */
async function digest(pairs: [number, number][]): Promise<string> {
  const rows = pairs.length
    ? sql.join(
        pairs.map(([id, version]) => sql`(${id}::int, ${version}::bigint)`),
        sql`, `,
      )
    : sql`(0, 0)`;
  const [row] = rowsOf<{ d: string }>(
    await database.db.execute(
      sql`select ${versionsDigest(sql`x.id`, sql`x.version`)} as d from (values ${rows}) x(id, version)
          where ${pairs.length > 0}`,
    ),
  );
  return row?.d ?? '';
}

describe('versionsDigest (the stamps of kept answers, issue 54)', () => {
  const fleet: [number, number][] = [
    [1, 3],
    [2, 4],
    [7, 1],
  ];

  it('is the same for the same cars at the same versions, whatever order they are read in', async () => {
    expect(await digest(fleet)).toBe(await digest([...fleet].reverse()));
    expect(await digest([])).toBe('0:0:0');
  });

  it('changes when a car’s version moves, a car comes or goes, or two cars swap versions', async () => {
    const seen = new Set<string>([await digest(fleet)]);
    const changed: [number, number][][] = [
      [
        [1, 4],
        [2, 4],
        [7, 1],
      ], // a version moves
      [...fleet, [9, 1]], // a car comes
      [
        [1, 3],
        [2, 4],
      ], // a car goes
      [
        [1, 4],
        [2, 3],
        [7, 1],
      ], // two cars swap versions: the sums are equal
      [
        [1, 3],
        [2, 4],
        [8, 1],
      ], // one car replaced by another at the same version
      [
        [1, 3],
        [2, 4],
        [7, 2 ** 32 + 1],
      ], // a version past 32 bits
    ];
    for (const pairs of changed) seen.add(await digest(pairs));
    expect(seen.size).toBe(changed.length + 1);
  });
});
