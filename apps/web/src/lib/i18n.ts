import type { Language } from '@evdra/domain';
import i18n, { type BackendModule, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES } from './languages';
import { STORAGE_KEYS } from './session';

export { i18n };

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ro: 'Română', es: 'Español' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** localStorage `language`, else the first supported browser language, else English. */
export function detectLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.language);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage unavailable (private mode): fall through to the browser's languages
  }
  const browser = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  for (const tag of browser) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}

function syncDocumentLanguage(lng: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

const baseOptions = {
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  load: 'languageOnly' as const,
  interpolation: { escapeValue: false },
  // Keys never name a namespace: said outright, i18next also skips its "is this key a sentence?"
  // test on every t() call (a regular expression per call; ~10 % of i18next's time on a list page).
  nsSeparator: false as const,
  keySeparator: '.',
  returnNull: false,
  showSupportNotice: false,
};

/**
 * Reads /locales/{lng}/{ns}.json with fetch (precached by the service worker; public/early-load.js
 * preloads the first one). A dozen lines instead of i18next-http-backend on the first screen's path.
 */
const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    fetch(`/locales/${language}/${namespace}.json`).then(
      async (res) => {
        if (res.ok) callback(null, await res.json());
        // A server error may pass (i18next tries again); a missing file will not.
        else callback(new Error(`HTTP ${res.status} loading ${language}`), res.status >= 500);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), true),
    );
  },
};

/** App start: translations come from /locales/{lng}/translation.json. */
export function initI18n(): Promise<unknown> {
  i18n.on('languageChanged', syncDocumentLanguage);
  return i18n
    .use(fetchBackend)
    .use(initReactI18next)
    .init({ ...baseOptions, lng: detectLanguage() });
}

/** Tests (and tools) initialise i18next with bundled resources: no HTTP. */
export function initI18nWithResources(resources: Resource, lng: Language = 'en'): Promise<unknown> {
  return i18n.use(initReactI18next).init({ ...baseOptions, lng, resources });
}

/** Switches the UI language now and remembers it (localStorage `language`). */
export async function applyLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, lng);
  } catch {
    // ignore: the language still applies for this visit
  }
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}
