/**
 * Scores rules for choosing between a date word's readings (saved by reread-dates.ts): each rule's
 * choice put back in the cached OCR text, the receipt's date extracted again and compared with its label.
 *
 *   node --import tsx apps/server/ocr-dev/reread-score.ts <readings.json>... --cache <dir> [--show rule]
 *
 * What it showed on the SROIE tuning samples (tune, check, tune2, first half of tune3): taking any
 * single re-reading, or the most confident one, or the surest per character, loses more dates than
 * it mends (the unflattened page's readings drop spaces and misread other digits); merging digits
 * by summed probability mends 1; the date most of orig + the three unflattened crops agree on, a
 * tie between a look-alike digit pair going to the inkier digit (vote_u_up_st_ink), mends 4 and
 * breaks none. That rule is chooseDateReading in src/ocr/engines/date-reread.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INKIER } from '../src/ocr/engines/date-reread.js';
import { extract } from '../src/ocr/extract.js';
import { findDates } from '../src/ocr/text/dates.js';
import { normalize, toLines } from '../src/ocr/text/lines.js';
import type { OcrText } from '../src/ocr/worker-pool.js';

type R = { text: string; confidence: number; probs: number[] };
type Word = { line: number; word: number; text: string; readings: Record<string, R> };
type Rec = { id: string; date: string | null; words: Word[] };

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const cacheDir = opt('cache') ?? '';
const show = opt('show');
const files = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const recs: Rec[] = files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Rec[]);

/** A word shaped like a numeric date, maybe with misread separators or digits. */
const DATEISH =
  /(?<!\d)\d{1,2}\s?[^\s\dA-Z]\s?[\dA-Z]{1,2}\s?[^\s\dA-Z]\s?(?:\d{4}|\d{2})(?!\d)|(?<!\d)\d{2}[/.-]?\d{2}[/.-]?(?:19|20)\d{2}(?!\d)/i;
const hasDate = (t: string) => findDates(normalize(t)).length > 0;

type Rule = (w: Word) => string | null;
const minProb = (r: R) => Math.min(...r.probs, 1);
const pickBy = (names: string[], score: (r: R) => number) => (w: Word) => {
  let best: R | undefined;
  for (const n of names) {
    const r = w.readings[n];
    if (r && (!best || score(r) > score(best))) best = r;
  }
  return best?.text ?? null;
};
/**
 * The base reading with each digit the one the readings of the same shape (same characters once
 * spaces are out, digits aside) are surest of in sum; the base's spaces kept.
 */
function merge(base: R, others: R[]): string {
  const strip = (r: R) => {
    const chars: { c: string; p: number; at: number }[] = [];
    [...r.text].forEach((c, i) => {
      if (c !== ' ') chars.push({ c, p: r.probs[i] ?? 0, at: i });
    });
    return chars;
  };
  const b = strip(base);
  const same = others
    .map(strip)
    .filter(
      (o) =>
        o.length === b.length &&
        o.every((x, i) => x.c === b[i]?.c || (/\d/.test(x.c) && /\d/.test(b[i]?.c ?? ''))),
    );
  const out = [...base.text];
  b.forEach((x, i) => {
    if (!/\d/.test(x.c)) return;
    const sum = new Map<string, number>([[x.c, x.p]]);
    for (const o of same) {
      const y = o[i];
      if (y) sum.set(y.c, (sum.get(y.c) ?? 0) + y.p);
    }
    const best = [...sum.entries()].sort((p, q) => q[1] - p[1])[0];
    if (best) out[x.at] = best[0];
  });
  return out.join('');
}
const mergeOf = (names: string[]) => (w: Word) => {
  const o = w.readings.orig;
  if (!o || o.text !== w.text) return null;
  return merge(
    o,
    names.flatMap((n) => (w.readings[n] ? [w.readings[n] as R] : [])),
  );
};

const dateVote =
  (names: string[], ink = false) =>
  (w: Word) => {
    const o = w.readings.orig;
    if (!o || o.text !== w.text) return null;
    const dateOf = (r: R | undefined) => (r ? (findDates(normalize(r.text))[0]?.iso ?? null) : null);
    const own = dateOf(o);
    const votes = new Map<string, number>();
    const texts = new Map<string, string>();
    for (const n of ['orig', ...names]) {
      const d = dateOf(w.readings[n]);
      if (!d) continue;
      votes.set(d, (votes.get(d) ?? 0) + 1);
      if (!texts.has(d)) texts.set(d, w.readings[n]?.text ?? '');
    }
    const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
    const [first, second] = ranked;
    if (!first) return null;
    let win = first[0];
    if (second && second[1] === first[1]) {
      // A tie: the inkier one when they are one look-alike digit apart, else the original's.
      const diff = [...first[0]].flatMap((c, i) =>
        c !== second[0][i] ? [[c, second[0][i]].sort().join('')] : [],
      );
      const inkier = ink && diff.length === 1 ? INKIER[diff[0] ?? ''] : undefined;
      if (inkier)
        win = [...first[0]].some((c, i) => c !== second[0][i] && c === inkier) ? first[0] : second[0];
      else if (own && votes.get(own) === first[1]) win = own;
      else return null;
    }
    if (win === own) return null;
    if ((votes.get(win) ?? 0) < 2 && (own || ranked.length > 1)) return null;
    return texts.get(win) ?? null;
  };

