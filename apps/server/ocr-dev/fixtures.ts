/**
 * Writes the few small receipt fixtures the API tests read (apps/server/test/fixtures/receipts),
 * with their labels. Run once; the output is committed (about 50–90 KB per photo).
 *   node --import tsx apps/server/ocr-dev/fixtures.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { photograph } from './photo.js';
import { type Kind, type Lang, makeReceipt, receiptPdf, receiptSvg } from './receipts.js';

const out = join(import.meta.dirname, '..', 'test', 'fixtures', 'receipts');
mkdirSync(out, { recursive: true });

/** A one-page PDF whose only content is a JPEG (a scan): no text layer. */
function imagePdf(jpeg: Buffer, w: number, h: number): Buffer {
  const pw = 595;
  const ph = Math.round((595 * h) / w);
  const content = Buffer.from(`q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q`, 'latin1');
  const objs: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>`,
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      ),
      jpeg,
      Buffer.from('\nendstream'),
    ]),
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let size = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(size);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
    chunks.push(b);
    size += b.length;
  });
  let tail = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) tail += `${String(off).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  chunks.push(Buffer.from(tail));
  return Buffer.concat(chunks);
}

const picks: { kind: Kind; lang: Lang; seed: number; as: 'photo' | 'sideways' | 'pdf' | 'scan-pdf' }[] = [
  { kind: 'fuel', lang: 'en', seed: 9006, as: 'photo' },
  { kind: 'fuel', lang: 'ro', seed: 9006, as: 'sideways' },
  { kind: 'fuel', lang: 'es', seed: 9014, as: 'photo' },
  { kind: 'expense', lang: 'ro', seed: 9004, as: 'photo' },
  { kind: 'revision', lang: 'es', seed: 9005, as: 'scan-pdf' },
  { kind: 'revision', lang: 'en', seed: 9008, as: 'photo' },
  { kind: 'insurance', lang: 'en', seed: 9006, as: 'photo' },
  { kind: 'insurance', lang: 'ro', seed: 9007, as: 'pdf' },
];
const labels: Record<string, unknown> = {};
for (const p of picks) {
  const rc = makeReceipt(p.kind, p.lang, p.seed);
  const name = `${p.kind}-${p.lang}.${p.as.endsWith('pdf') ? 'pdf' : 'jpg'}`;
  let bytes: Buffer;
  if (p.as === 'pdf') bytes = receiptPdf(rc);
  else {
    const shot = await photograph(receiptSvg(rc, p.seed).svg, p.seed, 'photo');
    const small = sharp(shot).rotate().resize(900, 1100, { fit: 'inside' });
    if (p.as === 'sideways') {
      const raw = await small.rotate(-90).jpeg({ quality: 72 }).toBuffer();
      bytes = await sharp(raw).withMetadata({ orientation: 6 }).jpeg({ quality: 72 }).toBuffer();
    } else if (p.as === 'scan-pdf') {
      const { data, info } = await small
        .flatten()
        .jpeg({ quality: 72 })
        .toBuffer({ resolveWithObject: true });
      bytes = imagePdf(data, info.width, info.height);
    } else bytes = await small.jpeg({ quality: 72 }).toBuffer();
  }
  writeFileSync(join(out, name), bytes);
  labels[name] = rc.label;
  process.stdout.write(`${name} ${bytes.length} bytes\n`);
}
writeFileSync(join(out, 'labels.json'), `${JSON.stringify(labels, null, 2)}\n`);
