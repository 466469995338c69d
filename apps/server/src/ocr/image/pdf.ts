/** A PDF's pages: each page's text layer, or the page rendered as an image for the OCR. */
import { openPdf } from '../../lib/pdfjs.js';

export type PdfPage = { text: string } | { image: Buffer };

/** At most this many pages are read: a receipt or a policy is short. */
const MAX_PAGES = 5;

/**
 * Reads a PDF: each page's text layer as lines (items grouped by their baseline, left to right),
 * or, for a page without text (a scan saved as PDF), the page rendered to a PNG for OCR
 * (pdf.js with @napi-rs/canvas, at about 200 dpi).
 */
export async function readPdf(bytes: Buffer): Promise<PdfPage[]> {
  const doc = await openPdf(new Uint8Array(bytes));
  try {
    const pages: PdfPage[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const rows = new Map<number, { x: number; s: string }[]>();
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const y = Math.round(item.transform[5] / 3) * 3;
        const row = rows.get(y) ?? [];
        row.push({ x: item.transform[4], s: item.str });
        rows.set(y, row);
      }
      const text = [...rows.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, items]) =>
          items
            .sort((a, b) => a.x - b.x)
            .map((i) => i.s)
            .join('  '),
        )
        .join('\n');
      if (text.replace(/\s/g, '').length >= 20) {
        pages.push({ text });
        continue;
      }
      const viewport = page.getViewport({ scale: 200 / 72 });
      const factory = doc.canvasFactory as {
        create(w: number, h: number): { canvas: { toBuffer(type: string): Buffer }; context: unknown };
      };
      const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvasContext: context as never, viewport }).promise;
      pages.push({ image: canvas.toBuffer('image/png') });
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
