/**
 * The SROIE receipts a run of the public evaluation reads, chosen exactly as eval-public.ts chooses
 * them (`--n`, `--seed`, repeatable `--exclude <seed>:<n>`), for the other development tools.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { sroieDate, sroieTotal } from './public-labels.js';

export type Sample = {
  id: string;
  image: string;
  date: string | null;
  total: number | null;
  company: string;
};

export function findSamples(root: string): Sample[] {
  const keyDir = existsSync(join(root, 'key')) ? join(root, 'key') : root;
  const imgDir = existsSync(join(root, 'img')) ? join(root, 'img') : root;
  const out: Sample[] = [];
  for (const f of readdirSync(keyDir)) {
    if (!/\.(json|txt)$/i.test(f)) continue;
    const id = basename(f, extname(f));
    const image = ['.jpg', '.jpeg', '.png'].map((e) => join(imgDir, id + e)).find((p) => existsSync(p));
    if (!image) continue;
    let key: Record<string, string>;
    try {
      key = JSON.parse(readFileSync(join(keyDir, f), 'utf8'));
    } catch {
      continue;
    }
    if (typeof key !== 'object' || key === null || !('total' in key || 'date' in key)) continue;
    out.push({
      id,
      image,
      date: sroieDate(key.date ?? ''),
      total: sroieTotal(key.total ?? ''),
      company: key.company ?? '',
    });
  }
  return out;
}

/** The first `n` receipts by a hash of seed + name, without those of each excluded sample (drawn in order). */
export function chooseSamples(all: Sample[], seed: string, n: number, excludes: string[]): Sample[] {
  const sampleOf = (s: string, k: number, without: Set<string>) => {
    const key = (id: string) => createHash('sha1').update(`${s}:${id}`).digest('hex');
    return all
      .filter((x) => !without.has(x.id))
      .sort((a, b) => (key(a.id) < key(b.id) ? -1 : 1))
      .slice(0, k);
  };
  const excluded = new Set<string>();
  for (const e of excludes)
    for (const x of sampleOf(e.replace(/:\d+$/, ''), Number(/:(\d+)$/.exec(e)?.[1] ?? 60), new Set(excluded)))
      excluded.add(x.id);
  return sampleOf(seed, n, excluded);
}
