import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAllCachedRecords,
  loadRecordList,
  loadVehicleList,
  saveAllRecordsPage,
  saveRecordList,
  saveVehicleList,
} from './cache';
import { closeDb, DB_NAME, getDb } from './db';
import { applyQueue } from './overlay';
import { enqueue, listEntries, listIssues } from './queue';
import {
  bytesOf,
  dropReceipt,
  keepReceipt,
  listReceipts,
  type PendingReceipt,
  receiptFile,
} from './receipts';
import { BACKOFF_MAX_MS, backoffMs, classify, runQueue, type Send } from './sync';

const USER = 1;

interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A fake server: records calls, answers with `answer(call)` (throw to fail). */
function fakeServer(answer: (call: Call, n: number) => unknown = () => ({})) {
  const calls: Call[] = [];
  const send: Send = async (method, path, { body, headers }) => {
    const call = { method, path, body, headers };
    calls.push(call);
    return answer(call, calls.length);
  };
  return { calls, send };
}

const netError = () => Object.assign(new Error('Failed to fetch'), { status: 0, code: 'NETWORK_ERROR' });
const apiError = (status: number, code: string, rawDetails?: unknown) =>
  Object.assign(new Error(code), { status, code, rawDetails });

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

afterEach(async () => {
  await closeDb();
});

describe('offline queue: evdra-db', () => {
  it('opens evdra-db version 1 with the spec stores and an auto-increment edit queue', async () => {
    const db = await getDb();
    expect(db.name).toBe('evdra-db');
    expect(db.version).toBe(1);
    expect([...db.objectStoreNames]).toEqual(
      expect.arrayContaining(['vehicles', 'editQueue', 'records', 'syncIssues', 'meta']),
    );
    const store = db.transaction('editQueue').store;
    expect(store.autoIncrement).toBe(true);
    expect(db.transaction('vehicles').store.keyPath).toBe('id');
  });

  it('stores the extended entry shape (spec type + kind, payload, idempotencyKey, baseVersion, queuedAt)', async () => {
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 7,
      payload: { make: 'Dacia' },
      baseVersion: 3,
      vehicle: { id: 7, make: 'Dacia' },
    });
    const [e] = await listEntries(USER);
    expect(e).toMatchObject({
      type: 'update',
      kind: 'vehicle',
      payload: { make: 'Dacia' },
      baseVersion: 3,
      vehicle: { id: 7, make: 'Dacia' },
      targetId: 7,
    });
    expect(e?.idempotencyKey).toMatch(/.{8,}/);
    expect(Date.parse(e?.queuedAt ?? '')).not.toBeNaN();
  });
});

