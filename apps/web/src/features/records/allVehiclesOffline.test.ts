import 'fake-indexeddb/auto';
import type { FuelEntry } from '@evdra/domain';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveAllRecordsPage, saveRecordList } from '../../lib/offline/cache';
import { closeDb, DB_NAME } from '../../lib/offline/db';
import { enqueue } from '../../lib/offline/queue';
import { jsonResponse, mockApi, storeUser } from '../../test/utils';
import { fetchRecordList, fetchRecordPage } from './api';

const dateOf = (r: FuelEntry) => r.date;
const fill = (id: number, vehicleId: number, date: string, liters: number) =>
  ({ id, vehicleId, date, liters, fuelPrice: 10, fuelType: 'DIESEL' }) as FuelEntry;
const noConnection = () => {
  throw new TypeError('Failed to fetch');
};

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
  storeUser({ id: 1 });
});

afterEach(async () => {
  await closeDb();
});

describe('all-vehicles record list offline', () => {
  it('shows every cached record of the kind with the queued writes, newest first, instead of an error', async () => {
    // Online: the first page is answered and kept.
    mockApi({
      'GET /api/fuel-consumptions': () =>
        jsonResponse({
          items: [fill(3, 1, '2025-03-01', 30), fill(2, 2, '2025-02-01', 20)],
          nextCursor: 'x',
        }),
    });
    const online = await fetchRecordPage<FuelEntry>('fuel', undefined, undefined, dateOf);
    expect(online.items.map((r) => r.id)).toEqual([3, 2]);
    await new Promise((r) => setTimeout(r, 20));
    // A vehicle's own list opened later adds an older record the pages had not reached.
    await saveRecordList(1, 'fuel', 1, [fill(3, 1, '2025-03-01', 30), fill(1, 1, '2025-01-01', 10)]);
    await enqueue({ type: 'update', kind: 'fuel', userId: 1, targetId: 2, payload: { liters: 22 } });
    const created = await enqueue({
      type: 'create',
      kind: 'fuel',
      userId: 1,
      payload: { vehicleId: 1, date: '2025-04-01', liters: 40 },
    });

    mockApi({ 'GET /api/fuel-consumptions': noConnection });
    const offline = await fetchRecordPage<FuelEntry>('fuel', undefined, undefined, dateOf);
    expect(offline.nextCursor).toBeNull();
    expect(offline.items.map((r) => [r.id, r.liters, 'pendingSync' in r])).toEqual([
      [created.targetId, 40, true],
      [3, 30, false],
      [2, 22, true],
      [1, 10, false],
    ]);
    // The date filter applies to what is cached, and a next page is not made up.
    const march = await fetchRecordPage<FuelEntry>(
      'fuel',
      { from: '2025-02-15', to: '2025-03-31' },
      undefined,
      dateOf,
    );
    expect(march.items.map((r) => r.id)).toEqual([3]);
    await expect(fetchRecordPage<FuelEntry>('fuel', undefined, 'x', dateOf)).rejects.toMatchObject({
      status: 0,
    });
  });

  it('a later page online shows queued edits and deletes but not the queued creates again', async () => {
    await saveAllRecordsPage(1, 'fuel', [], true);
    await enqueue({ type: 'delete', kind: 'fuel', userId: 1, targetId: 5 });
    await enqueue({ type: 'create', kind: 'fuel', userId: 1, payload: { vehicleId: 1, date: '2025-04-01' } });
    mockApi({
      'GET /api/fuel-consumptions': () =>
        jsonResponse({ items: [fill(6, 1, '2024-06-01', 6), fill(5, 1, '2024-05-01', 5)], nextCursor: null }),
    });
    const page2 = await fetchRecordPage<FuelEntry>('fuel', undefined, 'cursor', dateOf);
    expect(page2.items.map((r) => r.id)).toEqual([6]);
  });
});

describe("a vehicle's record list offline", () => {
  it('shows every page the user loaded (and no next page), with queued creates on the first page only', async () => {
    const pageOf = (cursor: string | undefined) =>
      cursor
        ? jsonResponse([fill(2, 1, '2025-02-01', 20), fill(1, 1, '2025-01-01', 10)])
        : new Response(JSON.stringify([fill(4, 1, '2025-04-01', 40), fill(3, 1, '2025-03-01', 30)]), {
            headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': '2025-03-01_3' },
          });
    const fetchMock = mockApi({
      'GET /api/fuel-consumptions/vehicle/1': (url) =>
        pageOf(new URL(url, 'http://x').searchParams.get('cursor') ?? undefined),
    });
    const first = await fetchRecordList<FuelEntry>('fuel', 1, undefined);
    expect(first.nextCursor).toBe('2025-03-01_3');
    const second = await fetchRecordList<FuelEntry>('fuel', 1, undefined, undefined, '2025-03-01_3');
    expect(second.nextCursor).toBeNull();
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual([
      '/api/fuel-consumptions/vehicle/1?limit=100',
      '/api/fuel-consumptions/vehicle/1?limit=100&cursor=2025-03-01_3',
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const created = await enqueue({
      type: 'create',
      kind: 'fuel',
      userId: 1,
      payload: { vehicleId: 1, date: '2025-05-01', liters: 50 },
    });

    mockApi({ 'GET /api/fuel-consumptions/vehicle/1': noConnection });
    const offline = await fetchRecordList<FuelEntry>('fuel', 1, undefined);
    expect(offline.nextCursor).toBeNull();
    expect(offline.items.map((r) => r.id).sort((a, b) => a - b)).toEqual([created.targetId, 1, 2, 3, 4]);
    // Loading the first page again online starts the kept list over from it.
    mockApi({
      'GET /api/fuel-consumptions/vehicle/1': (url) =>
        pageOf(new URL(url, 'http://x').searchParams.get('cursor') ?? undefined),
    });
    await fetchRecordList<FuelEntry>('fuel', 1, undefined);
    await new Promise((r) => setTimeout(r, 20));
    mockApi({ 'GET /api/fuel-consumptions/vehicle/1': noConnection });
    expect((await fetchRecordList<FuelEntry>('fuel', 1, undefined)).items.map((r) => r.id)).toEqual([
      created.targetId,
      4,
      3,
    ]);
  });

  it('a null page param (a first page the server rendered, back from JSON) asks for the first page', async () => {
    const fetchMock = mockApi({ 'GET /api/fuel-consumptions/vehicle/1': () => jsonResponse([]) });
    await fetchRecordList<FuelEntry>('fuel', 1, undefined, undefined, null);
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual([
      '/api/fuel-consumptions/vehicle/1?limit=100',
    ]);
  });
});
