import { STORAGE_KEYS } from './session';

const systemDark = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)');

/**
 * Dark mode is kept in localStorage `darkMode` ('true'/'false') and shown by the body class `dark-mode`.
 * Until the user picks one in Settings (nothing stored), it follows the system's preference.
 */
export function isDarkMode(): boolean {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.darkMode);
  } catch {
    // storage blocked: follow the system
  }
  if (stored === 'true' || stored === 'false') return stored === 'true';
  return systemDark()?.matches ?? false;
}

/** The browser/installed-app bar colour for each mode (the manifest has the light one). */
export const THEME_COLORS = { light: '#1f56c3', dark: '#181d25' } as const;

export function applyDarkMode(on: boolean): void {
  document.body.classList.toggle('dark-mode', on);
  // The app's own choice wins over the OS preference the metas in index.html start from.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = on ? THEME_COLORS.dark : THEME_COLORS.light;
  }
}

export function setDarkMode(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEYS.darkMode, on ? 'true' : 'false');
  } catch {
    // ignore: the choice still applies for this visit
  }
  applyDarkMode(on);
}

/** Applies the mode now, and again whenever the system's preference changes while it is followed. */
export function startTheme(): void {
  applyDarkMode(isDarkMode());
  systemDark()?.addEventListener('change', () => applyDarkMode(isDarkMode()));
}
