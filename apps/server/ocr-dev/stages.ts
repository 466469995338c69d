/**
 * Where a preview's time goes: each photo read `runs` times through preprocessing and the PaddleOCR
 * engine directly (no HTTP), with the CPU of each stage (the worker reports its own), the boxes found
 * and the recogniser's columns (all, those holding text, those of date re-reads). For bench.ts and
 * bench-photos.ts (--stages).
 */
import { loadavg } from 'node:os';
import { createOcrEngine } from '../src/ocr/engines.js';
import { prepareImage } from '../src/ocr/image/preprocess.js';
import { pct } from './bench-app.js';

const out = (s: string) => process.stdout.write(`${s}\n`);
const COUNTS = new Set(['boxes', 'recCols', 'recTextCols', 'rereadCols']);

export async function printStages(photos: { name: string; bytes: Buffer }[], runs: number, quiet = false) {
  const engine = createOcrEngine({ name: 'paddle' });
  const w0 = performance.now();
  const wc0 = process.cpuUsage();
  await engine.warmUp();
  const wc = process.cpuUsage(wc0);
  // The cold start a first receipt pays on top of its own reading: worker start, models rewritten and loaded.
  out(
    `  worker start + models loaded: ${(performance.now() - w0).toFixed(0)} ms, CPU ${((wc.user + wc.system) / 1000).toFixed(0)} ms`,
  );
  const all = new Map<string, number[]>();
  const add = (k: string, v: number) => all.set(k, [...(all.get(k) ?? []), v]);
  for (let i = 0; i < runs; i++)
    for (const p of photos) {
      const stages: Record<string, number> = {};
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const prepared = await prepareImage(p.bytes, stages);
      const t1 = performance.now();
      const r = (await engine.recognize(prepared)) as { timing?: Record<string, number | string> };
      const t2 = performance.now();
      const c = process.cpuUsage(c0);
      for (const [k, v] of Object.entries(stages)) add(`main: ${k}`, v);
      add('WALL preprocess', t1 - t0);
      let inWorker = 0;
      for (const [k, v] of Object.entries(r.timing ?? {}))
        if (typeof v === 'number' && !COUNTS.has(k)) {
          add(`worker: ${k}`, v);
          inWorker += v;
        }
      add(
        'main→worker→main (CPU outside worker stages)',
        (c.user + c.system) / 1000 - inWorker - Object.values(stages).reduce((a, b) => a + b, 0),
      );
      for (const k of COUNTS) add(k, Number(r.timing?.[k] ?? 0));
      add('WALL total', t2 - t0);
      add('CPU total (all threads)', (c.user + c.system) / 1000);
      if (i === 0 && !quiet)
        out(
          `  ${p.name}: ${p.bytes.length} bytes, ${r.timing?.size}, ${r.timing?.boxes} boxes, ${r.timing?.recCols} cols, ${(t2 - t0).toFixed(0)} ms`,
        );
    }
  out(
    `stages over ${runs} × ${photos.length} photos (CPU ms of the process per stage, except WALL; median, p95), load ${loadavg()[0]?.toFixed(1)}:`,
  );
  for (const [k, v] of all)
    out(`  ${k.padEnd(46)} ${pct(v, 50).toFixed(0).padStart(6)} ${pct(v, 95).toFixed(0).padStart(6)}`);
  await engine.close();
}
