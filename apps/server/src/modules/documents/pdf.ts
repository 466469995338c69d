import { inflateSync } from 'node:zlib';
import { AppError } from '../../lib/errors.js';

/** A PDF by its first bytes (`%PDF-`); names and Content-Type headers are never trusted. */
export const isPdf = (bytes: Buffer) => bytes.length >= 5 && bytes.toString('latin1', 0, 5) === '%PDF-';

/** What one inflated stream may grow to while it is searched (a deflate bomb stops there). */
const INFLATE_LIMIT = 32 * 1024 * 1024;

/**
 * Refuses a PDF that is encrypted (a `/Encrypt` dictionary: the app could not show it offline, nor
 * anyone check it) or that carries JavaScript (`/JS`, `/JavaScript` actions), in its plain text or
 * in its compressed streams (object streams hide dictionaries there). Names written with `#xx`
 * escapes (`/J#61vaScript`) are read as the name they spell. Throws 415 with the reason.
 */
export function assertSafePdf(bytes: Buffer): void {
  const texts = [bytes.toString('latin1')];
  for (const stream of flateStreams(bytes)) texts.push(stream.toString('latin1'));
  for (const raw of texts) {
    const text = raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (/\/Encrypt\b/.test(text))
      throw new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'This PDF is encrypted (password-protected). Save it without a password and upload it again.',
        [{ field: 'files', message: 'Encrypted PDF.' }],
      );
    if (/\/(JS|JavaScript)(?![A-Za-z0-9])/.test(text))
      throw new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'This PDF contains JavaScript, which is not accepted. Print it to a new PDF or upload a photo of it.',
        [{ field: 'files', message: 'PDF with JavaScript.' }],
      );
  }
}

/** The inflated bytes of each `stream … endstream` that inflates (others are skipped). */
function* flateStreams(bytes: Buffer): Generator<Buffer> {
  let from = 0;
  for (;;) {
    const start = bytes.indexOf('stream', from, 'latin1');
    if (start < 0) return;
    let body = start + 6;
    if (bytes[body] === 0x0d) body += 1;
    if (bytes[body] === 0x0a) body += 1;
    const end = bytes.indexOf('endstream', body, 'latin1');
    if (end < 0) return;
    from = end + 9;
    // "endstream" itself contains "stream": only a start not preceded by "end" opens one.
    if (start >= 3 && bytes.toString('latin1', start - 3, start) === 'end') continue;
    try {
      yield inflateSync(bytes.subarray(body, end), { maxOutputLength: INFLATE_LIMIT });
    } catch {
      // not a deflate stream (an image, plain text): its bytes were searched with the file's
    }
  }
}
