import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { postgresOutage, sourceEntry } from './helpers/faults.js';

// PostgreSQL goes away under load: the real server process reaches its database through a TCP
// proxy on loopback, which the test cuts (connections reset, new ones refused) and restores.
const runs = process.env.EVDRA_TEST_DB === 'postgres';
let database: TestDatabase | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'evdra-outage-'));
beforeAll(async () => {
  if (runs) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(runs)('PostgreSQL outage under load', () => {
  it('answers quick 503s with Retry-After (never 500, never hangs), is not ready meanwhile, and serves again within seconds', async () => {
    const report = await postgresOutage({
      entry: sourceEntry,
      databaseUrl: database?.url as string,
      dataDir,
      writers: 4,
      outageMs: 2_000,
      cuts: 3,
    });
    expect(report.before['201']).toBeGreaterThan(0);
    expect(report.during['503']).toBeGreaterThan(0);
    for (const phase of [report.before, report.during, report.after])
      expect(Object.keys(phase).filter((s) => s !== '201' && s !== '503')).toEqual([]);
    expect(report.badUnavailable).toBe(0);
    expect(report.hangs).toBe(0);
    // Quick: well under the 5 s the server allows itself to reach the database.
    expect(report.slowestDuringMs).toBeLessThan(5_000);
    expect(report.readyDuring['503']).toBeGreaterThan(0);
    expect(report.readyDuring['200']).toBeUndefined();
    expect(report.writeRecoverMs).toBeGreaterThanOrEqual(0);
    expect(report.writeRecoverMs).toBeLessThan(5_000);
    expect(report.readyRecoverMs).toBeGreaterThanOrEqual(0);
    expect(report.readyRecoverMs).toBeLessThan(5_000);
    expect(report.after['201']).toBeGreaterThan(0);
    expect(report.acked).toBeGreaterThan(0);
    expect(report.missing).toBe(0);
  }, 120_000);
});
