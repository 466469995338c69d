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
