// Where GET /api/marketplace/listings spends its CPU, step by step (CPU time of this process, so a
// loaded machine disturbs it less than wall time): the statement and reading its rows, building
// the cards (priceRating included), JSON.stringify. Against a kept bench database:
//   BENCH_KEEP=1 npm run bench:market   (prints "kept database <name>")
//   MARKET_DB=postgres://postgres@127.0.0.1:5432/<name> node --import tsx apps/server/bench/market-profile.ts
import { MARKET_LIST_CAP } from '@evdra/domain';
import { openPostgres } from '../src/db/client.js';
import { MarketplaceRepo } from '../src/modules/marketplace/marketplace.repo.js';
import { presentListing } from '../src/modules/marketplace/marketplace.service.js';

const url = process.env.MARKET_DB;
if (!url) throw new Error('MARKET_DB=<postgres url of a kept bench database>');
const database = await openPostgres(url);
const repo = new MarketplaceRepo(database.db);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const whole = { sort: 'newest', limit: MARKET_LIST_CAP } as const;
for (const [label, filters] of [
  ['all', whole],
  ['make=audi', { ...whole, makeText: 'audi' }],
] as const) {
  const ms: Record<'read' | 'cards' | 'stringify', number[]> = { read: [], cards: [], stringify: [] };
  let bytes = 0;
  for (let k = 0; k < 11; k++) {
    let t = cpu();
    const rows = await repo.cards(filters);
    ms.read.push(cpu() - t);
    t = cpu();
    const cards = rows.map(presentListing);
    ms.cards.push(cpu() - t);
    t = cpu();
    bytes = JSON.stringify(cards).length;
    ms.stringify.push(cpu() - t);
  }
  const parts = Object.entries(ms).map(([k, v]) => `${k} ${median(v).toFixed(1)}`);
  console.log(`${label}: CPU ms ${parts.join(', ')}; ${(bytes / 1024).toFixed(0)} KB`);
}
await database.close();