describe('offline queue: sync', () => {
  it('sends entries in queue order and empties the queue', async () => {
    await enqueue({ type: 'create', kind: 'fuel', userId: USER, payload: { vehicleId: 1, liters: 40 } });
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 1,
      payload: { make: 'A' },
      baseVersion: 2,
    });
    await enqueue({ type: 'delete', kind: 'expense', userId: USER, targetId: 9 });
    const server = fakeServer((c) => (c.method === 'PUT' ? { id: 1, version: 3 } : { id: 100 }));
    const result = await runQueue(USER, server.send);
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/fuel-consumptions',
      'PUT /api/vehicles/1',
      'DELETE /api/expenses/9',
    ]);
    expect(server.calls[1]?.body).toEqual({ make: 'A', version: 2 });
    expect(result).toMatchObject({ sent: 3, conflicts: 0, failed: 0, retryAt: null });
    expect(await listEntries(USER)).toEqual([]);
  });

  it('resends a create whose answer was lost with the same Idempotency-Key, after a backoff', async () => {
    const entry = await enqueue({ type: 'create', kind: 'expense', userId: USER, payload: { vehicleId: 1 } });
    let now = 1_000_000;
    const first = fakeServer(() => {
      throw netError();
    });
    const r1 = await runQueue(USER, first.send, { now: () => now, random: () => 0 });
    expect(r1.retryAt).toBe(now + 1_000);
    const [queued] = await listEntries(USER);
    expect(queued).toMatchObject({ attempts: 1, nextAttemptAt: now + 1_000, sending: false });

    // Too early: nothing is sent.
    const early = fakeServer();
    await runQueue(USER, early.send, { now: () => now + 500 });
    expect(early.calls).toHaveLength(0);

    now += 1_000;
    const second = fakeServer(() => ({ id: 5 }));
    await runQueue(USER, second.send, { now: () => now });
    expect(first.calls[0]?.headers?.['Idempotency-Key']).toBe(entry.idempotencyKey);
    expect(second.calls[0]?.headers?.['Idempotency-Key']).toBe(entry.idempotencyKey);
    expect(await listEntries(USER)).toEqual([]);
  });

  it('keeps order: a 5xx stops the run so later entries never overtake', async () => {
    await enqueue({ type: 'create', kind: 'fuel', userId: USER, payload: { vehicleId: 1 } });
    await enqueue({ type: 'create', kind: 'fuel', userId: USER, payload: { vehicleId: 2 } });
    const server = fakeServer(() => {
      throw apiError(503, 'INTERNAL');
    });
    const r = await runQueue(USER, server.send, { random: () => 0 });
    expect(server.calls).toHaveLength(1);
    expect(r.retryAt).not.toBeNull();
    expect(await listEntries(USER)).toHaveLength(2);
  });

  it('a record edit carries the version it was based on; one without a version is sent as is', async () => {
    await enqueue({
      type: 'update',
      kind: 'fuel',
      userId: USER,
      targetId: 4,
      payload: { liters: 9 },
      baseVersion: 2,
    });
    await enqueue({ type: 'update', kind: 'expense', userId: USER, targetId: 5, payload: { amount: 3 } });
    const server = fakeServer();
    await runQueue(USER, server.send);
    expect(server.calls.map((c) => c.body)).toEqual([{ liters: 9, version: 2 }, { amount: 3 }]);
  });

  it('backs off exponentially up to a minute', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, () => 0))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(30, () => 0)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1, () => 1)).toBe(1200);
  });

  it('a 409 on an update becomes a conflict holding both versions; the queue moves on', async () => {
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 3,
      payload: { make: 'Mine' },
      baseVersion: 1,
    });
    await enqueue({ type: 'delete', kind: 'fuel', userId: USER, targetId: 8 });
    const current = { id: 3, make: 'Theirs', version: 2 };
    const server = fakeServer((c) => {
      if (c.method === 'PUT') throw apiError(409, 'VERSION_CONFLICT', current);
      return undefined;
    });
    const r = await runQueue(USER, server.send);
    expect(r).toMatchObject({ conflicts: 1, sent: 1 });
    const [issue] = await listIssues(USER);
    expect(issue).toMatchObject({
      kind: 'conflict',
      code: 'VERSION_CONFLICT',
      server: current,
      entry: { payload: { make: 'Mine' }, baseVersion: 1 },
    });
    expect(await listEntries(USER)).toEqual([]);
  });

  it('a retried update whose first try was applied (lost answer) is done, not a conflict', async () => {
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 3,
      payload: { make: 'Mine', registrationNumber: 'b-1' },
      baseVersion: 1,
    });
    const server = fakeServer(() => {
      throw apiError(409, 'VERSION_CONFLICT', { id: 3, make: 'Mine', registrationNumber: 'B-1', version: 2 });
    });
    const r = await runQueue(USER, server.send);
    expect(r).toMatchObject({ sent: 1, conflicts: 0 });
    expect(await listIssues(USER)).toEqual([]);
    expect(await listEntries(USER)).toEqual([]);
  });

  it('a 4xx that can never succeed is removed and reported; a 404 delete counts as done', async () => {
    await enqueue({ type: 'create', kind: 'revision', userId: USER, payload: { vehicleId: 1, km: -1 } });
    await enqueue({ type: 'delete', kind: 'insurance', userId: USER, targetId: 4 });
    const server = fakeServer((c) => {
      if (c.method === 'POST') throw apiError(400, 'VALIDATION_FAILED');
      throw apiError(404, 'NOT_FOUND');
    });
    const r = await runQueue(USER, server.send);
    expect(r).toMatchObject({ failed: 1, sent: 1, retryAt: null });
    const issues = await listIssues(USER);
    expect(issues.map((i) => [i.kind, i.code])).toEqual([['failed', 'VALIDATION_FAILED']]);
    expect(await listEntries(USER)).toEqual([]);
  });

  it('classifies answers', () => {
    expect(classify({ type: 'create' }, netError())).toBe('retry');
    expect(classify({ type: 'create' }, apiError(500, 'INTERNAL'))).toBe('retry');
    expect(classify({ type: 'create' }, apiError(429, 'RATE_LIMITED'))).toBe('retry');
    // Server still busy with the first request carrying this Idempotency-Key.
    expect(classify({ type: 'create' }, apiError(409, 'CONFLICT'))).toBe('retry');
    expect(classify({ type: 'update' }, apiError(409, 'VERSION_CONFLICT'))).toBe('conflict');
    expect(classify({ type: 'update' }, apiError(403, 'FORBIDDEN'))).toBe('failed');
    expect(classify({ type: 'delete' }, apiError(404, 'NOT_FOUND'))).toBe('gone');
  });

  it('a vehicle created offline gets its real id in later entries (records, edits)', async () => {
    const car = await enqueue({ type: 'create', kind: 'vehicle', userId: USER, payload: { make: 'Kia' } });
    expect(car.targetId).toBeLessThan(0);
    await enqueue({
      type: 'create',
      kind: 'fuel',
      userId: USER,
      payload: { vehicleId: car.targetId, liters: 10 },
    });
    const server = fakeServer((c) => (c.path === '/api/vehicles' ? { id: 42, version: 0 } : { id: 7 }));
    await runQueue(USER, server.send);
    expect(server.calls[1]?.body).toEqual({ vehicleId: 42, liters: 10 });
  });

  it('sends only the logged-in user’s entries', async () => {
    await enqueue({ type: 'delete', kind: 'fuel', userId: 2, targetId: 1 });
    await enqueue({ type: 'delete', kind: 'fuel', userId: USER, targetId: 2 });
    const server = fakeServer();
    await runQueue(USER, server.send);
    expect(server.calls.map((c) => c.path)).toEqual(['/api/fuel-consumptions/2']);
    expect(await listEntries(2)).toHaveLength(1);
  });
});

