/**
 * Writes the OCR development set: N receipts per kind × language, photographed in several styles,
 * to apps/server/ocr-dev/out (git-ignored) with out/labels.json. Deterministic.
 *   node --import tsx apps/server/ocr-dev/generate.ts [perCombo=10]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PhotoStyle, photograph } from './photo.js';
import { type Kind, type Label, type Lang, makeReceipt, receiptPdf, receiptSvg } from './receipts.js';

export const KINDS: Kind[] = ['fuel', 'expense', 'revision', 'insurance'];
export const LANGS: Lang[] = ['en', 'ro', 'es'];
const STYLES: PhotoStyle[] = [
  'scan',
  'photo',
  'photo',
  'photo',
  'hard',
  'photo',
  'hard',
  '12mp',
  'photo',
  '12mp',
];

export type Entry = { file: string; kind: Kind; lang: Lang; style: string; label: Label };

const out = join(import.meta.dirname, 'out');
const perCombo = Number(process.argv[2] ?? 10);
mkdirSync(out, { recursive: true });
const entries: Entry[] = [];
let seed = 1;
for (const kind of KINDS)
  for (const lang of LANGS)
    for (let i = 0; i < perCombo; i++) {
      seed++;
      const rc = makeReceipt(kind, lang, seed);
      const pdf = (kind === 'insurance' || kind === 'revision') && i === perCombo - 1;
      const style = pdf ? 'pdf' : (STYLES[i % STYLES.length] as PhotoStyle);
      const file = `${kind}-${lang}-${String(i).padStart(2, '0')}.${pdf ? 'pdf' : 'jpg'}`;
      // Deterministic: a file already there is the same image, so it is kept.
      if (!existsSync(join(out, file))) {
        const bytes = pdf ? receiptPdf(rc) : await photograph(receiptSvg(rc, seed).svg, seed, style);
        writeFileSync(join(out, file), bytes);
      }
      entries.push({ file, kind, lang, style, label: rc.label });
    }
writeFileSync(join(out, 'labels.json'), `${JSON.stringify(entries, null, 1)}\n`);
process.stdout.write(`${entries.length} receipts in ${out}\n`);
