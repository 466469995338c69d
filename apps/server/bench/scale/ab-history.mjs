// Migration 0042's before/after on the kept full set: a fill-up's insert into fleet_0001's 5,000-fill
// car (statement and triggers, rolled back), with the record summary refreshed from every record of the
// car (before) or added to (after), the trigger function swapped between alternating slices.
//   SLICES (8), N (inserts per slice, 100), SIZE (full | small)
import { readFileSync } from 'node:fs';
import { fmt, median } from '../lib.mjs';
import { BIG_CAR } from './accounts.mjs';
import { NAMES, urlOf } from './databases.mjs';
import { pgClient } from './measure.mjs';

const SLICES = Number(process.env.SLICES ?? 8);
const N = Number(process.env.N ?? 100);
const client = await pgClient(urlOf(NAMES[process.env.SIZE ?? 'full']));
const before = `CREATE OR REPLACE FUNCTION evdra_history_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_refresh_history(vehicle_id) FROM (SELECT DISTINCT vehicle_id FROM new_rows) s;
  RETURN NULL;
END $$`;
// The migration's own function (its last statement).
const migration = readFileSync(
  new URL('../../drizzle/0042_history_incremental.sql', import.meta.url),
  'utf8',
);
const after = migration.slice(migration.lastIndexOf('CREATE OR REPLACE FUNCTION evdra_history_new()'));
const {
  rows: [last],
} = await client.query('select max(date) as d, max(odometer) as km from fuel_entries where vehicle_id = $1', [
  BIG_CAR,
]);
const ms = { before: [], after: [] };
try {
  for (let i = 0; i < 2 * SLICES; i++) {
    const side = i % 2 === 0 ? 'before' : 'after';
    await client.query(side === 'before' ? before : after);
    const times = [];
    for (let j = 0; j < N; j++) {
      await client.query('begin');
      const t = performance.now();
      await client.query(
        `insert into fuel_entries (vehicle_id, fuel_type, liters, fuel_price, price_per_liter, odometer, date,
           full_tank, missed_previous, consumption_per_100km, currency, rate_currency, exchange_rate)
         select $1, 'DIESEL', 40, 280, 7, $2::int + 600, $3::date + 1, true, false, 6.67, 'EUR', 'EUR', 1`,
        [BIG_CAR, last.km, last.d],
      );
      times.push(performance.now() - t);
      await client.query('rollback');
    }
    ms[side].push(median(times));
    console.log(`slice ${i + 1} ${side.padEnd(6)}: median insert ${fmt(median(times), 2)} ms`);
  }
  console.log(
    `a fill-up's insert into the 5,000-fill car: median before ${fmt(median(ms.before), 2)} ms, after ${fmt(median(ms.after), 2)} ms`,
  );
} finally {
  await client.query(after);
  await client.end();
}
