import type { Language } from '@evdra/domain';

/**
 * The UI languages. Kept here (type-checked against @evdra/domain's `Language`) rather than
 * imported at runtime, so the app shell does not pull zod into the initial bundle.
 */
export const LANGUAGES = ['en', 'ro', 'es'] as const satisfies readonly Language[];
export const FALLBACK_LANGUAGE: Language = 'en';

// Compile-time guard: fails if @evdra/domain gains a language this list lacks.
type Missing = Exclude<Language, (typeof LANGUAGES)[number]>;
const coversAllLanguages: Missing extends never ? true : false = true;
void coversAllLanguages;
