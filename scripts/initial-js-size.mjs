// `npm run size`: gzipped size of the JavaScript a first visit loads (the entry script and the
// chunks index.html preloads), from the built apps/web/dist. Target: ≤ 170 kB.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const f of new Set(files)) {
  const gz = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  total += gz;
  console.log(`${(gz / 1000).toFixed(1).padStart(7)} kB  ${f}`);
}
console.log(`${(total / 1000).toFixed(1).padStart(7)} kB  initial JS, gzipped (target ≤ 170 kB)`);
