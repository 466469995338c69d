import { PHOTO_JPEG_QUALITY, PHOTO_MAX_HEIGHT, PHOTO_MAX_WIDTH } from '@evdra/domain';
import { AppError } from '../lib/errors.js';

export type ImageKind = 'jpeg' | 'png' | 'webp';

/** The image type by its first bytes; names and Content-Type headers are never trusted. */
export function sniffImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return undefined;
}

// Refuse decompression bombs: 50 megapixels is beyond any phone photo.
const PIXEL_LIMIT = 50_000_000;

/**
 * Re-encodes an uploaded photo as a JPEG that fits 600×400 keeping proportions. Re-encoding drops
 * every metadata block (EXIF, GPS, XMP); orientation is applied to the pixels first.
 */
export async function normalizePhoto(bytes: Buffer): Promise<Buffer> {
  if (!sniffImage(bytes)) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only JPEG, PNG or WebP images are accepted.');
  }
  // Loaded on the first photo, not at start-up.
  const { default: sharp } = await import('sharp');
  try {
    return await sharp(bytes, { limitInputPixels: PIXEL_LIMIT, failOn: 'error' })
      .rotate()
      .resize(PHOTO_MAX_WIDTH, PHOTO_MAX_HEIGHT, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: Math.round(PHOTO_JPEG_QUALITY * 100), mozjpeg: true })
      .toBuffer();
  } catch {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The image could not be read.');
  }
}

/** A document page stays legible: up to 2400 px on its longer side (an A4 scan at ~200 dpi). */
export const DOCUMENT_PAGE_MAX_SIDE = 2400;
/** The list's preview of a document's first page. */
export const DOCUMENT_PREVIEW_MAX_SIDE = 320;

/**
 * Re-encodes a photographed document page as vehicle photos are (orientation applied, every
 * metadata block dropped), at a size that keeps small print readable, and makes its preview.
 */
export async function normalizeDocumentPage(bytes: Buffer): Promise<{ page: Buffer; preview: Buffer }> {
  if (!sniffImage(bytes)) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only JPEG, PNG or WebP images or a PDF are accepted.');
  }
  const { default: sharp } = await import('sharp');
  try {
    // Plain libjpeg for the page: mozjpeg's smaller file costs several times the CPU at this size.
    const page = await sharp(bytes, { limitInputPixels: PIXEL_LIMIT, failOn: 'error' })
      .rotate()
      .resize(DOCUMENT_PAGE_MAX_SIDE, DOCUMENT_PAGE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    const preview = await sharp(page)
      .resize(DOCUMENT_PREVIEW_MAX_SIDE, DOCUMENT_PREVIEW_MAX_SIDE, {
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality: 70, mozjpeg: true })
      .toBuffer();
    return { page, preview };
  } catch {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The image could not be read.');
  }
}
