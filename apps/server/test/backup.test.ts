import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, backup, restore, tablesInOrder } from '../src/backup/backup.js';
import type { Db } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered } from './helpers/client.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { multipart } from './helpers/multipart.js';

const dir = mkdtempSync(join(tmpdir(), 'evdra-backup-'));
const file = join(dir, 'instance.evdra.gz');
let source: TestApp;
let target: TestDatabase;

/** Every row of every table, as JSON text in a stable order. */
async function snapshot(db: Db): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of await tablesInOrder(db)) {
    // A records version (an analytics generation) is a fresh sequence value, never the one before the
    // restore: only which vehicles (buckets) have one, and whether the market has one, is the same.
    const row =
      table === 'vehicle_record_versions'
        ? 'x.vehicle_id'
        : table === 'analytics_generation'
          ? 'x.bucket'
          : table === 'market_generation'
            ? 'x.id'
            : 'to_jsonb(x)';
    const rows = rowsOf<{ row: unknown }>(
      await db.execute(sql.raw(`select ${row}::text as row from "${table}" x`)),
    );
    all[table] = rows.map((r) => String(r.row)).sort();
  }
  return all;
}

beforeAll(async () => {
  source = await createTestApp();
  const { client } = await registered(source.app, 'owner');
  await registered(source.app, 'other');
  const v = await client.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: 'B-1-BAK',
    vin: 'UU1KSDAF456789012',
    engineSize: 1.2,
    odometer: 1000,
    aiEvaluationConsent: true,
  });
  const id = v.data.id;
  const photo = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));
  const { payload, headers } = multipart([
    { name: 'file', file: { filename: 'c.jpg', type: 'image/jpeg', bytes: photo } },
  ]);
  expect(
    (await client.request('POST', `/api/vehicles/${id}/upload-photo`, payload, { headers })).statusCode,
  ).toBe(200);
  const records: [string, Record<string, unknown>][] = [
    [
      'fuel-consumptions',
      {
        fuelType: 'PETROL',
        liters: 40.5,
        fuelPrice: 300.12,
        odometer: 1200,
        date: '2025-03-01',
        fullTank: true,
      },
    ],
    [
      'fuel-consumptions',
      {
        fuelType: 'PETROL',
        liters: 35.25,
        fuelPrice: 260.4,
        odometer: 1700,
        date: '2025-03-20',
        fullTank: true,
      },
    ],
    [
      'expenses',
      { date: '2025-02-28', expenseType: 'Parking', amount: 12.5, description: 'Ünïcode ✓ "quoted"' },
    ],
    ['insurance', { provider: 'Allianz', startDate: '2025-01-01', endDate: '2025-12-31', price: 999.99 }],
    ['revision', { date: '2025-01-15', km: 900, price: 450, description: 'Oil' }],
  ];
  for (const [kind, body] of records) {
    const res = await client.post(`/api/${kind}`, { vehicleId: id, ...body });
    expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
  }
  target = await createTestDatabase();
});
afterAll(async () => {
  await source?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round-trips every table exactly, files included, and new rows get fresh ids', async () => {
    const counts = await backup(source.database.db, file);
    expect(counts.users).toBe(2);
    expect(counts.file_blobs).toBe(1);
    expect(counts.fuel_entries).toBe(2);
    await restore(target.db, file);
    // The vehicle's optional VIN comes back (the snapshots below compare every column too).
    const vins = rowsOf<{ vin: string | null }>(await target.db.execute(sql`select vin from vehicles`));
    expect(vins).toEqual([{ vin: 'UU1KSDAF456789012' }]);
    const before = await snapshot(source.database.db);
    const after = await snapshot(target.db);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const table of Object.keys(before))
      expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    const [{ id } = { id: 0 }] = rowsOf<{ id: number }>(
      await target.db.execute(
        sql`insert into users (username, email, password_hash) values ('late', 'late@x.y', 'h') returning id`,
      ),
    );
    const [{ max } = { max: 0 }] = rowsOf<{ max: number }>(
      await source.database.db.execute(sql`select max(id)::int as max from users`),
    );
    expect(id).toBe(max + 1);
  });

  it('refuses a non-empty target unless forced, then replaces everything', async () => {
    await expect(restore(target.db, file)).rejects.toThrow(BackupError);
    await expect(restore(target.db, file)).rejects.toThrow(/not empty/);
    await restore(target.db, file, { force: true });
    expect(await snapshot(target.db)).toEqual(await snapshot(source.database.db));
  });

  it('refuses a file that is not a backup and leaves the database as it was', async () => {
    const junk = join(dir, 'junk.gz');
    writeFileSync(junk, 'not gzip at all');
    await expect(restore(target.db, junk, { force: true })).rejects.toThrow();
    expect(await snapshot(target.db)).toEqual(await snapshot(source.database.db));
  });
});