describe('offline queue: sync of a long queue', () => {
  it('an entry another tab changed after the run read the queue still gets the real id', async () => {
    const car = await enqueue({ type: 'create', kind: 'vehicle', userId: USER, payload: { make: 'Kia' } });
    await enqueue({ type: 'update', kind: 'fuel', userId: USER, targetId: 4, payload: { liters: 5 } });
    const server = fakeServer(async (c) => {
      if (c.path === '/api/vehicles') {
        // While the create is in flight, the user moves the queued fuel edit to the new car.
        await enqueue({
          type: 'update',
          kind: 'fuel',
          userId: USER,
          targetId: 4,
          payload: { vehicleId: car.targetId },
        });
        return { id: 42, version: 0 };
      }
      return { id: 4, version: 2 };
    });
    await runQueue(USER, server.send);
    expect(server.calls[1]?.body).toEqual({ liters: 5, vehicleId: 42 });
    expect(await listEntries(USER)).toEqual([]);
  });

  it('entries queued while the run is going are sent in the same run, with the real ids', async () => {
    const car = await enqueue({ type: 'create', kind: 'vehicle', userId: USER, payload: { make: 'Kia' } });
    const server = fakeServer(async (c, n) => {
      if (n === 1)
        await enqueue({
          type: 'create',
          kind: 'expense',
          userId: USER,
          payload: { vehicleId: car.targetId },
        });
      return c.path === '/api/vehicles' ? { id: 42, version: 0 } : { id: 9 };
    });
    const r = await runQueue(USER, server.send);
    expect(r.sent).toBe(2);
    expect(server.calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/vehicles', { make: 'Kia' }],
      ['/api/expenses', { vehicleId: 42 }],
    ]);
  });

  it('an edit queued while the previous edit of the row is in flight builds on its version', async () => {
    await enqueue({
      type: 'update',
      kind: 'fuel',
      userId: USER,
      targetId: 4,
      payload: { liters: 5 },
      baseVersion: 1,
    });
    const server = fakeServer(async (_c, n) => {
      // Not merged into the entry being sent: queued after it, based on the version the screen showed.
      if (n === 1)
        await enqueue({
          type: 'update',
          kind: 'fuel',
          userId: USER,
          targetId: 4,
          payload: { liters: 6 },
          baseVersion: 1,
        });
      return { id: 4, version: n + 1 };
    });
    await runQueue(USER, server.send);
    expect(server.calls.map((c) => c.body)).toEqual([
      { liters: 5, version: 1 },
      { liters: 6, version: 2 },
    ]);
    expect(await listEntries(USER)).toEqual([]);
  });
});

