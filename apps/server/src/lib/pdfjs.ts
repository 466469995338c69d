import { createRequire } from 'node:module';

/**
 * Opens a PDF with pdf.js (legacy build: Node) the one way this server reads untrusted PDFs: no eval,
 * no font faces or system fonts, quiet, the standard fonts from pdfjs-dist's own folder. Loaded on
 * first use: the server imports it only where PDFs are read.
 */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Options = Parameters<PdfJs['getDocument']>[0] & object;

let pdfjs: Promise<PdfJs> | undefined;
let fontDir: string | undefined;

export async function openPdf(bytes: Uint8Array, options: Partial<Options> = {}) {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  fontDir ??= `${createRequire(import.meta.url)
    .resolve('pdfjs-dist/package.json')
    .replace(/package\.json$/, '')}standard_fonts/`;
  return getDocument({
    data: bytes,
    useSystemFonts: false,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
    standardFontDataUrl: fontDir,
    ...options,
  }).promise;
}
