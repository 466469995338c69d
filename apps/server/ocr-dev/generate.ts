/**
 * Writes the OCR development set: N receipts per kind × language, each photographed its own way
 * (style and effects drawn from its seed), to apps/server/ocr-dev/out (git-ignored) with
 * out/labels.json. Deterministic from the seed: the same arguments give the same files everywhere.
 *   node --import tsx apps/server/ocr-dev/generate.ts [perCombo=10] [--seed 1] [--out <dir>] [--only insurance]
 *     [--count fuel=18,insurance=18]
 * --count gives some kinds more receipts per language than perCombo (the kinds being worked on); their
 * first perCombo receipts are the same files as without it.
 * --only makes one kind's receipts (the same files as in the whole set of that seed), e.g. a second
 * tuning set of the kind being worked on.
 * Receipt i of each kind × language (the number in its file name) with i % 3 === 2 is held out of
 * tuning: eval.ts reports it separately.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Entry, heldOut, KINDS, LANGS } from './dataset.js';
import { rng } from './format.js';
import { describeShot, effectsFor, type PhotoStyle, photograph } from './photo.js';
import { makeReceipt, receiptPdf, receiptSvg } from './receipts.js';

/** Bumped whenever receipts.ts, slips.ts, documents.ts or photo.ts change what they draw. */
const GENERATOR_VERSION = 5;
/**
 * Receipts from this index on (the kinds `--count` grows past it: fuel, service and insurance in
 * `eval:ocr`) are all photographed the hard way, as issue 55 §3 asks: printed, taken at an angle
 * (perspective always on), most in poor light ('hard': a dark corner, dim and blurred) and some at
 * 0.2–1.2 megapixels ('lowres'); never the insurer's own PDF. The receipts before it are the same
 * files as before this was added.
 */
const PHOTOGRAPHED_FROM = 18;
const PHOTOGRAPHED: PhotoStyle[] = ['hard', 'hard', 'lowres'];
const STYLES: PhotoStyle[] = [
  'scan',
  'photo',
  'photo',
  'photo',
  'photo',
  'hard',
  'hard',
  '12mp',
  'small',
  'photo',
  'lowres',
  'lowres',
];

const args = process.argv.slice(2);
const seedArg = args.indexOf('--seed');
const baseSeed = seedArg >= 0 ? Number(args[seedArg + 1]) : 1;
const perCombo = Number(
  args.find((a, i) => /^\d+$/.test(a) && !['--seed', '--out', '--count'].includes(args[i - 1] ?? '')) ?? 10,
);
const countArg = args.indexOf('--count');
const perKind = new Map(
  (countArg >= 0 ? String(args[countArg + 1]) : '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])] as const),
);
const onlyArg = args.indexOf('--only');
const onlyKind = onlyArg >= 0 ? args[onlyArg + 1] : undefined;
const outArg = args.indexOf('--out');
// Another folder (--out) holds another seed's set, e.g. a second tuning set: eval.ts reads it from OCR_DEV_DIR.
const out = outArg >= 0 ? String(args[outArg + 1]) : join(import.meta.dirname, 'out');
mkdirSync(out, { recursive: true });

// Files from another generator version or seed are not these receipts: start over.
const stamp = `v${GENERATOR_VERSION} seed ${baseSeed}`;
const stampFile = join(out, 'stamp.txt');
if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== stamp) {
  for (const f of readdirSync(out)) if (/\.(jpg|pdf)$/.test(f)) rmSync(join(out, f));
  writeFileSync(stampFile, `${stamp}\n`);
}

const entries: Entry[] = [];
let combo = 0;
for (const kind of KINDS)
  for (const lang of LANGS) {
    combo++;
    if (onlyKind && kind !== onlyKind) continue;
    for (let i = 0; i < (perKind.get(kind) ?? perCombo); i++) {
      const seed = baseSeed * 100_003 + combo * 1000 + i;
      const rc = makeReceipt(kind, lang, seed);
      const r = rng(seed * 3 + 11);
      // A few A4 documents arrive as the insurer's or garage's own PDF, with a text layer.
      const hard = i >= PHOTOGRAPHED_FROM;
      const pdf = rc.format === 'a4' && r.chance(0.12) && !hard;
      const style = r.pick(hard ? PHOTOGRAPHED : rc.format === 'a4' ? [...STYLES, 'scan' as const] : STYLES);
      const fx = { ...effectsFor(seed, style, rc.format === 'a4'), ...(hard ? { perspective: true } : {}) };
      const file = `${kind}-${lang}-${String(i).padStart(2, '0')}.${pdf ? 'pdf' : 'jpg'}`;
      // Deterministic: a file already there (same stamp) is the same image, so it is kept.
      if (!existsSync(join(out, file))) {
        const bytes = pdf ? receiptPdf(rc) : await photograph(receiptSvg(rc, seed).svg, seed, style, fx);
        writeFileSync(join(out, file), bytes);
      }
      entries.push({
        file,
        kind,
        lang,
        index: i,
        style: pdf ? 'pdf' : `${rc.format}:${describeShot(style, fx)}`,
        label: rc.label,
      });
    }
  }
writeFileSync(join(out, 'labels.json'), `${JSON.stringify(entries, null, 1)}\n`);
process.stdout.write(
  `${entries.length} receipts in ${out} (${entries.filter(heldOut).length} held out: index % 3 === 2)\n`,
);
