/**
 * Writes the receipt photos of the OCR currency tests (issue 50) to
 * apps/server/test/fixtures/receipts/currency: a euro and a pound receipt whose only currency mark is
 * the sign beside the total (PaddleOCR's character set has neither), and two that print an exchange
 * rate (a card slip abroad, a lei invoice with the euro rate). Run once; the output is committed.
 *   node --import tsx apps/server/ocr-dev/currency-fixtures.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { photograph } from './photo.js';
import { receiptSvg } from './receipts.js';
import type { Kind, Line, Receipt } from './types.js';

const out = join(import.meta.dirname, '..', 'test', 'fixtures', 'receipts', 'currency');
mkdirSync(out, { recursive: true });

const receipts: { file: string; kind: Kind; lang: Receipt['lang']; seed: number; lines: Line[] }[] = [
  {
    file: 'parking-eur-sign.jpg',
    kind: 'expense',
    lang: 'es',
    seed: 501,
    lines: [
      { text: 'APARCAMIENTO PLAZA MAYOR', align: 'center', bold: true },
      { text: 'Fecha 12/03/2025  10:42' },
      { text: 'Estancia 2h 15min', pair: '6,40 €' },
      { text: 'TOTAL', pair: '6,40 €', bold: true },
      { text: 'Tarjeta', pair: '6,40' },
      { text: 'Gracias por su visita', align: 'center' },
    ],
  },
  {
    file: 'fuel-gbp-sign.jpg',
    kind: 'fuel',
    lang: 'en',
    seed: 502,
    lines: [
      { text: 'SHELL KINGS CROSS', align: 'center', bold: true },
      { text: 'Date 14/03/2025  08:15' },
      { text: 'Pump 4  Unleaded' },
      { text: '32.15 L x 1.459', pair: '£46.91' },
      { text: 'TOTAL', pair: '£46.91', bold: true },
      { text: 'VISA', pair: '46.91' },
      { text: 'Thank you', align: 'center' },
    ],
  },
  {
    file: 'parking-huf-rate.jpg',
    kind: 'expense',
    lang: 'en',
    seed: 503,
    lines: [
      { text: 'BUDAPEST PARKING', align: 'center', bold: true },
      { text: 'Date 14/03/2025  16:05' },
      { text: 'Parking 3h', pair: '2.500 Ft' },
      { text: 'TOTAL', pair: '2.500 Ft', bold: true },
      { text: 'Exchange rate 1 HUF = 0.0127 RON' },
      { text: 'Thank you', align: 'center' },
    ],
  },
  {
    file: 'service-ron-rate.jpg',
    kind: 'revision',
    lang: 'ro',
    seed: 504,
    lines: [
      { text: 'AUTO SERVICE SRL', align: 'center', bold: true },
      { text: 'Data 14.03.2025' },
      { text: 'Schimb ulei si filtre', pair: '248,75' },
      { text: 'TOTAL', pair: '248,75 LEI', bold: true },
      { text: 'Curs BNR 1 EUR = 4,9750 RON' },
      { text: 'Va multumim', align: 'center' },
    ],
  },
];

for (const rc of receipts) {
  const receipt: Receipt = { kind: rc.kind, lang: rc.lang, format: 'slip', lines: rc.lines, label: {} };
  const shot = await photograph(receiptSvg(receipt, rc.seed).svg, rc.seed, 'photo');
  const bytes = await sharp(shot)
    .rotate()
    .resize(900, 1100, { fit: 'inside' })
    .jpeg({ quality: 72 })
    .toBuffer();
  writeFileSync(join(out, rc.file), bytes);
  process.stdout.write(`${rc.file} ${bytes.length} bytes\n`);
}
