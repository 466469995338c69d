/** A receipt's bytes → its text lines: a PDF's text layer, or the image through preprocessing and the OCR engine. */
import { sniffImage } from '../files/images.js';
import { AppError } from '../lib/errors.js';
import { readPdf } from './image/pdf.js';
import { prepareImage, UnreadableImageError } from './image/preprocess.js';
import { type Line, toLines } from './text/lines.js';
import type { GrayImage, OcrEngine } from './worker-pool.js';

export type ReceiptText = {
  lines: Line[];
  source: 'ocr' | 'pdf-text';
  /** A photo's prepared page, which the lines' boxes are on (a region may be read again). */
  page?: GrayImage;
};

export const isPdf = (b: Buffer) => b.length > 5 && b.toString('latin1', 0, 5) === '%PDF-';

const unreadable = (why: string) =>
  new AppError(422, 'UNREADABLE_RECEIPT', `The receipt could not be read: ${why}`);

/**
 * The receipt's text lines with a confidence each: a PDF's text layer as is (confidence 1), images
 * and text-less PDF pages through preprocessing and the OCR pool. 415 for anything but JPEG, PNG,
 * WebP or PDF (by magic bytes), 422 for a file that cannot be decoded or holds no text.
 */
export async function readReceipt(bytes: Buffer, pool: OcrEngine): Promise<ReceiptText> {
  const pdf = isPdf(bytes);
  if (!pdf && !sniffImage(bytes)) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send a JPEG, PNG or WebP photo, or a PDF.');
  }
  const ocr = async (image: Buffer) => {
    let prepared: GrayImage;
    try {
      prepared = await prepareImage(image);
    } catch (err) {
      if (err instanceof UnreadableImageError) throw unreadable(err.message);
      throw unreadable('the image could not be decoded.');
    }
    const r = await pool.recognize(prepared);
    return { lines: toLines(r.text, r.lines.length ? r.lines : undefined), page: prepared };
  };
  if (!pdf) {
    const { lines, page } = await ocr(bytes);
    if (lines.length === 0) throw unreadable('no text was found in the image.');
    return { lines, source: 'ocr', page };
  }
  let pages: Awaited<ReturnType<typeof readPdf>>;
  try {
    pages = await readPdf(bytes);
  } catch {
    throw unreadable('the PDF could not be opened.');
  }
  const parts: { text: string; confidence: number }[] = [];
  let scanned = false;
  for (const page of pages) {
    if ('text' in page) for (const text of page.text.split('\n')) parts.push({ text, confidence: 1 });
    else {
      scanned = true;
      for (const l of (await ocr(page.image)).lines) parts.push({ text: l.text, confidence: l.confidence });
    }
  }
  const lines = toLines('', parts);
  if (lines.length === 0) throw unreadable('no text was found in the PDF.');
  return { lines, source: scanned ? 'ocr' : 'pdf-text' };
}
