/**
 * OCR preview speed on real photos, through the HTTP route (app.inject, PGlite, the app's own pool):
 *   node --import tsx apps/server/ocr-dev/bench-photos.ts <dir>... [--mp 0.2-1.2] [--fit] [--n 60]
 *     [--rss 200] [--stages 1 [--stages-only]]
 * The photos are the JPEG/PNG files in each <dir> (not recursive), in an order drawn from their names
 * (the same every run), those of `--mp` megapixels; --fit also takes larger ones, each scaled down to
 * a size drawn in that range from its name (a phone app's upload size). Prints the first preview after
 * start (worker start-up included) apart, then p50/p95 of one sequential preview of each of the n
 * photos, then RSS every 20 of `--rss` previews in a row going round the set. --stages k first reads
 * each photo k times through preprocessing and the engine without HTTP and prints where the time went
 * (stages.ts); --stages-only stops after that. Nothing is downloaded: point it at e.g. SROIE's
 * data/img and at the development set made by generate.ts (--out <dir>).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { benchApp, pct, rssMb } from './bench-app.js';
import { printStages } from './stages.js';

const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const dirs = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const [lo = 0.2, hi = 1.2] = (opt('mp') ?? '0.2-1.2').split('-').map(Number);
const fit = argv.includes('--fit');
const n = Number(opt('n') ?? 60);
const rssRuns = Number(opt('rss') ?? 200);
const stageRuns = Number(opt('stages') ?? 0);
const out = (s: string) => process.stdout.write(`${s}\n`);

/** A number in [0, 1) from a name: the order of the photos and the size a larger one is fitted to. */
const draw = (name: string) => createHash('sha1').update(name).digest().readUInt32BE(0) / 2 ** 32;

type Photo = { name: string; bytes: Buffer; mp: number };
/** The photo at `path` if it is of the chosen size (or, with --fit, larger and scaled down to it). */
async function photoAt(path: string, name: string): Promise<Photo | undefined> {
  const { width = 0, height = 0, orientation } = await sharp(path).metadata(); // the header only
  const mp = (width * height) / 1e6;
  if (mp >= lo && mp <= hi) return { name, bytes: readFileSync(path), mp };
  if (!fit || mp < hi) return undefined;
  const k = Math.sqrt((lo + (hi - lo) * draw(`size:${name}`)) / mp);
  const small = await sharp(path)
    .rotate() // EXIF orientation applied first, as a phone app's upload would
    .resize(Math.round((orientation && orientation >= 5 ? height : width) * k))
    .jpeg({ quality: 85 })
    .toBuffer();
  const m = await sharp(small).metadata();
  return { name: `${name}@fit`, bytes: small, mp: ((m.width ?? 0) * (m.height ?? 0)) / 1e6 };
}

const files = dirs
  .flatMap((d) => readdirSync(d).flatMap((f) => (/\.(jpe?g|png)$/i.test(f) ? [{ d, f }] : [])))
  .sort((a, b) => draw(a.f) - draw(b.f));
const set: Photo[] = [];
for (const { d, f } of files) {
  if (n > 0 && set.length >= n) break;
  const p = await photoAt(join(d, f), f);
  if (p) set.push(p);
}
if (!set.length) {
  out(`No photos of ${lo}-${hi} MP in ${dirs.join(', ') || '(no folder given)'}.`);
  process.exit(0);
}
const mps = set.map((p) => p.mp);
out(
  `${set.length} photos (${lo}-${hi} MP${fit ? ', larger ones fitted' : ''}): ${pct(mps, 0).toFixed(2)}-${Math.max(...mps).toFixed(2)} MP, median ${pct(mps, 50).toFixed(2)}`,
);

if (stageRuns > 0) await printStages(set, stageRuns, set.length > 20);
if (argv.includes('--stages-only')) process.exit(0);

const app = await benchApp();
const first = await app.preview(set[0]?.bytes as Buffer); // starts the workers
out(
  `first preview after start (worker start-up included): ${first.ms.toFixed(0)} ms, status ${first.status}`,
);
const times: number[] = [];
const cpus: number[] = [];
const statuses = new Map<number, number>();
for (const p of set) {
  const c0 = process.cpuUsage();
  const r = await app.preview(p.bytes);
  const c = process.cpuUsage(c0);
  times.push(r.ms);
  cpus.push((c.user + c.system) / 1000);
  statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
}
out(
  `sequential previews (${set.length}): p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms; statuses ${[...statuses].map(([s, k]) => `${s}×${k}`).join(' ')}`,
);
// CPU of the whole process (all threads) per preview: what one preview costs on an idle machine.
out(
  `  CPU per preview: p50 ${pct(cpus, 50).toFixed(0)} ms, p95 ${pct(cpus, 95).toFixed(0)} ms; load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
);
if (rssRuns > 0) {
  const rss0 = rssMb();
  let peak = rss0;
  let failed = 0;
  const series = [rss0];
  for (let i = 0; i < rssRuns; i++) {
    const r = await app.preview(set[i % set.length]?.bytes as Buffer);
    if (r.status !== 200 && r.status !== 422) failed++;
    peak = Math.max(peak, rssMb());
    if ((i + 1) % 20 === 0) series.push(rssMb());
  }
  out(
    `RSS over ${rssRuns} previews: start ${rss0} MB, peak ${peak} MB, end ${rssMb()} MB; failures ${failed}`,
  );
  out(`  RSS every 20 previews: ${series.join(' ')} MB; load average ${loadavg()[0]?.toFixed(1)}`);
}
await app.close();
