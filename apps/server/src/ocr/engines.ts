import { PaddlePool } from './paddle-pool.js';
import { type OcrEngine, OcrPool } from './pool.js';

export type EngineName = 'paddle' | 'tesseract';

/** OCR_ENGINE=tesseract keeps the former engine (for comparisons); PaddleOCR otherwise. */
export function engineName(env: NodeJS.ProcessEnv = process.env): EngineName {
  return env.OCR_ENGINE === 'tesseract' ? 'tesseract' : 'paddle';
}

/**
 * The receipt reader. Neither engine loads anything here: the first receipt starts it.
 * `workers` is tesseract's worker count; Paddle runs one worker whose ONNX Runtime uses the cores.
 */
export function createOcrEngine(
  o: { workers?: number; maxQueue?: number; name?: EngineName } = {},
): OcrEngine {
  const name = o.name ?? engineName();
  if (name === 'tesseract') return new OcrPool({ size: o.workers, maxQueue: o.maxQueue });
  return new PaddlePool({ maxQueue: o.maxQueue });
}
