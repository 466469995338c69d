/**
 * OCR preview benchmark through the real HTTP route (app.inject, PGlite, the app's own pool):
 *   - median and p95 of POST /api/fuel-ocr/preview for a 12-megapixel phone photo (sequential),
 *   - 4 previews at once (all must answer 200),
 *   - RSS over many previews in a row (default 200).
 *   node --import tsx apps/server/ocr-dev/bench.ts [--runs 20] [--rss 200] [--stages 3 [--photos dir]]
 * --stages n first reads the bench photo (and with --photos, the development set's 12 MP tuning photos
 * in dir) n times each through preprocessing and the engine directly, and prints where the time went
 * per stage (median ms, and CPU of the whole process). --runs 0 --rss 0 stops after that.
 */

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchApp, rssMb as mb, pct } from './bench-app.js';
import { heldOut } from './dataset.js';
import { photograph } from './photo.js';
import { makeReceipt, receiptSvg } from './receipts.js';
import { printStages } from './stages.js';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const runs = arg('runs', 20);
const rssRuns = arg('rss', 200);
const stageRuns = arg('stages', 0);
const photosDir = process.argv.includes('--photos')
  ? process.argv[process.argv.indexOf('--photos') + 1]
  : undefined;

const rc = makeReceipt('fuel', 'ro', 4242);
const photo = await photograph(receiptSvg(rc, 4242).svg, 4242, '12mp');
const out = (s: string) => process.stdout.write(`${s}\n`);

if (stageRuns > 0) {
  const photos: { name: string; bytes: Buffer }[] = [{ name: 'bench', bytes: photo }];
  if (photosDir) {
    type E = { file: string; index: number; style: string };
    const entries = JSON.parse(readFileSync(join(photosDir, 'labels.json'), 'utf8')) as E[];
    for (const e of entries)
      if (!heldOut(e) && e.style.includes('12mp'))
        photos.push({ name: e.file, bytes: readFileSync(join(photosDir, e.file)) });
  }
  await printStages(photos, stageRuns);
}
if (runs === 0 && rssRuns === 0) process.exit(0);

const app = await benchApp();
const preview = () => app.preview(photo);

out(`12 MP photo: ${photo.length} bytes; label ${JSON.stringify(rc.label)}`);
const first = await preview(); // starts the workers
out(
  `first preview (worker start-up included): ${first.ms.toFixed(0)} ms, status ${first.status}, liters ${first.data?.liters}, total ${first.data?.fuelPrice}`,
);
const times: number[] = [];
const cpus: number[] = [];
for (let i = 0; i < runs; i++) {
  const c0 = process.cpuUsage();
  times.push((await preview()).ms);
  const c = process.cpuUsage(c0);
  cpus.push((c.user + c.system) / 1000);
}
out(
  `sequential previews (${runs}): median ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
);
// CPU time of the whole process (all threads) per preview: what one preview costs on an idle machine.
out(
  `  CPU per preview: median ${pct(cpus, 50).toFixed(0)} ms, p95 ${pct(cpus, 95).toFixed(0)} ms; load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
);
const t0 = performance.now();
const four = await Promise.all([preview(), preview(), preview(), preview()]);
out(
  `4 at once: statuses ${four.map((r) => r.status).join(', ')}; wall ${(performance.now() - t0).toFixed(0)} ms; each ${four.map((r) => r.ms.toFixed(0)).join(', ')} ms`,
);
const rss0 = mb();
let peak = rss0;
let failed = 0;
const failures = new Map<string, number>();
for (let i = 0; i < rssRuns; i++) {
  const r = await preview();
  if (r.status !== 200) {
    failed++;
    const why = `${r.status} ${r.data?.code ?? ''} (preview ${i + 1})`;
    failures.set(why, (failures.get(why) ?? 0) + 1);
  }
  peak = Math.max(peak, mb());
  if ((i + 1) % 50 === 0) out(`  after ${i + 1}: RSS ${mb()} MB`);
}
out(
  `RSS over ${rssRuns} previews in a row: start ${rss0} MB, peak ${peak} MB, end ${mb()} MB; failures ${failed}`,
);
for (const [why, n] of failures) out(`  failed: ${why}${n > 1 ? ` ×${n}` : ''}`);
out('(RSS is this process; tesseract workers are worker_threads, so their WASM heaps are included.)');
await app.close();
