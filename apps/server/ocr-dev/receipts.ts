/**
 * Synthetic receipts for the OCR development set: fuel, expense, service (revision) and insurance
 * documents in English, Romanian and Spanish, with the true field values as a label. Till slips
 * (slips.ts) and multi-section A4 documents (documents.ts) are rendered here as SVG in one of several
 * fonts and widths, thermal slips faded and streaked, then "photographed" in photo.ts.
 */

import { insurance, revision } from './documents.js';
import { type Lang, rng } from './format.js';
import { expense, fuel } from './slips.js';
import type { Kind, Receipt } from './types.js';

export type { Lang } from './format.js';
export { rng } from './format.js';
export type { Kind, Label, Line, Receipt } from './types.js';

export function makeReceipt(kind: Kind, lang: Lang, seed: number): Receipt {
  const r = rng(seed);
  return { fuel, expense, revision, insurance }[kind](r, lang);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SLIP_FONTS = [
  'DejaVu Sans Mono',
  'DejaVu Sans Mono',
  'Liberation Mono',
  'DejaVu Sans',
  'DejaVu Sans Condensed',
  'Liberation Sans Narrow',
  'Liberation Sans',
];
const A4_FONTS = [
  'Liberation Sans',
  'DejaVu Sans',
  'Liberation Serif',
  'DejaVu Serif',
  'DejaVu Sans Condensed',
];

/**
 * The receipt as an SVG sheet: a 58 or 80 mm thermal slip (narrow or wide, monospace or sans,
 * print that fades along the paper and with lighter streaks where the print head wore) or an A4 page.
 */
export function receiptSvg(rc: Receipt, seed: number): { svg: string; width: number; height: number } {
  const r = rng(seed * 7 + 1);
  const a4 = rc.format === 'a4';
  const font = r.pick(a4 ? A4_FONTS : SLIP_FONTS);
  const mono = font.includes('Mono');
  const width = a4 ? 1240 : r.pick([560, 640, 760, 840, 900]);
  const margin = a4 ? r.int(90, 120) : r.int(24, 44);
  const textW = width - 2 * margin;
  // The longest line must fit: a narrow slip gets a smaller font.
  const longest = Math.max(
    ...rc.lines.map((l) =>
      l.cols ? l.cols.join('    ').length : l.text.length + (l.pair ? l.pair.length + 3 : 0),
    ),
  );
  const advance = mono ? 0.6 : font.includes('Narrow') || font.includes('Condensed') ? 0.48 : 0.56;
  const size = Math.max(
    16,
    Math.min(a4 ? r.int(22, 26) : r.int(24, 32), Math.floor(textW / (longest * advance))),
  );
  const lh = Math.round(size * (a4 ? 1.55 : 1.4 + r.next() * 0.15));
  const paper = a4 ? r.pick(['#ffffff', '#fdfdfb']) : r.pick(['#ffffff', '#fbfaf5', '#f6f4ee', '#f3f1ea']);
  // Thermal print fades: lighter ink, fading further along the slip, sometimes grey-violet.
  const fade = a4 ? 0 : r.pick([0, 0, 0.25, 0.4, 0.55]);
  const ink = a4 ? r.pick(['#111111', '#1a1a2a']) : r.pick(['#111111', '#222222', '#2b2b3a', '#3a3448']);
  let y = margin;
  const out: string[] = [];
  for (const l of rc.lines) {
    const s = Math.round(size * (l.scale ?? 1));
    y += Math.round(lh * (l.scale ?? 1) * (l.heading ? 1.2 : 1));
    const opacity = fade ? (1 - fade * (0.4 + 0.6 * (y / 3000)) * (0.7 + 0.3 * r.next())).toFixed(2) : '1';
    const common = `font-family="${font}" font-size="${s}" font-weight="${l.bold || l.heading ? 'bold' : 'normal'}" fill="${ink}" fill-opacity="${opacity}"`;
    if (l.rule) {
      out.push(
        `<line x1="${margin}" y1="${y - s / 3}" x2="${width - margin}" y2="${y - s / 3}" stroke="${ink}" stroke-opacity="${opacity}" stroke-width="2" stroke-dasharray="${mono ? '8 6' : '0'}"/>`,
      );
      continue;
    }
    if (l.heading) {
      out.push(
        `<rect x="${margin - 10}" y="${y - s * 1.1}" width="${textW + 20}" height="${s * 1.5}" fill="#e4e4e4"/>`,
      );
      out.push(`<text x="${margin}" y="${y}" ${common}>${esc(l.text)}</text>`);
      continue;
    }
    if (l.cols) {
      const cols = l.cols;
      const at = l.at ?? cols.map((_, i) => i / cols.length);
      cols.forEach((c, i) => {
        const from = margin + textW * (at[i] ?? 0);
        const to = margin + textW * (at[i + 1] ?? 1) - (i + 1 < cols.length ? size * 0.8 : 0);
        const right = i > 0 && !l.leftAll;
        out.push(
          `<text x="${right ? to : from}" y="${y}" text-anchor="${right ? 'end' : 'start'}" ${common}>${esc(c)}</text>`,
        );
      });
      continue;
    }
    if (l.pair !== undefined) {
      out.push(`<text x="${margin}" y="${y}" ${common}>${esc(l.text)}</text>`);
      out.push(`<text x="${width - margin}" y="${y}" text-anchor="end" ${common}>${esc(l.pair)}</text>`);
      continue;
    }
    const [x, anchor] =
      l.align === 'center'
        ? [width / 2, 'middle']
        : l.align === 'right'
          ? [width - margin, 'end']
          : [margin, 'start'];
    out.push(`<text x="${x}" y="${y}" text-anchor="${anchor}" ${common}>${esc(l.text)}</text>`);
  }
  const height = a4 ? Math.max(1754, y + margin * 2) : y + margin + lh;
  // Print-head wear: a few vertical bands where the ink is lighter.
  const streaks =
    fade && r.chance(0.6)
      ? Array.from({ length: r.int(1, 3) }, () => {
          const x = r.int(margin, width - margin);
          return `<rect x="${x}" y="0" width="${r.int(3, 14)}" height="${height}" fill="${paper}" fill-opacity="${(0.35 + r.next() * 0.35).toFixed(2)}"/>`;
        }).join('')
      : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${paper}"/>${out.join('')}${streaks}</svg>`;
  return { svg, width, height };
}

/** A one-page PDF with a real text layer (Helvetica, WinAnsi), written by hand: no dependency. */
export function receiptPdf(rc: Receipt): Buffer {
  const ops: string[] = ['BT', '/F1 11 Tf', '14 TL', '60 780 Td'];
  const winAnsi = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, (m) => m)
      .normalize('NFC')
      .replace(/[ȘșŞş]/g, (c) => (c === c.toUpperCase() ? 'S' : 's'))
      .replace(/[ȚțŢţ]/g, (c) => (c === c.toUpperCase() ? 'T' : 't'))
      .replace(/[Ăă]/g, (c) => (c === 'Ă' ? 'A' : 'a'))
      .replace(/€/g, 'EUR')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  for (const l of rc.lines) {
    const text = l.cols ? l.cols.join('   ') : l.pair !== undefined ? `${l.text}: ${l.pair}` : l.text;
    ops.push(`(${winAnsi(text)}) '`);
  }
  ops.push('ET');
  const stream = Buffer.from(ops.join('\n'), 'latin1');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream.toString('latin1')}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
