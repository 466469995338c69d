import { chronological, consumptionByEntry } from '@evdra/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

// Writes recompute consumption only from the last full fill before what they touched; after every
// insert, edit and delete in the middle of a history, each row must equal a recomputation of the whole
// history from scratch (the shared rule in packages/domain).

let t: TestApp;
let alice: TestClient;

type Entry = {
  id: number;
  vehicleId: number;
  date: string;
  odometer: number | null;
  liters: number;
  fullTank: boolean;
  missedPrevious: boolean;
  consumptionPer100km: number | null;
};

const car = (reg: string) => ({
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1,
  odometer: 0,
});
const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  alice = (await registered(t.app, 'alice')).client;
});
afterAll(() => t.close());

/** Oldest first, as the rule counts them (by date, then odometer, then id). */
const inOrder = (rows: Entry[]) => [...rows].sort(chronological);

async function history(v: number): Promise<Entry[]> {
  return (await alice.get(`/api/fuel-consumptions/vehicle/${v}`)).data;
}

/** Every row's stored figure equals the whole history recomputed; returns the rows. */
async function expectConsistent(v: number): Promise<Entry[]> {
  const rows = await history(v);
  const expected = consumptionByEntry(rows);
  expect(rows.map((r) => [r.id, r.consumptionPer100km])).toEqual(
    rows.map((r) => [r.id, expected.get(r.id) ?? null]),
  );
  return rows;
}

async function add(v: number, i: number, extra: Partial<Entry> = {}): Promise<Entry> {
  const res = await alice.post('/api/fuel-consumptions', {
    vehicleId: v,
    fuelType: 'PETROL',
    liters: 30 + (i % 9),
    fuelPrice: 200,
    odometer: 10_000 + i * 500,
    date: day(i * 4),
    fullTank: i % 4 !== 2,
    missedPrevious: i === 13,
    ...extra,
  });
  expect(res.statusCode).toBe(201);
  return res.data;
}

describe('fuel consumption kept incrementally', () => {
  it('stays equal to a full recomputation after inserts, edits and deletes in the middle', async () => {
    const v = (await alice.post('/api/vehicles', car('INC-1'))).data.id;
    // Every other fill first, so the others land in the middle of the history afterwards.
    for (let i = 0; i < 24; i += 2) await add(v, i);
    await expectConsistent(v);
    for (let i = 1; i < 24; i += 2) {
      const created = await add(v, i);
      const rows = await expectConsistent(v);
      // The created row answers with its own figure already computed.
      expect(created.consumptionPer100km).toBe(rows.find((r) => r.id === created.id)?.consumptionPer100km);
    }

    let rows = await history(v);
    let chrono = inOrder(rows);
    // A second fill the same day at the same reading (a top-up at one stop): it counts after the first
    // (the tie-break by id), so it adds no distance and gets no figure, and the first keeps its own.
    const sameDay = chrono[8] as Entry;
    const second = await add(v, 40, { date: sameDay.date, odometer: sameDay.odometer, fullTank: true });
    rows = await expectConsistent(v);
    expect(second.consumptionPer100km).toBeNull();
    expect(rows.find((r) => r.id === sameDay.id)?.consumptionPer100km).toBe(sameDay.consumptionPer100km);
    chrono = inOrder(rows);
    const middle = chrono[11] as Entry;
    // More litres in the middle: that fill and the next full one change.
    await alice.put(`/api/fuel-consumptions/${middle.id}`, { ...middle, liters: middle.liters + 12 });
    await expectConsistent(v);
    // A full fill becomes partial (and back): the figure moves to the next full fill.
    const full = chrono.find((r, i) => i > 5 && r.fullTank && !r.missedPrevious) as Entry;
    await alice.put(`/api/fuel-consumptions/${full.id}`, { ...full, fullTank: false });
    await expectConsistent(v);
    await alice.put(`/api/fuel-consumptions/${full.id}`, { ...full, fullTank: true });
    await expectConsistent(v);
    // Marked missed-previous in the middle, then cleared.
    await alice.put(`/api/fuel-consumptions/${middle.id}`, { ...middle, missedPrevious: true });
    await expectConsistent(v);
    await alice.put(`/api/fuel-consumptions/${middle.id}`, { ...middle, missedPrevious: false });
    await expectConsistent(v);
    // A date (and reading) moved earlier within its neighbours' bounds.
    const late = chrono[17] as Entry;
    const before = chrono[16] as Entry;
    await alice.put(`/api/fuel-consumptions/${late.id}`, {
      ...late,
      date: before.date,
      odometer: (before.odometer ?? 0) + 100,
    });
    await expectConsistent(v);

    // Deletes in the middle: a full fill, a partial one, the first and the newest.
    rows = await history(v);
    const c2 = inOrder(rows);
    for (const r of [
      c2.find((r, i) => i > 8 && r.fullTank) as Entry,
      c2.find((r, i) => i > 3 && !r.fullTank) as Entry,
      c2[0] as Entry,
      c2.at(-1) as Entry,
    ]) {
      expect((await alice.delete(`/api/fuel-consumptions/${r.id}`)).statusCode).toBe(204);
      await expectConsistent(v);
    }
  });

  it('recomputes both vehicles when a fill moves from one to the other', async () => {
    const a = (await alice.post('/api/vehicles', car('INC-2'))).data.id;
    const b = (await alice.post('/api/vehicles', car('INC-3'))).data.id;
    for (let i = 0; i < 6; i++) await add(a, i, { fullTank: true, missedPrevious: false });
    for (let i = 0; i < 6; i++) await add(b, i * 2 + 1, { fullTank: true, missedPrevious: false });
    const moving = (await history(a)).find((r) => r.date === day(2 * 4)) as Entry;
    const res = await alice.put(`/api/fuel-consumptions/${moving.id}`, { ...moving, vehicleId: b });
    expect(res.statusCode).toBe(200);
    expect((await expectConsistent(a)).length).toBe(5);
    expect((await expectConsistent(b)).length).toBe(7);
  });

  it('raises the vehicle odometer to a higher reading and never lowers it on delete', async () => {
    const v = (await alice.post('/api/vehicles', car('INC-4'))).data.id;
    await add(v, 0);
    const last = await add(v, 1);
    expect((await alice.get(`/api/vehicles/${v}`)).data.odometer).toBe(10_500);
    await alice.delete(`/api/fuel-consumptions/${last.id}`);
    expect((await alice.get(`/api/vehicles/${v}`)).data.odometer).toBe(10_500);
  });
});
