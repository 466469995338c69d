import { openPdf } from '../../src/lib/pdfjs.js';

/**
 * A PDF's text, items in reading order, any run of white space (Intl's narrow and non-breaking
 * spaces included) as one space: lines wrap where the layout says, so tests compare words. With
 * its page count and the first page's size in points.
 */
export async function pdfPages(bytes: Buffer): Promise<{ pages: number; text: string; size: number[] }> {
  const doc = await openPdf(new Uint8Array(bytes));
  const parts: string[] = [];
  let size: number[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    if (n === 1) size = page.view.slice(2).map(Math.round);
    const content = await page.getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : ' ');
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, size, text: parts.join('').replace(/[\s\u00a0\u202f]+/g, ' ') };
}

/** As pdfPages, the text alone. */
export const pdfText = async (bytes: Buffer): Promise<string> => (await pdfPages(bytes)).text;
