import { STORAGE_KEYS } from './session';

/** Dark mode is kept in localStorage `darkMode` ('true'/'false') and shown by the body class `dark-mode`. */
export function isDarkMode(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.darkMode) === 'true';
  } catch {
    return false;
  }
}

export function applyDarkMode(on: boolean): void {
  document.body.classList.toggle('dark-mode', on);
}

export function setDarkMode(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEYS.darkMode, on ? 'true' : 'false');
  } catch {
    // ignore: the choice still applies for this visit
  }
  applyDarkMode(on);
}
