import { STORAGE_KEYS } from './session';

/** Dark mode is kept in localStorage `darkMode` ('true'/'false') and shown by the body class `dark-mode`. */
export function isDarkMode(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.darkMode) === 'true';
  } catch {
    return false;
  }
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
