/** The receipt's language, by the words it uses. */
import { LANGUAGES, type Language, LEXICONS } from '../lexicon/index.js';

export type { Language } from '../lexicon/index.js';

const LANG_WORDS = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, new RegExp(`\\b(${LEXICONS[lang].detect.join('|')})\\b`, 'g')]),
) as Record<Language, RegExp>;

/** The receipt's language by its words; `fallback` (the user's language) when nothing stands out. */
export function detectLanguage(norm: string, fallback: Language): Language {
  let best: Language = fallback;
  let bestScore = 0;
  for (const lang of LANGUAGES) {
    const score = (norm.match(LANG_WORDS[lang]) ?? []).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}
