import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../public/locales/en/translation.json';
import es from '../../public/locales/es/translation.json';
import ro from '../../public/locales/ro/translation.json';
import { detectLanguage } from './i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

describe('translations', () => {
  const base = flatten(en);

  it.each([
    ['ro', ro],
    ['es', es],
  ])('%s has exactly the English keys, with the same placeholders', (_lng, tree) => {
    const other = flatten(tree as Tree);
    // Plural forms are per language (Romanian has `_few` besides `_one` and `_other`).
    const keysOf = (m: Map<string, string>) => [...m.keys()].filter((k) => !k.endsWith('_few')).sort();
    expect(keysOf(other)).toEqual(keysOf(base));
    for (const [key, text] of base) {
      const vars = (s: string) => (s.match(/\{\{\w+\}\}|<\/?\w+>/g) ?? []).sort();
      expect(vars(other.get(key) ?? ''), key).toEqual(vars(text));
    }
  });

  it.each([
    ['ro', ro],
    ['es', es],
  ])('%s is translated, not copied', (_lng, tree) => {
    const other = flatten(tree as Tree);
    const same = [...base].filter(([key, text]) => other.get(key) === text && /[a-z]{4,}/i.test(text));
    // A few words are the same in every language (e.g. 'Evdra', 'Contact', 'Status' tokens).
    expect(same.length).toBeLessThan(base.size * 0.05);
  });

  it('has a translation for every server error code', async () => {
    const { ERROR_CODES } = await import('@evdra/domain');
    for (const code of ERROR_CODES) expect(flatten(en).has(`errors.${code}`), code).toBe(true);
  });
});

describe('detectLanguage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prefers localStorage language', () => {
    localStorage.setItem('language', 'es');
    expect(detectLanguage()).toBe('es');
  });

  it('then the first supported browser language', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'ro-RO', 'en']);
    expect(detectLanguage()).toBe('ro');
  });

  it('else English', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'fr']);
    expect(detectLanguage()).toBe('en');
  });
});
