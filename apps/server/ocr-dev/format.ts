/**
 * How receipts print things: a seeded PRNG, dates in the formats each country's tills and
 * insurers use, money with decimal commas or points, km with or without thousands separators.
 */

export type Lang = 'en' | 'ro' | 'es';

/** Deterministic PRNG (mulberry32) so the set is the same on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
    shuffle: <T>(xs: readonly T[]): T[] => {
      const a = [...xs];
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j] as T, a[i] as T];
      }
      return a;
    },
  };
}
export type R = ReturnType<typeof rng>;

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const round2 = (n: number) => Math.round(n * 100) / 100;

export const MONTHS: Record<Lang, string[]> = {
  en: 'January February March April May June July August September October November December'.split(' '),
  ro: 'ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie decembrie'.split(
    ' ',
  ),
  es: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'.split(' '),
};

export type Day = { y: number; m: number; d: number; iso: string };

export function day(y: number, m: number, d: number): Day {
  const t = new Date(Date.UTC(y, m - 1, d));
  const Y = t.getUTCFullYear();
  const M = t.getUTCMonth() + 1;
  const D = t.getUTCDate();
  return { y: Y, m: M, d: D, iso: `${Y}-${pad(M)}-${pad(D)}` };
}

export function randomDate(r: R, from = 2023, to = 2025): Day {
  return day(r.int(from, to), r.int(1, 12), r.int(1, 28));
}

/** `months` later, minus `dayBack` days: the end of a policy that starts on `start` (15.04 → 14.04). */
export function termEnd(start: Day, months: number, dayBack = 1): Day {
  return day(start.y, start.m + months, start.d - dayBack);
}

export const addDays = (dt: Day, n: number) => day(dt.y, dt.m, dt.d + n);

/** Every way a date is printed in `lang`, one picked at random (and the same style kept by `style`). */
export function dateStyle(r: R, lang: Lang): string {
  const styles =
    lang === 'en'
      ? ['dmy/', 'dmy/', 'dmy/yy', 'iso', 'words', 'mon-text', 'd-mon-y', 'dmy.']
      : lang === 'ro'
        ? ['dmy.', 'dmy.', 'dmy.', 'dmy/', 'iso', 'words', 'dmy.yy', 'dmy-']
        : ['dmy/', 'dmy/', 'dmy/yy', 'dmy-', 'words', 'iso', 'dmy.', 'd-mon-y'];
  return r.pick(styles);
}

export function fmtDate(lang: Lang, dt: { y: number; m: number; d: number }, style: string): string {
  const yy = String(dt.y).slice(2);
  const mon = (MONTHS[lang][dt.m - 1] ?? '').slice(0, 3);
  switch (style) {
    case 'iso':
      return `${dt.y}-${pad(dt.m)}-${pad(dt.d)}`;
    case 'dmy.':
      return `${pad(dt.d)}.${pad(dt.m)}.${dt.y}`;
    case 'dmy.yy':
      return `${pad(dt.d)}.${pad(dt.m)}.${yy}`;
    case 'dmy/':
      return `${pad(dt.d)}/${pad(dt.m)}/${dt.y}`;
    case 'dmy/yy':
      return `${pad(dt.d)}/${pad(dt.m)}/${yy}`;
    case 'dmy-':
      return `${pad(dt.d)}-${pad(dt.m)}-${dt.y}`;
    case 'mon-text':
      return `${(MONTHS.en[dt.m - 1] ?? '').slice(0, 3)} ${dt.d}, ${dt.y}`;
    case 'd-mon-y':
      return `${pad(dt.d)}-${mon.toUpperCase()}-${dt.y}`;
    default: {
      const name = MONTHS[lang][dt.m - 1] ?? '';
      return lang === 'es' ? `${dt.d} de ${name} de ${dt.y}` : `${dt.d} ${name} ${dt.y}`;
    }
  }
}

/** 1234.5 → "1.234,50" (ro/es) or "1,234.50" (en); thousands separators only sometimes. */
export function money(r: R, lang: Lang, n: number, decimals = 2, thousands = r.chance(0.6)): string {
  const fixed = n.toFixed(decimals);
  const [int, dec] = fixed.split('.') as [string, string];
  const sep = lang === 'en' ? ',' : '.';
  const withSep = thousands ? int.replace(/\B(?=(\d{3})+(?!\d))/g, sep) : int;
  return decimals === 0 ? withSep : `${withSep}${lang === 'en' ? '.' : ','}${dec}`;
}

export function km(r: R, lang: Lang, n: number): string {
  return money(r, lang, n, 0, r.chance(0.7));
}

export const time = (r: R) => `${pad(r.int(6, 22))}:${pad(r.int(0, 59))}`;
