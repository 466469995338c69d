import type { Language } from '@evdra/domain';
import { type ReaderFormat, readerFormat } from '../lib/reader-format.js';
import type { VehicleFacts } from './facts.js';

/**
 * Number, money, date and month formatting of an AI text: in the answer's language, the currency the
 * facts' amounts are in (the reader's, else the vehicle owner's: see VehicleFacts.currency) and the reader's units.
 * Without them: euros, km and L/100 km, as before issue 50.
 */
export function formatter(lang: Language, facts?: Pick<VehicleFacts, 'currency' | 'units'>): Fmt {
  return readerFormat(lang, facts?.currency, facts?.units);
}
export type Fmt = ReaderFormat;

/** Lower case without diacritics, for keyword matching in en, ro and es. */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[șş]/g, 's')
    .replace(/[țţ]/g, 't');
}

/** The first of en, ro, es named in an Accept-Language header, by preference order. */
export function languageFromHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1, i };
    })
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.find((r): r is typeof r & { lang: Language } => ['en', 'ro', 'es'].includes(r.lang))?.lang;
}