describe('offline queue: merging', () => {
  it('an edit of a row created offline goes into its create; a delete drops both', async () => {
    const fuel = await enqueue({
      type: 'create',
      kind: 'fuel',
      userId: USER,
      payload: { vehicleId: 1, liters: 10 },
    });
    await enqueue({
      type: 'update',
      kind: 'fuel',
      userId: USER,
      targetId: fuel.targetId,
      payload: { vehicleId: 1, liters: 12 },
    });
    const entries = await listEntries(USER);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      type: 'create',
      payload: { liters: 12 },
      idempotencyKey: fuel.idempotencyKey,
    });
    await enqueue({ type: 'delete', kind: 'fuel', userId: USER, targetId: fuel.targetId });
    expect(await listEntries(USER)).toEqual([]);
  });

  it('two edits of one row merge and keep the version the user started from', async () => {
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 5,
      payload: { make: 'A', model: 'X' },
      baseVersion: 4,
    });
    await enqueue({
      type: 'update',
      kind: 'vehicle',
      userId: USER,
      targetId: 5,
      payload: { make: 'B' },
      baseVersion: 5,
    });
    const entries = await listEntries(USER);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ payload: { make: 'B', model: 'X' }, baseVersion: 4 });
  });

  it('deleting a vehicle created offline also drops the records queued for it', async () => {
    const car = await enqueue({ type: 'create', kind: 'vehicle', userId: USER, payload: { make: 'Kia' } });
    await enqueue({ type: 'create', kind: 'expense', userId: USER, payload: { vehicleId: car.targetId } });
    await enqueue({ type: 'delete', kind: 'vehicle', userId: USER, targetId: car.targetId });
    expect(await listEntries(USER)).toEqual([]);
  });
});

describe('offline overlay and caches', () => {
  it('shows queued creates first, applies edits and hides deletes, marked pendingSync', async () => {
    const rows = [
      { id: 1, vehicleId: 1, liters: 10 },
      { id: 2, vehicleId: 1, liters: 20 },
    ];
    await enqueue({ type: 'update', kind: 'fuel', userId: USER, targetId: 1, payload: { liters: 11 } });
    await enqueue({ type: 'delete', kind: 'fuel', userId: USER, targetId: 2 });
    const created = await enqueue({
      type: 'create',
      kind: 'fuel',
      userId: USER,
      payload: { vehicleId: 1, liters: 5 },
    });
    await enqueue({ type: 'create', kind: 'fuel', userId: USER, payload: { vehicleId: 9, liters: 1 } });
    const out = applyQueue(rows, await listEntries(USER), 'fuel', {
      userId: USER,
      username: 'a',
      vehicleId: 1,
    });
    expect(out).toEqual([
      expect.objectContaining({
        id: created.targetId,
        liters: 5,
        pendingSync: true,
        consumptionPer100km: null,
      }),
      { id: 1, vehicleId: 1, liters: 11, pendingSync: true },
    ]);
  });

  it('switching users empties the caches: the next user never sees the previous user’s data', async () => {
    await saveVehicleList(1, [{ id: 1, make: 'Mine' }]);
    await saveRecordList(1, 'fuel', 1, [{ id: 3 }]);
    expect(await loadVehicleList(1)).toHaveLength(1);
    expect(await loadVehicleList(2)).toEqual([]);
    expect(await loadRecordList(2, 'fuel', 1)).toBeUndefined();
    // …and user 1's cache is gone too once user 2 used the device.
    expect(await loadVehicleList(1)).toEqual([]);
  });
});

