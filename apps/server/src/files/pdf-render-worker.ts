import { parentPort } from 'node:worker_threads';
import { openPdf } from '../lib/pdfjs.js';

/**
 * The PDF rendering thread (pdf-render-thread.ts starts it): draws a PDF's first page with pdf.js
 * onto an @napi-rs/canvas and answers it as a JPEG, off the server's event loop. One page at a time.
 */
export type RenderRequest = { id: number; bytes: Uint8Array; maxSide: number; quality: number };
export type RenderReply = { id: number; image: Uint8Array } | { id: number; failed: string };

/** The largest image inside a PDF pdf.js decodes, in pixels (a 600 dpi A4 scan is 35 M): a bigger one is skipped. */
const MAX_IMAGE_PIXELS = 40_000_000;
/** A page a few millimetres wide is not drawn hundreds of times larger than it is. */
const MAX_SCALE = 8;

async function renderFirstPage({ bytes, maxSide, quality }: RenderRequest): Promise<Uint8Array> {
  const doc = await openPdf(bytes, { maxImageSize: MAX_IMAGE_PIXELS });
  try {
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(maxSide / Math.max(natural.width, natural.height), MAX_SCALE);
    const viewport = page.getViewport({ scale });
    const factory = doc.canvasFactory as {
      create(
        w: number,
        h: number,
      ): { canvas: { toBuffer(type: 'image/jpeg', quality: number): Buffer }; context: unknown };
    };
    const { canvas, context } = factory.create(
      Math.max(1, Math.round(viewport.width)),
      Math.max(1, Math.round(viewport.height)),
    );
    // A white sheet under the page: transparent areas would turn black in a JPEG.
    await page.render({ canvasContext: context as never, viewport, background: '#ffffff' } as never).promise;
    return canvas.toBuffer('image/jpeg', quality);
  } finally {
    await doc.destroy();
  }
}

parentPort?.on('message', async (request: RenderRequest) => {
  try {
    const image = await renderFirstPage(request);
    parentPort?.postMessage({ id: request.id, image } satisfies RenderReply);
  } catch (err) {
    parentPort?.postMessage({
      id: request.id,
      failed: String((err as Error)?.message ?? err),
    } satisfies RenderReply);
  }
});
