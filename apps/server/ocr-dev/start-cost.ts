/**
 * The cost of readying the PaddleOCR engine (worker thread, models rewritten or read from the
 * model cache, ONNX sessions created), each start in a fresh process, cold and warm model cache.
 *   node --import tsx apps/server/ocr-dev/start-cost.ts [--runs 5]
 * Each run spawns `start-cost.ts --once` with OCR_MODEL_CACHE pointing at a fresh directory
 * (cold: the first start rewrites and writes the models) and then at the one it filled (warm).
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
  await engine.warmUp();
  const ms = performance.now() - t0;
  await engine.close();
  process.stdout.write(`${ms.toFixed(0)}\n`);
  process.exit(0);
}

const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;
const once = (env: Record<string, string>) =>
  Number(
    execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--once'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    }).trim(),
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-ocr-start-'));
  cold.push(once({ OCR_MODEL_CACHE: dir }));
  warm.push(once({ OCR_MODEL_CACHE: dir }));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs: number[]) => `median ${median(xs)} ms  (${xs.join(', ')})`;
process.stdout.write(`engine ready, cold model cache: ${fmt(cold)}\n`);
process.stdout.write(`engine ready, warm model cache: ${fmt(warm)}\n`);