describe('offline all-vehicles lists', () => {
  it('composes every cached record of a kind: pages seen plus each vehicle list, the newer one winning', async () => {
    await saveRecordList(USER, 'fuel', 1, [{ id: 1, vehicleId: 1, liters: 10 }]);
    await new Promise((r) => setTimeout(r, 5));
    await saveAllRecordsPage(
      USER,
      'fuel',
      [
        { id: 1, vehicleId: 1, liters: 11 },
        { id: 2, vehicleId: 2, liters: 20 },
      ],
      true,
    );
    await saveAllRecordsPage(USER, 'fuel', [{ id: 3, vehicleId: 2, liters: 30 }], false);
    await saveRecordList(USER, 'expense', 1, [{ id: 99, vehicleId: 1 }]);
    const byId = (rows: unknown[]) => [...(rows as { id: number }[])].sort((a, b) => a.id - b.id);
    expect(byId(await loadAllCachedRecords(USER, 'fuel'))).toEqual([
      { id: 1, vehicleId: 1, liters: 11 },
      { id: 2, vehicleId: 2, liters: 20 },
      { id: 3, vehicleId: 2, liters: 30 },
    ]);
    // Vehicle 2's own list, loaded later, knows that record 2 was deleted meanwhile.
    await new Promise((r) => setTimeout(r, 5));
    await saveRecordList(USER, 'fuel', 2, [{ id: 3, vehicleId: 2, liters: 31 }]);
    expect(byId(await loadAllCachedRecords(USER, 'fuel'))).toEqual([
      { id: 1, vehicleId: 1, liters: 11 },
      { id: 3, vehicleId: 2, liters: 31 },
    ]);
    // Another user never sees them.
    expect(await loadAllCachedRecords(2, 'fuel')).toEqual([]);
  });
});

describe('receipts kept offline', () => {
  it('keeps the photo bytes per user and kind, oldest first, until dropped', async () => {
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])], { type: 'image/jpeg' });
    const first = await keepReceipt(USER, 'fuel', 7, Object.assign(photo, { name: 'pump.jpg' }));
    await new Promise((r) => setTimeout(r, 2));
    await keepReceipt(USER, 'fuel', 8, new Blob([new Uint8Array([9])], { type: 'image/png' }));
    await keepReceipt(USER, 'expense', 7, photo);
    await keepReceipt(2, 'fuel', 7, photo);
    const mine = await listReceipts(USER, 'fuel');
    expect(mine.map((r) => [r.vehicleId, r.type])).toEqual([
      [7, 'image/jpeg'],
      [8, 'image/png'],
    ]);
    const file = receiptFile(mine[0] as PendingReceipt);
    expect(file.name).toBe('pump.jpg');
    expect([...new Uint8Array(await bytesOf(file))]).toEqual([0xff, 0xd8, 0xff, 1, 2, 3]);
    await dropReceipt(first.id);
    expect((await listReceipts(USER, 'fuel')).map((r) => r.vehicleId)).toEqual([8]);
    expect(await listReceipts(2, 'fuel')).toHaveLength(1);
  });
});