const rules: Record<string, Rule> = {
  vote_u_up: dateVote(['unfl', 'unflpad']),
  vote_u_up_st: dateVote(['unfl', 'unflpad', 'unflst']),
  vote_u_up_st_ink: dateVote(['unfl', 'unflpad', 'unflst'], true),
  vote_u_up_ink: dateVote(['unfl', 'unflpad'], true),
  vote_u_st_ink: dateVote(['unfl', 'unflst'], true),
  vote_up_st_ink: dateVote(['unflpad', 'unflst'], true),
  vote_all_ink: dateVote(['unfl', 'unflpad', 'unflst', 'pad'], true),
  merge_u: mergeOf(['unfl']),
  merge_up: mergeOf(['unflpad']),
  merge_p: mergeOf(['pad']),
  merge_ust: mergeOf(['unflst']),
  merge_u_up: mergeOf(['unfl', 'unflpad']),
  merge_all: mergeOf(['unfl', 'pad', 'unflpad', 'unflst']),
  none: () => null,
  unfl: (w) => w.readings.unfl?.text ?? null,
  unflpad: (w) => w.readings.unflpad?.text ?? null,
  pad: (w) => w.readings.pad?.text ?? null,
  unflst: (w) => w.readings.unflst?.text ?? null,
  maxconf_o_u: pickBy(['orig', 'unfl'], (r) => r.confidence),
  maxconf_o_up: pickBy(['orig', 'unflpad'], (r) => r.confidence),
  maxconf_all: pickBy(['orig', 'unfl', 'pad', 'unflpad', 'unflst'], (r) => r.confidence),
  minp_o_u: pickBy(['orig', 'unfl'], minProb),
  minp_o_up: pickBy(['orig', 'unflpad'], minProb),
  minp_o_p: pickBy(['orig', 'pad'], minProb),
  minp_all: pickBy(['orig', 'unfl', 'pad', 'unflpad', 'unflst'], minProb),
  // The reading whose date most readings agree on; ties: the original.
  vote: (w) => {
    const names = ['orig', 'unfl', 'pad', 'unflpad', 'unflst'];
    const count = new Map<string, number>();
    for (const n of names) {
      const d = findDates(normalize(w.readings[n]?.text ?? ''))[0]?.iso;
      if (d) count.set(d, (count.get(d) ?? 0) + 1);
    }
    const best = [...count.entries()].sort((a, b) => b[1] - a[1])[0];
    if (!best || best[1] < 3) return null;
    return (
      names.map((n) => w.readings[n]).find((r) => r && findDates(normalize(r.text))[0]?.iso === best[0])
        ?.text ?? null
    );
  },
};

const filters: Record<string, (w: Word) => boolean> = {
  dateish: (w) => DATEISH.test(w.text) || hasDate(w.text),
  parsed: (w) => hasDate(w.text),
};

const caches = new Map<string, OcrText>();
const cacheOf = (id: string) => {
  let c = caches.get(id);
  if (!c) {
    c = JSON.parse(readFileSync(join(cacheDir, `${id}.json`), 'utf8')) as OcrText;
    caches.set(id, c);
  }
  return c;
};

for (const [fname, filter] of Object.entries(filters))
  for (const [rname, rule] of Object.entries(rules)) {
    let right = 0;
    let labelled = 0;
    const changes: string[] = [];
    for (const r of recs) {
      if (r.date === null) continue;
      labelled++;
      const c = cacheOf(r.id);
      const lines = c.lines.map((l) => ({ ...l, words: l.words?.map((w) => ({ ...w })) }));
      for (const w of r.words) {
        if (!filter(w)) continue;
        const t = rule(w);
        const l = lines[w.line];
        if (t === null || !l || t === w.text) continue;
        l.text = l.text.replace(w.text, t);
      }
      const before = extract('expense', toLines(c.text, c.lines)).fields.date;
      const got = extract('expense', toLines(c.text, lines)).fields.date;
      if (got === r.date) right++;
      if (got !== before) changes.push(`${r.id}: ${before} -> ${got} (want ${r.date})`);
    }
    process.stdout.write(
      `${fname.padEnd(8)} ${rname.padEnd(14)} ${right}/${labelled} changed ${changes.length}\n`,
    );
    if (show === rname) for (const ch of changes) process.stdout.write(`   ${ch}\n`);
  }
