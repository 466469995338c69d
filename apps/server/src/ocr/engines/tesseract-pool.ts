/** The tesseract engine: tesseract.js workers with the local traineddata (eng, ron, spa). */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Worker } from 'tesseract.js';
import { type OcrImage, type OcrText, WorkerPool } from '../worker-pool.js';

export const OCR_LANGS = ['eng', 'ron', 'spa'] as const;

export type OcrPoolOptions = {
  /** Workers; default one per core, at most 4. */
  size?: number;
  /** A worker is replaced after this many jobs, so WASM heap growth never accumulates. */
  recycleAfter?: number;
  /** Jobs waiting beyond this are refused at once (OcrBusyError). */
  maxQueue?: number;
  langs?: readonly string[];
};

/**
 * A small tesseract.js worker pool with a FIFO queue. The trained data (eng, ron, spa, LSTM
 * "best_int") comes from the @tesseract.js-data npm packages: a temporary folder of symlinks
 * points at them because tesseract.js takes one langPath for all languages. Nothing is fetched
 * and nothing is cached to disk (cacheMethod 'none').
 */
export class OcrPool extends WorkerPool<Worker> {
  private langDir?: string;
  private readonly langs: readonly string[];

  constructor(o: OcrPoolOptions = {}) {
    super({
      size: o.size ?? Math.max(1, Math.min(4, availableParallelism())),
      recycleAfter: o.recycleAfter ?? 50,
      maxQueue: o.maxQueue ?? 64,
    });
    this.langs = o.langs ?? OCR_LANGS;
  }

  protected async spawn(): Promise<Worker> {
    this.langDir ??= linkTrainedData(this.langs);
    const { createWorker, OEM, PSM } = await import('tesseract.js'); // not at start-up
    const worker = await createWorker(this.langs.join('+'), OEM.LSTM_ONLY, {
      langPath: this.langDir,
      cacheMethod: 'none',
      gzip: true,
    });
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
      preserve_interword_spaces: '1',
      user_defined_dpi: '300',
    });
    return worker;
  }

  protected async read(worker: Worker, image: OcrImage): Promise<OcrText> {
    const { data } = await worker.recognize(await encoded(image), {}, { text: true, blocks: true });
    const lines: OcrText['lines'] = [];
    for (const b of data.blocks ?? [])
      for (const p of b.paragraphs)
        for (const l of p.lines)
          lines.push({ text: l.text.replace(/\n$/, ''), confidence: l.confidence / 100 });
    return { text: data.text, confidence: data.confidence / 100, lines };
  }

  protected stop(worker: Worker) {
    return worker.terminate();
  }

  protected override cleanUp() {
    if (this.langDir) rmSync(this.langDir, { recursive: true, force: true });
  }
}

/** Tesseract reads encoded images: a prepared page becomes a quickly compressed PNG. */
async function encoded(image: OcrImage): Promise<Buffer> {
  if (Buffer.isBuffer(image)) return image;
  const { default: sharp } = await import('sharp');
  const { data, width, height } = image;
  return sharp(data, { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

const require = createRequire(import.meta.url);

function linkTrainedData(langs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-tessdata-'));
  for (const lang of langs) {
    const pkg = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    symlinkSync(join(pkg, '4.0.0_best_int', `${lang}.traineddata.gz`), join(dir, `${lang}.traineddata.gz`));
  }
  return dir;
}
