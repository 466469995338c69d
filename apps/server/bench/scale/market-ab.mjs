// The market list's statement before and after issue 54 (migration 0034_market_search) on the kept
// scale database, alternating on the same data: before, every active listing whose vehicle's text
// contains the filter (strpos, no bound), read whole; after, one page (MARKET_PAGE_SIZE + 1 rows)
// on the filter's partial index. Prints each case's median wall time of the statement (sent and read
// by one connection), its rows, the pages (buffers) it touches (the same under any load), and the after's plan's scan.
//   RUNS (9 per side), SIZE (full | small). Run: cd apps/server && chrt -f 10 node bench/scale/market-ab.mjs
import { fmt, median } from '../lib.mjs';
import { NAMES, urlOf } from './databases.mjs';
import { pgClient } from './measure.mjs';

const RUNS = Number(process.env.RUNS ?? 9);
const size = process.env.SIZE ?? 'full';
const PAGE = 49;

const joins = `from listings l join vehicles v on v.id = l.vehicle_id join users u on u.id = l.seller_id
  left join vehicle_history h on h.vehicle_id = l.vehicle_id`;
const columns = `l.id, l.vehicle_id, v.make, v.model, v.year, v.engine_size, v.odometer, v.fuel_type,
  v.secondary_fuel_type, v.ai_score, l.price, l.currency, l.description, u.username, l.photo_ids,
  l.created_at, h.services, h.last_service_date, h.fuel_entries, h.consumption`;
const before = (where) => `select ${columns} ${joins} where l.active ${where} order by l.id desc`;
const after = (where, order = 'l.id desc') =>
  `select ${columns} ${joins} where l.active ${where} order by ${order} limit ${PAGE}`;

/** [name, before's statement (null: no such query before), after's statement] */
const cases = [
  ['all listings', before(''), after('')],
  ['make Dacia', before(`and strpos(lower(v.make), 'dacia') > 0`), after(`and l.search_make like 'dacia%'`)],
  [
    'make Porsche',
    before(`and strpos(lower(v.make), 'porsche') > 0`),
    after(`and l.search_make like 'porsche%'`),
  ],
  [
    'model Logan',
    before(`and strpos(lower(v.model), 'logan') > 0`),
    after(`and l.search_model like 'logan%'`),
  ],
  [
    'fuel diesel',
    before(`and strpos(lower(v.fuel_type || ' ' || coalesce(v.secondary_fuel_type, '')), 'diesel') > 0`),
    after(`and (l.search_fuel in ('DIESEL') or l.search_fuel2 in ('DIESEL'))`),
  ],
  [
    'fuel electric',
    before(`and strpos(lower(v.fuel_type || ' ' || coalesce(v.secondary_fuel_type, '')), 'electric') > 0`),
    after(`and (l.search_fuel in ('ELECTRIC') or l.search_fuel2 in ('ELECTRIC'))`),
  ],
  ['year 2015', before(`and strpos(v.year::text, '2015') > 0`), after(`and l.search_year in (2015)`)],
  ['km ≤ 100,000', before('and v.odometer <= 100000'), after('and l.search_odometer <= 100000')],
  ['price 5,000-6,000 €', null, after('and l.price_eur >= 5000 and l.price_eur <= 6000')],
  ['by rating', null, after('', 'l.rating_rank, -l.id')],
];

const client = await pgClient(urlOf(NAMES[size]));
const timed = async (statement) => {
  const t = performance.now();
  const r = await client.query(statement);
  return { ms: performance.now() - t, rows: r.rowCount };
};
/** The buffers (8 kB pages) the statement touches: its work, whatever the machine's load. */
const pages = async (statement) => {
  const [row] = (await client.query(`explain (analyze, buffers, format json) ${statement}`)).rows;
  const plan = row['QUERY PLAN'][0].Plan;
  return fmt(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']);
};
try {
  for (const [name, old, neu] of cases) {
    const ms = { before: [], after: [] };
    let rows = { before: 0, after: 0 };
    for (let i = 0; i < RUNS * 2; i++) {
      const side = i % 2 === 0 ? 'after' : 'before';
      const statement = side === 'after' ? neu : old;
      if (!statement) continue;
      const r = await timed(statement);
      ms[side].push(r.ms);
      rows = { ...rows, [side]: r.rows };
    }
    const plan = (await client.query(`explain ${neu}`)).rows.map((r) => r['QUERY PLAN']);
    const scan = plan.find((l) => /Scan/.test(l) && /listings/.test(l))?.trim() ?? '';
    const was = old
      ? `${fmt(median(ms.before), 1)} ms, ${await pages(old)} pages (${fmt(rows.before)} rows)`
      : '–';
    console.log(
      `${name}: before ${was}; after ${fmt(median(ms.after), 1)} ms, ${await pages(neu)} pages (${rows.after} rows); ${scan}`,
    );
  }
} finally {
  await client.end();
}
