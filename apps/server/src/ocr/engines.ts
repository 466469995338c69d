/** The engine that reads receipt images: PaddleOCR or tesseract, by configuration (OCR_ENGINE). */
import { PaddlePool } from './engines/paddle-pool.js';
import { OcrPool } from './engines/tesseract-pool.js';
import type { OcrEngine } from './worker-pool.js';

export type EngineName = 'paddle' | 'tesseract';

/**
 * The receipt reader (OCR_ENGINE, see config.ts). Neither engine loads anything here: the first
 * receipt starts it. `workers` is tesseract's worker count; Paddle runs one worker whose ONNX
 * Runtime uses the cores.
 */
export function createOcrEngine(o: { name: EngineName; workers?: number; maxQueue?: number }): OcrEngine {
  if (o.name === 'tesseract') return new OcrPool({ size: o.workers, maxQueue: o.maxQueue });
  return new PaddlePool({ maxQueue: o.maxQueue });
}

/**
 * What reads again a photo's row whose € or £ PaddleOCR cannot read (currency-reread.ts): one
 * tesseract worker with the English model only (it has both signs), started with the first preview.
 * None for the tesseract engine (it reads both itself) or with no time for it (OCR_CURRENCY_REREAD_MS=0).
 */
export function createCurrencyReader(engine: EngineName, budgetMs: number): OcrEngine | undefined {
  if (engine !== 'paddle' || budgetMs <= 0) return undefined;
  // A few small images a preview: a worker lives long, and a full queue skips the re-read.
  return new OcrPool({ size: 1, langs: ['eng'], recycleAfter: 500, maxQueue: 8 });
}
