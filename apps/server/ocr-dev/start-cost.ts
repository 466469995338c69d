/**
 * The cost of readying the PaddleOCR engine (worker thread, models rewritten or read from the
 * model cache, ONNX sessions created), each start in a fresh process:
 *   - no cache (OCR_MODEL_CACHE=0): the models rewritten in memory at every start, as before the cache;
 *   - cold: a fresh cache directory, the start rewrites the models and writes them there;
 *   - warm: the directory the cold start filled;
 *   - not rewritten (OCR_FUSE=0): the model files as they are, for reference.
 *   node --import tsx apps/server/ocr-dev/start-cost.ts [--runs 5]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOcrEngine } from '../src/ocr/engines.js';

const args = process.argv.slice(2);
if (args.includes('--once')) {
  const engine = createOcrEngine({ name: 'paddle' });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await engine.warmUp();
  const ms = performance.now() - t0;
  // CPU of the whole process (the worker thread's included): what a start costs on a busy machine.
  const c = process.cpuUsage(c0);
  await engine.close();
  process.stdout.write(`${ms.toFixed(0)} ${((c.user + c.system) / 1000).toFixed(0)}\n`);
  process.exit(0);
}

const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;
/** One start in a fresh process: wall ms and CPU ms. */
const once = (env: Record<string, string>) => {
  const [wall = 0, cpu = 0] = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--once'],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  )
    .trim()
    .split(' ')
    .map(Number);
  return { wall, cpu };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
type Start = { wall: number; cpu: number };
const none: Start[] = [];
const cold: Start[] = [];
const warm: Start[] = [];
const plain: Start[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-ocr-start-'));
  none.push(once({ OCR_MODEL_CACHE: '0' }));
  cold.push(once({ OCR_MODEL_CACHE: dir }));
  warm.push(once({ OCR_MODEL_CACHE: dir }));
  plain.push(once({ OCR_FUSE: '0' }));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs: Start[]) =>
  `wall median ${median(xs.map((x) => x.wall))} ms, CPU median ${median(xs.map((x) => x.cpu))} ms  (wall ${xs.map((x) => x.wall).join(', ')})`;
process.stdout.write(`engine ready, no model cache (rewrite at every start): ${fmt(none)}\n`);
process.stdout.write(`engine ready, cold model cache (rewrite + write):      ${fmt(cold)}\n`);
process.stdout.write(`engine ready, warm model cache:                         ${fmt(warm)}\n`);
process.stdout.write(`engine ready, models not rewritten (OCR_FUSE=0):       ${fmt(plain)}\n`);
